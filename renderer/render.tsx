/**
 * render(model): a page snapshot to a complete HTML document and its per-page files.
 */
import { paidDownloadOf, tipConfigOf } from "#core/payments.ts";
import { createHash } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { EMBED_FRAME_ORIGINS, playerOf } from "#core/embeds.ts";
import { visibleContentOf } from "#core/visible-content.ts";
import { BRAND_ICONS } from "./components/brand-icons.ts";
import { CookieBanner, PageBody, PageChrome, pictureSrcOf } from "./components/Page.tsx";
import { imageOrigin, safeSrc } from "./components/safe-href.ts";
import { pageCss, pageStyleOf, type PageStylesheet } from "./css.ts";
import { escapeXml as attr } from "./escape.ts";
import { longFormBlocks } from "./markdown.ts";
import { pageAddress } from "./page-address.ts";
import { pageFiles } from "./page-files.ts";
import { CONSENT_KEY } from "./visitor/consent-key.ts";
import type { RenderedPage, RenderInput } from "./types.ts";

export type { RenderInput, RenderedPage } from "./types.ts";

const sha256 = (s: string) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;
/** Characters JSON.stringify escapes in a string (controls, quote, backslash, lone surrogates) or that are unsafe inside <script>. */
const JSON_SPECIAL = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;
/** A JSON string value safe inside a <script> element: JSON.stringify's text, made safe. */
const scriptString = (v: string) => {
  if (!JSON_SPECIAL.test(v)) return `"${v}"`;
  const json = JSON.stringify(v);
  return /[<>&\u2028\u2029]/.test(json)
    ? json.replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")
    : json;
};

/** An origin without trailing slashes; the last one asked is remembered, as every page of a republish asks the same. */
let lastOrigin = ["", ""];
function trimmedOrigin(origin: string): string {
  if (lastOrigin[0] !== origin) lastOrigin = [origin, origin.replace(/\/+$/, "")];
  return lastOrigin[1]!;
}

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
  const origin = trimmedOrigin(input.origin);
  const apiOrigin = trimmedOrigin(input.apiOrigin);
  const pagesOrigin = input.pagesOrigin ? input.pagesOrigin.replace(/\/+$/, "") : origin;
  const url = input.pageUrl ?? pageAddress(p.username, pagesOrigin, plan, now, input.customDomain);
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

  // Frames only from the embed hosts of the page's players (ADR 212); a page without one says nothing of frames.
  let frameSrc = "";
  for (let i = 0; i < v.links.length; i++) {
    const embed = v.links[i]!.data.player === "on" ? playerOf(v.links[i]!) : null;
    const o = embed ? EMBED_FRAME_ORIGINS[embed.service] : null;
    if (o && !frameSrc.includes(` ${o}`)) frameSrc += ` ${o}`;
  }

  // Forms only to Plinth's checkout endpoint, and only on a page that takes payments (ADR 231).
  let takesPayments = false;
  for (let i = 0; i < v.links.length && !takesPayments; i++) {
    const l = v.links[i]!;
    takesPayments = (l.linkType === "tip" && tipConfigOf(l.data) !== null) || (l.linkType === "paid_download" && paidDownloadOf(l.data) !== null);
  }
  const formAction = takesPayments ? apiOrigin || "'self'" : "'none'";

  const sheet = pageCss(pageStyleOf(p, v), input.assets.fonts);
  const csp = `default-src 'none'; style-src ${styleHashOf(sheet)}; script-src 'self' ${INLINE_SCRIPT_HASH}; connect-src ${apiOrigin}; ${imgSrc}; font-src 'self';${frameSrc ? ` frame-src${frameSrc};` : ""} base-uri 'none'; form-action ${formAction}`;

  // The JSON-LD and the visitor script's config, written out key by key: the same text
  // JSON.stringify gives for these objects, each string value made safe inside <script>.
  const jsUrl = scriptString(url);
  const jsTitle = scriptString(title);
  let sameAs = "";
  for (let i = 0; i < v.socialLinks.length; i++) {
    const u = v.socialLinks[i]!.url;
    if (/^https:\/\//i.test(u)) sameAs += `${sameAs ? "," : ""}${scriptString(u)}`;
  }
  const ld =
    `{"@context":"https://schema.org","@type":"ProfilePage","url":${jsUrl},"name":${jsTitle},"mainEntity":{"@type":"Person",` +
    `"name":${scriptString(name)},"alternateName":${scriptString(`@${p.username}`)},"description":${scriptString(description)},"url":${jsUrl}` +
    `${image ? `,"image":${scriptString(image)}` : ""}${sameAs ? `,"sameAs":[${sameAs}]` : ""}}}`;
  const config = `{"username":${scriptString(p.username)},"apiOrigin":${scriptString(apiOrigin)},"url":${jsUrl},"title":${jsTitle},"preview":${mode === "preview"}}`;

  // Each value escaped once, for every tag that carries it.
  const aTitle = attr(title);
  const aDescription = attr(description);
  const aUrl = attr(url);
  const aImage = image ? attr(image) : "";
  const script = input.assets.visitorScript;
  // The document is collected as pieces and joined once: one flat string, cheap to write.
  const out: string[] = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<meta http-equiv="Content-Security-Policy" content="${attr(csp)}"><title>${aTitle}</title><meta name="description" content="${aDescription}">` +
      `${mode === "preview" ? `<meta name="robots" content="noindex,nofollow">` : ""}<meta name="theme-color" content="${attr(sheet.base)}">` +
      `<link rel="canonical" href="${aUrl}"><link rel="icon" href="${attr(input.assets.favicon)}" type="image/svg+xml">` +
      `${pic ? `<link rel="preload" as="image" href="${attr(pic)}">` : ""}<meta property="og:type" content="profile">` +
      `<meta property="og:title" content="${aTitle}"><meta property="og:description" content="${aDescription}"><meta property="og:url" content="${aUrl}">` +
      `<meta property="og:site_name" content="Plinth"><meta property="profile:username" content="${attr(p.username)}">` +
      `${image ? `<meta property="og:image" content="${aImage}"><meta property="og:image:alt" content="${attr(name)}"><meta name="twitter:image" content="${aImage}">` : ""}` +
      `<meta name="twitter:card" content="${image ? "summary_large_image" : "summary"}"><meta name="twitter:title" content="${aTitle}">` +
      `<meta name="twitter:description" content="${aDescription}"><style>`,
    sheet.css,
    `</style><script>${INLINE_SCRIPT}</script><script type="application/ld+json">${ld}</script>` +
      `<script type="application/json" id="plinth-config">${config}</script>` +
      `<script src="${attr(script.src)}" integrity="${script.integrity}" defer></script></head><body>`,
  ];
  out.push(
    renderToStaticMarkup(
      <>
        <CookieBanner origin={origin} />
        <PageBody snapshot={snapshot} plan={plan} now={now} mode={mode} banner={input.banner} origin={origin} pagesOrigin={pagesOrigin} apiOrigin={apiOrigin} pageUrl={url} content={v} longForm={longFormBlocks(v.longFormText)} icons={BRAND_ICONS} />
        <PageChrome />
      </>,
    ),
  );
  out.push("</body></html>");
  const html = out.join("");
  return { html, files: pageFiles(url, v.links) };
}
