/**
 * The top-level error screen (docs/product.md section 2): 'Something went wrong', the message, Reload Page. One
 * text for the dashboard, the React islands (ErrorBoundary.tsx) and the static pages (error-screen.ts).
 */
export const ERROR_SCREEN = {
  title: "Something went wrong",
  reload: "Reload Page",
  /** When what was thrown carries no message of its own. */
  unknown: "An unexpected error occurred.",
} as const;

/** The message to show for whatever was thrown or rejected. */
export function errorMessage(thrown: unknown): string {
  if (thrown instanceof Error && thrown.message) return thrown.message;
  if (typeof thrown === "string" && thrown) return thrown;
  return ERROR_SCREEN.unknown;
}

/**
 * Whether a window 'error' event is one of ours worth the error screen. Errors of cross-origin
 * scripts arrive without an error object ('Script error.'), and so does Chromium's benign
 * 'ResizeObserver loop' notice; neither means the page broke.
 */
export function isUncaughtPageError(event: ErrorEvent): boolean {
  return event.error !== null && event.error !== undefined;
}
