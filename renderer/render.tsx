/**
 * render(model): a page snapshot to a complete HTML document and its per-page files.
 */
import { createHash } from "node:crypto";
import { visibleContentOf } from "#core/visible-content.ts";
import { PageBody, PageChrome, pictureSrcOf } from "./components/Page.tsx";
import { imageOrigin, safeSrc } from "./components/safe-href.ts";
import { pageCss, pageStyleOf, type PageStylesheet } from "./css.ts";
import { escapeXml as attr } from "./escape.ts";
import { renderMarkupInto } from "./markup.ts";
import { pageFiles } from "./page-files.ts";
import { CONSENT_KEY } from "./visitor/consent-key.ts";
import type { RenderedPage, RenderInput } from "./types.ts";

export type { RenderInput, RenderedPage } from "./types.ts";

const sha256 = (s: string) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;
/** JSON safe inside a <script> element. */
const scriptJson = (v: unknown) => {
  const json = JSON.stringify(v);
  return /[<>&\u2028\u2029]/.test(json)
    ? json.replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")
    : json;
};

/**
 * The one inline script: shows the cookie banner in the first paint when no choice is stored,
 * instead of after the deferred visitor script runs. Its hash is in the CSP.
 */
export const INLINE_SCRIPT = `try{localStorage.getItem("${CONSENT_KEY}")||document.documentElement.classList.add("ck-open")}catch(e){document.documentElement.classList.add("ck-open")}`;
const INLINE_SCRIPT_HASH = sha256(INLINE_SCRIPT);

/** The CSP hash of each stylesheet, kept as long as pageCss keeps the stylesheet. */
const styleHashes = new WeakMap<PageStylesheet, string>();
function styleHashOf(sheet: PageStylesheet): string {
  let h = styleHashes.get(sheet);
  if (h === undefined) {
    h = sha256(sheet.css);
    styleHashes.set(sheet, h);
  }
  return h;
}

export function renderPage(input: RenderInput): RenderedPage {
  const { snapshot, plan, now, mode } = input;
  const p = snapshot.profile;
  const v = visibleContentOf(snapshot, plan, now);
  const origin = input.origin.replace(/\/+$/, "");
  const apiOrigin = input.apiOrigin.replace(/\/+$/, "");
  const url = `${origin}/${encodeURIComponent(p.username)}`;
  const name = p.displayName.trim() || p.username;
  const title = v.seoTitle || name;
  const description = v.seoDescription || p.bio.trim() || `${name} on Plinth`;

  const pic = pictureSrcOf(p);
  const image = pic ? (pic.startsWith("/") ? origin + pic : pic) : null;
  // Loops rather than map/filter chains, here and in the components: see core/visible-content.ts.
  let imgSrc = "img-src 'self' data:";
  const imageOrigins = new Set<string>();
  for (let i = -1; i < v.links.length; i++) {
    const src = i < 0 ? pic : safeSrc(v.links[i]!.thumbnailUrl);
    const o = src ? imageOrigin(src) : null;
    if (o && !imageOrigins.has(o)) {
      imageOrigins.add(o);
      imgSrc += ` ${o}`;
    }
  }

  const sheet = pageCss(pageStyleOf(p, v), input.assets.fonts);
  const { css, base } = sheet;
  const styleHash = styleHashOf(sheet);
  const csp = [
    "default-src 'none'",
    `style-src ${styleHash}`,
    `script-src 'self' ${INLINE_SCRIPT_HASH}`,
    `connect-src ${apiOrigin}`,
    imgSrc,
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");

  const config = { username: p.username, apiOrigin, url, title, preview: mode === "preview" };
  const sameAs: string[] = [];
  for (let i = 0; i < v.socialLinks.length; i++) if (/^https:\/\//i.test(v.socialLinks[i]!.url)) sameAs.push(v.socialLinks[i]!.url);
  const ld = {
    "@context": "https://schema.org",
    "@type": "ProfilePage",
    url,
    name: title,
    mainEntity: { "@type": "Person", name, alternateName: `@${p.username}`, description, url, ...(image ? { image } : {}), ...(sameAs.length ? { sameAs } : {}) },
  };
  const meta = (k: string, val: string, prop = "name") => `<meta ${prop}="${k}" content="${attr(val)}">`;
  const script = input.assets.visitorScript;
  // The document is collected as pieces and joined once: one flat string, cheap to write.
  const out: string[] = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`,
    `<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">`,
    `<title>${attr(title)}</title>`,
    meta("description", description),
    mode === "preview" ? meta("robots", "noindex,nofollow") : "",
    meta("theme-color", base),
    `<link rel="canonical" href="${attr(url)}">`,
    `<link rel="icon" href="${attr(input.assets.favicon)}" type="image/svg+xml">`,
    pic ? `<link rel="preload" as="image" href="${attr(pic)}">` : "",
    meta("og:type", "profile", "property"),
    meta("og:title", title, "property"),
    meta("og:description", description, "property"),
    meta("og:url", url, "property"),
    meta("og:site_name", "Plinth", "property"),
    meta("profile:username", p.username, "property"),
    image ? meta("og:image", image, "property") + meta("og:image:alt", name, "property") + meta("twitter:image", image) : "",
    meta("twitter:card", image ? "summary_large_image" : "summary"),
    meta("twitter:title", title),
    meta("twitter:description", description),
    "<style>",
    css,
    "</style>",
    `<script>${INLINE_SCRIPT}</script>`,
    `<script type="application/ld+json">${scriptJson(ld)}</script>`,
    `<script type="application/json" id="plinth-config">${scriptJson(config)}</script>`,
    `<script src="${attr(script.src)}" integrity="${script.integrity}" defer></script></head><body>`,
  ];
  renderMarkupInto(
    <>
      <PageBody snapshot={snapshot} plan={plan} now={now} mode={mode} origin={origin} content={v} />
      <PageChrome origin={origin} />
    </>,
    out,
  );
  out.push("</body></html>");
  const html = out.join("");
  return { html, files: pageFiles(url, v.links) };
}
