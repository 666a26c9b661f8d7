/**
 * The only URLs the public page emits. Anything not accepted here is dropped at render (ADR 020,
 * ADR 024, ADR 096), whatever the database holds.
 */
import { isImageUrl, isLinkAddress, isWebUrl, linkAddressOf, parsedUrl } from "#core/url-rule.ts";

/**
 * A link's address: exactly what the editor and the API accept (core/url-rule.ts), so a saved link
 * is always drawn and a row saved under an older rule is dropped rather than repaired.
 */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  const u = url.trim();
  return isWebUrl(u) ? u : null;
}

/**
 * A button's or text link's address: a web URL, or an e-mail, phone or text-message link (ADR 144),
 * exactly as the link schema accepts it; null for anything else, and for the types drawn without one.
 */
export function linkHref(link: { linkType: string; url: string; data: { url?: string } }): string | null {
  const address = linkAddressOf(link)?.trim();
  return address && isLinkAddress(link.linkType, address) ? address : null;
}

/** Whether a contact card's e-mail may become a mailto: link: no controls or spaces, no leading slash. */
export function isMailable(email: string): boolean {
  return email !== "" && email.length <= 2048 && !/[\u0000-\u0020\u007f-\u009f\u2028\u2029]/.test(email) && !/^[/\\]/.test(email);
}

/**
 * Images: files Plinth stores (/media/...) or https URLs from a plain host name (core/url-rule.ts
 * isImageUrl). Anything else (http, data:, javascript:, protocol-relative, other same-site paths) is
 * dropped. The page's CSP allows exactly the origins that these URLs name.
 */
export function safeSrc(url: string | null | undefined): string | null {
  if (!url) return null;
  const u = url.trim();
  if (/^\/media\/[A-Za-z0-9._~/-]+$/.test(u) && !u.includes("..") && !u.includes("//")) return u.length <= 2048 ? u : null;
  return isImageUrl(u) ? new URL(u).href : null;
}

/** The origin of an https image URL, for the CSP's img-src; null for same-site paths. */
export function imageOrigin(src: string): string | null {
  if (src.startsWith("/")) return null;
  return parsedUrl(src)?.origin ?? null;
}
