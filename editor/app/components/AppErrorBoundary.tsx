/**
 * The top-level error screen (spec section 2): 'Something went wrong', the message, Reload Page.
 */
import { Component, type ReactNode } from "react";

export class AppErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="mx-auto max-w-lg p-8 text-center">
        <h1 className="text-2xl font-bold">Something went wrong</h1>
        <p className="mt-2 text-slate-600">{this.state.error.message}</p>
        <button type="button" onClick={() => window.location.reload()} className="mt-4 rounded-md bg-brand-600 px-4 py-2 font-medium text-white">
          Reload Page
        </button>
      </div>
    );
  }
}
