/**
 * The dashboard's top-level error screen is the one every React part of the site uses
 * (editor/components/ErrorBoundary.tsx): render errors, uncaught errors and unhandled rejections.
 */
export { ErrorBoundary as AppErrorBoundary } from "../../components/ErrorBoundary.tsx";
