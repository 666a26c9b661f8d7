/**
 * render(model): a page snapshot to a complete HTML document and its per-page files.
 */
import { createHash } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { visibleContentOf } from "#core/visible-content.ts";
import { Page } from "./components/Page.tsx";
import { safeSrc } from "./components/safe-href.ts";
import { pageCss } from "./css.ts";
import { pageFiles } from "./page-files.ts";
import type { RenderedPage, RenderInput } from "./types.ts";

export type { RenderInput, RenderedPage } from "./types.ts";

const sha256 = (s: string) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;
/** JSON safe inside a <script> element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function renderPage(input: RenderInput): RenderedPage {
  const { snapshot, plan, now, mode } = input;
  const p = snapshot.profile;
  const v = visibleContentOf(snapshot, plan, now);
  const origin = input.origin.replace(/\/+$/, "");
  const apiOrigin = input.apiOrigin.replace(/\/+$/, "");
  const url = `${origin}/${encodeURIComponent(p.username)}`;
  const name = p.displayName || p.username;
  const title = (v.plus && p.seoTitle) || name;
  const description = (v.plus && p.seoDescription) || p.bio || `${name} on Plinth`;
  const pic = safeSrc(p.profilePictureUrl);
  const image = pic && p.profilePictureStyle !== "hidden" && p.profilePictureStyle !== "initials" ? (pic.startsWith("/") ? origin + pic : pic) : null;
  const css = pageCss(p, v.plus, input.assets.fonts);
  const csp = [
    "default-src 'none'",
    `style-src ${sha256(css)}`,
    "script-src 'self'",
    `connect-src 'self' ${apiOrigin}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  const body = renderToStaticMarkup(<Page snapshot={snapshot} plan={plan} now={now} mode={mode} />);
  const config = { username: p.username, apiOrigin, url, links: v.links.map((l) => l.id) };
  const ld = { "@context": "https://schema.org", "@type": "ProfilePage", url, mainEntity: { "@type": "Person", name, description, ...(image ? { image } : {}) } };
  const meta = (k: string, val: string, prop = "name") => `<meta ${prop}="${k}" content="${attr(val)}">`;
  const head =
    `<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
    `<title>${attr(title)}</title>` +
    meta("description", description) +
    (mode === "preview" ? meta("robots", "noindex,nofollow") : "") +
    `<link rel="canonical" href="${attr(url)}">` +
    meta("og:type", "profile", "property") + meta("og:title", title, "property") + meta("og:description", description, "property") + meta("og:url", url, "property") +
    (image ? meta("og:image", image, "property") + meta("twitter:image", image) : "") +
    meta("twitter:card", image ? "summary_large_image" : "summary") + meta("twitter:title", title) + meta("twitter:description", description) +
    `<style>${css}</style>` +
    `<script type="application/ld+json">${scriptJson(ld)}</script>` +
    `<script type="application/json" id="plinth-config">${scriptJson(config)}</script>` +
    (input.assets.visitorScript ? `<script src="${attr(input.assets.visitorScript)}" defer></script>` : "");
  const html = `<!doctype html><html lang="en"><head>${head}</head><body>${body}</body></html>`;
  return { html, files: pageFiles(snapshot, url, v.links) };
}
