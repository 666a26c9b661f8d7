/**
 * The only URLs the public page emits. Anything not accepted here is dropped at render (ADR 020,
 * ADR 024), whatever the database holds.
 */
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/;

/** Only http(s), mailto and tel URLs become links. */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  const u = url.trim();
  // Control characters and whitespace inside a URL are how scheme checks get tricked ("java\tscript:").
  if (u.length > 2048 || CONTROL_OR_SPACE.test(u)) return null;
  if (/^https?:\/\/[^/?#\\]/i.test(u)) return u;
  if (/^(mailto|tel):[^/\\]/i.test(u)) return u;
  return null;
}

/**
 * Images: files Plinth stores (/media/...) or https URLs. Anything else (http, data:, javascript:,
 * protocol-relative, other same-site paths) is dropped. The page's CSP allows exactly the origins
 * that these URLs name.
 */
export function safeSrc(url: string | null | undefined): string | null {
  if (!url) return null;
  const u = url.trim();
  if (u.length > 2048 || CONTROL_OR_SPACE.test(u)) return null;
  if (/^\/media\/[A-Za-z0-9._~/-]+$/.test(u) && !u.includes("..") && !u.includes("//")) return u;
  if (!/^https:\/\/[^/?#\\]/i.test(u)) return null;
  try {
    const parsed = new URL(u);
    // A plain DNS name only: the origin goes into the CSP, where ';' or quotes would add directives.
    return /^[a-z0-9.-]+$/.test(parsed.hostname) && !parsed.username && !parsed.password ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The origin of an https image URL, for the CSP's img-src; null for same-site paths. */
export function imageOrigin(src: string): string | null {
  if (src.startsWith("/")) return null;
  try {
    return new URL(src).origin;
  } catch {
    return null;
  }
}
