/**
 * The one URL rule (ADR 096): the editor and the API accept a link's URL only if the public page
 * will link to it, and the renderer links to nothing else. Whatever is accepted is shown; whatever
 * would not be shown is refused with "Please enter a valid URL".
 */
import { decode } from "punycode/punycode.es6.js";
import { LIMITS } from "./limits.ts";

/**
 * Characters a URL never carries as written out: controls, spaces of every kind, invisible format
 * characters (zero-width and bidi marks, embeddings, overrides and isolates, word joiner, BOM),
 * quotes, angle brackets, backslash and backtick. A browser would drop, encode or reinterpret them
 * ("java\tscript:", "https:\\evil.example").
 */
const REFUSED_CLASS = String.raw`\u0000-\u0020\u007f-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff"'<>\\\x60`;
const REFUSED = new RegExp(`[${REFUSED_CLASS}]`);

/**
 * http or https, "//", then the host (and port) up to the path, query or fragment. No "@" there, so
 * no user name or password. "https:example.com" and "https:///example.com" do not match: browsers
 * repair them, but a URL is stored and drawn exactly as written.
 */
const SHAPE = /^https?:\/\/[^/?#@]+(?:[/?#]|$)/i;

/**
 * The common case in one pass, without parsing: a host of dot-separated ASCII labels (letters,
 * digits, hyphens), none starting "xn--", the last starting with a letter, and no port. The WHATWG
 * URL parser accepts every such host (it is never an IPv4 number and needs no IDNA decoding), and
 * the path, query and fragment never make it fail, so a match is a web URL. Anything else (ports,
 * IP addresses, international names) takes the full check. The renderer asks this about every link
 * of every page a bulk republish draws; a parse costs several times as much.
 */
const PLAIN = new RegExp(String.raw`^https?:\/\/(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z][a-z0-9-]*(?:[/?#][^${REFUSED_CLASS}]*)?$`, "i");

/**
 * The WHATWG parser accepts the URL, and each "xn--" label of its host is the encoding of an
 * international name, which the parser encodes back to the same label. Parsers disagree on a label
 * that is not ("xn--zz", "xn--ab-"): some refuse it, some keep it as written, some rewrite it.
 * Refusing it keeps the rule the same in every browser and Node version.
 */
function parses(url: string): boolean {
  const u = parsedUrl(url);
  return u !== null && u.hostname.split(".").every((label) => !label.startsWith("xn--") || isEncodedName(label));
}

/** `value` as the WHATWG parser reads it, or null when it refuses it. */
export function parsedUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

function isEncodedName(label: string): boolean {
  let name: string;
  try {
    name = decode(label.slice(4));
  } catch {
    return false;
  }
  if (!/[^\x00-\x7f]/.test(name)) return false;
  return parsedUrl(`https://${name}/`)?.hostname === label;
}

/**
 * An absolute http(s) URL, written out in full, that browsers parse (WHATWG URL) to the place it
 * names: no refused character, the shape above, and a host and port the parser accepts.
 */
export function isWebUrl(value: string): boolean {
  if (value.length > LIMITS.URL_MAX) return false;
  return PLAIN.test(value) || (!REFUSED.test(value) && SHAPE.test(value) && parses(value));
}

/**
 * An image the public page may load from elsewhere: a web URL over https whose host is a plain DNS
 * name, as the page's Content-Security-Policy names its origin (ADR 024).
 */
export function isImageUrl(value: string): boolean {
  if (!isWebUrl(value) || !/^https:/i.test(value)) return false;
  return /^[a-z0-9.-]+$/.test(new URL(value).hostname);
}

/**
 * E-mail, phone and text-message links (ADR 144): one address with an optional subject, or one
 * international (E.164) number. Nothing a mail or phone app would read as a second recipient, another
 * header (cc, bcc, body), a line break or a script. The scheme may be written in any case.
 */
const MAILTO = /^mailto:([A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*)@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})(?:\?subject=((?:[A-Za-z0-9\-._~!$()*+,;:@/?]|%[0-9A-Fa-f]{2})+))?$/i;
const PHONE = /^(?:tel|sms):\+[1-9][0-9]{6,14}$/i;
/** What a decoded subject may not carry: controls (CR, LF), invisible format and reordering characters. */
const REFUSED_IN_SUBJECT = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;
const EMAIL_MAX = 254;
const SUBJECT_MAX = 200;

