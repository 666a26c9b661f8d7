/**
 * render(model): a page snapshot to a complete HTML document and its per-page files.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { Page } from "./components/Page.tsx";
import type { RenderedPage, RenderInput } from "./types.ts";

export type { RenderInput, RenderedPage } from "./types.ts";

export function renderPage(input: RenderInput): RenderedPage {
  const { profile } = input.snapshot;
  const title = profile.displayName || profile.username;
  const body = renderToStaticMarkup(<Page snapshot={input.snapshot} now={input.now} />);
  const escapedTitle = renderToStaticMarkup(<title>{title}</title>);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${escapedTitle}</head><body>${body}</body></html>`;
  return { html, files: [] };
}
