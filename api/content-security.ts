/**
 * Content-Security-Policy and frame protection for every HTML answer of the server (ADR 055).
 *
 * The site's pages are static files whose inline scripts (the signed-in hint, Astro's island
 * loaders, small page scripts) are allowed by their SHA-256 hashes, read from the file itself the
 * first time it is served and again whenever it changes. Published pages carry their own policy in
 * a meta tag (renderer/render.tsx); a meta tag cannot forbid framing, so the server adds that.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import type { MiddlewareHandler } from "hono";

/** Forbids framing by anyone, for browsers that read only the older header. */
export const FRAME_OPTIONS = { "X-Frame-Options": "DENY" } as const;

/**
 * A published page or the owner's preview: what its meta tag cannot say. Both policies apply, so the
 * page's own (scripts by hash, styles by hash, no plugins) still holds in full.
 */
export const PAGE_HEADERS = {
  ...FRAME_OPTIONS,
  "Content-Security-Policy": "frame-ancestors 'none'; object-src 'none'; base-uri 'none'",
} as const;

/** For any other HTML the server makes (a built-in fallback page): nothing but itself and inline styles. */
export const FALLBACK_POLICY = "default-src 'none'; style-src 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The site's policy around a page's script hashes. Styles may be inline: Astro, React (style
 * attributes) and the dashboard's live preview (a frame whose stylesheet follows the owner's typing)
 * all write them. Images come from this server, the crop dialog's blob: and data: URLs, and the
 * https addresses owners give for link thumbnails.
 */
export function sitePolicy(scriptHashes: readonly string[]): string {
  const scripts = ["'self'", ...scriptHashes].join(" ");
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/** The CSP source of every inline script of an HTML document (scripts with a src are 'self'). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(INLINE_SCRIPT)) {
    if (/\ssrc\s*=/i.test(` ${m[1]}`)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(m[2]!, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** Site pages by path: the policy, and the size and time of the file it was read from. */
const policies = new Map<string, { size: number; mtimeMs: number; policy: string }>();

/** The policy of one of the site's HTML files, read again only when the file has changed. */
export function sitePolicyOf(path: string): string {
  const st = statSync(path);
  const known = policies.get(path);
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) return known.policy;
  const policy = sitePolicy(inlineScriptHashes(readFileSync(path, "utf8")));
  policies.set(path, { size: st.size, mtimeMs: st.mtimeMs, policy });
  return policy;
}

/**
 * The last word on HTML answers: one that carries no policy of its own gets the fallback, and every
 * one is forbidden to be framed.
 */
export const htmlSecurityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  // API answers are JSON, or HTML that sets its own policy; reading a finished answer's headers
  // would build them again for every request.
  if (c.req.path.startsWith("/api/")) return;
  if (!c.res.headers.get("content-type")?.startsWith("text/html")) return;
  if (!c.res.headers.has("Content-Security-Policy")) c.res.headers.set("Content-Security-Policy", FALLBACK_POLICY);
  if (!c.res.headers.has("X-Frame-Options")) c.res.headers.set("X-Frame-Options", FRAME_OPTIONS["X-Frame-Options"]);
};