/** A `mailto:` link to one address with an optional subject, or a `tel:` or `sms:` link to one E.164 number. */
export function isContactUrl(value: string): boolean {
  if (value.length > LIMITS.URL_MAX) return false;
  if (PHONE.test(value)) return true;
  const m = MAILTO.exec(value);
  if (!m) return false;
  const [, local, domain, subject] = m as unknown as [string, string, string, string | undefined];
  if (local.length > 64 || local.length + 1 + domain.length > EMAIL_MAX) return false;
  if (subject === undefined) return true;
  let text: string;
  try {
    text = decodeURIComponent(subject);
  } catch {
    return false;
  }
  return text.trim() !== "" && text.length <= SUBJECT_MAX && !REFUSED_IN_SUBJECT.test(text);
}

/** The kind of a contact link, by its scheme (whether or not it is well formed), for the editor's messages. */
export function contactSchemeOf(value: string): "mailto" | "tel" | "sms" | null {
  const m = /^(mailto|tel|sms):/i.exec(value.trim());
  return m ? (m[1]!.toLowerCase() as "mailto" | "tel" | "sms") : null;
}

/** Link types whose address may also be an e-mail, a phone number or a text message (ADR 144). */
export const CONTACT_LINK_TYPES: readonly string[] = ["standard_url", "text_link"];

/** Whether the page links a link of this type to `address`: a web URL, or for a button or text link a contact URL. */
export function isLinkAddress(linkType: string, address: string): boolean {
  return isWebUrl(address) || (CONTACT_LINK_TYPES.includes(linkType) && isContactUrl(address));
}

/**
 * What the owner meant by what they typed in a URL field (ADR 145), shown in the field before it is
 * saved and applied again by the API: a web address without its scheme gets https://
 * ("shop.example.com"); with `contact`, a bare e-mail address becomes a mailto: link and a number
 * starting with "+" a tel: link; a contact link loses the spaces, dashes, dots and brackets of its
 * number and the spaces of its subject (as %20). Anything else comes back trimmed, for the rule to
 * judge: nothing with another scheme (javascript:, https:example.com) is ever repaired.
 */
export function completeUrl(raw: string, contact = false): string {
  const value = raw.trim();
  if (!value) return value;
  const scheme = /^([a-z][a-z0-9+-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === "tel" || scheme === "sms") {
    const rest = value.slice(scheme.length + 1);
    return /^\+?[0-9 ().-]+$/.test(rest) ? `${scheme}:${rest.replace(/[ ().-]/g, "")}` : `${scheme}:${rest}`;
  }
  if (scheme === "mailto") {
    const rest = value.slice(7);
    const q = rest.indexOf("?");
    return q < 0 ? `mailto:${rest}` : `mailto:${rest.slice(0, q)}?${rest.slice(q + 1).replace(/ /g, "%20")}`;
  }
  // "localhost:3000" and "example.com:8080/x" read as a scheme: a host with a port is completed too.
  if (scheme && !/^[0-9]+(?:[/?#]|$)/.test(value.slice(scheme.length + 1))) return value;
  if (contact && /^[^\s@/?#:]+@[^\s@/?#:]+\.[^\s@/?#:]+$/.test(value)) return `mailto:${value}`;
  if (contact && /^\+[0-9 ().-]+$/.test(value)) return `tel:${value.replace(/[ ().-]/g, "")}`;
  // A host name (with a dot, or localhost) first, then perhaps a port, path, query or fragment.
  if (/^(?:[^\s/?#@:.\\]+\.)+[^\s/?#@:.\\]+\.?(?::[0-9]+)?(?:[/?#]|$)/.test(value) || /^localhost(?::[0-9]+)?(?:[/?#]|$)/i.test(value)) return `https://${value}`;
  return value;
}

const ADDRESSLESS_TYPES: readonly string[] = ["label", "vcf", "lead_magnet", "qr_code"];

/**
 * The address the public page links a saved link to: a text link's own url, else its main one; the
 * stored url for a button; null for the types drawn without one (label, contact card, lead magnet,
 * QR code). A button whose address fails the URL rule is left off the page and a text link's text
 * is drawn unlinked (a row saved under an older rule, ADR 096); the dashboard marks both.
 */
export function linkAddressOf(link: { linkType: string; url: string; data: { url?: string } }): string | null {
  if (link.linkType === "text_link") return link.data.url || link.url;
  return ADDRESSLESS_TYPES.includes(link.linkType) ? null : link.url;
}

/** A file uploaded to Plinth's own media storage: "/media/ab/<32 hex>.<ext>", nothing a path could escape with. */
export function isMediaPath(value: string): boolean {
  return /^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.(jpg|png|gif|webp|pdf|epub|zip|mp3)$/.test(value);
}
