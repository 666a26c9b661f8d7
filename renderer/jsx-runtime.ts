/**
 * React's JSX runtime as plain bindings, for the republish worker's bundle (renderer/republish.ts).
 * Bundled as it is, every element's `jsx(...)` would read the function through a getter that
 * esbuild's CommonJS interop puts on the module's namespace: a few percent of rendering a page.
 */
import * as runtime from "react/jsx-runtime";

export const jsx = runtime.jsx;
export const jsxs = runtime.jsxs;
export const Fragment = runtime.Fragment;
