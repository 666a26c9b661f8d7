/**
 * The top-level error screen for the dashboard SPA and every React island (docs/product.md section 2):
 * 'Something went wrong', the message and Reload Page. It catches render errors like any error
 * boundary, and also uncaught errors and unhandled rejections from event handlers and async code,
 * which React boundaries never see, so no failure leaves the screen silently half-working.
 */
import { Component, type ErrorInfo, type ReactNode } from "react";
import { ERROR_SCREEN, errorMessage, isUncaughtPageError } from "./site/error-texts.ts";

interface Props {
  children: ReactNode;
}
interface State {
  message: string | null;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { message: null };

  static getDerivedStateFromError(error: unknown): State {
    return { message: errorMessage(error) };
  }

  private onError = (event: ErrorEvent) => {
    if (isUncaughtPageError(event)) this.setState({ message: errorMessage(event.error) });
  };

  private onRejection = (event: PromiseRejectionEvent) => {
    this.setState({ message: errorMessage(event.reason) });
  };

  override componentDidMount() {
    window.addEventListener("error", this.onError);
    window.addEventListener("unhandledrejection", this.onRejection);
  }

  override componentWillUnmount() {
    window.removeEventListener("error", this.onError);
    window.removeEventListener("unhandledrejection", this.onRejection);
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // Kept in the browser console for whoever debugs it; the screen shows only the message.
    console.error("Uncaught error", error, info.componentStack);
  }

  override render() {
    if (this.state.message === null) return this.props.children;
    return (
      <div role="alert" className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-24 text-center">
        <h1 className="text-3xl font-bold">{ERROR_SCREEN.title}</h1>
        <p className="mt-3 break-words text-slate-700">{this.state.message}</p>
        <button
          type="button"
          autoFocus
          onClick={() => window.location.reload()}
          className="mt-8 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {ERROR_SCREEN.reload}
        </button>
      </div>
    );
  }
}

export default ErrorBoundary;
