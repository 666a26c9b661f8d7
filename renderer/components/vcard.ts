/**
 * Contact cards: the vCard 3.0 text of a vcf link and its file name, and the QR code's file name.
 * Pure, so the page components can name the files without node: APIs. Names are derived from the
 * content: a page version never points at a file that a later version rewrote.
 */
import type { PageLink } from "#core/model.ts";

function vEscape(s: string): string {
  // RFC 6350 escaping; other control characters (CR, NUL, ...) could split or forge properties.
  return s.replace(/\\/g, "\\\\").replace(/\r\n|\r|\n/g, "\\n").replace(/[,;]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, "");
}

export function vcardFields(link: PageLink): { name: string; phone: string; email: string; organization: string } {
  const d = link.data;
  return { name: (d.name || link.title).trim(), phone: (d.phone ?? "").trim(), email: (d.email ?? "").trim(), organization: (d.organization ?? "").trim() };
}

export function vcard(link: PageLink): string {
  const f = vcardFields(link);
  const lines = ["BEGIN:VCARD", "VERSION:3.0", `FN:${vEscape(f.name)}`, `N:${vEscape(f.name)};;;;`];
  if (f.organization) lines.push(`ORG:${vEscape(f.organization)}`);
  if (f.phone) lines.push(`TEL;TYPE=CELL:${vEscape(f.phone)}`);
  if (f.email) lines.push(`EMAIL;TYPE=INTERNET:${vEscape(f.email)}`);
  lines.push("END:VCARD");
  return lines.join("\r\n") + "\r\n";
}

/** 53-bit string hash (cyrb53): enough to tell one page's card versions apart, and pure. */
export function shortHash(s: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return base36(4294967296 * (2097151 & h2) + (h1 >>> 0));
}

const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";
/**
 * n.toString(36) for an integer 0 <= n < 2^53, the same digits at a sixth of the cost (a double's
 * toString with a radix is slow in V8, and bulk republish names a QR file for every page). Exact:
 * n - r is a multiple of 36, so every step divides without rounding.
 */
function base36(n: number): string {
  let out = "";
  do {
    const r = n % 36;
    out = DIGITS[r]! + out;
    n = (n - r) / 36;
  } while (n > 0);
  return out;
}

/** A card's file name, from its vCard text (vcard()). */
export const vcfFileNameOf = (vcardText: string) => `contact-${shortHash(vcardText)}.vcf`;

export function vcfFileName(link: PageLink): string {
  return vcfFileNameOf(vcard(link));
}

/** Bump when the QR code's drawing changes (renderer/page-files.ts), so every page gets a new file. */
export const QR_FORMAT = 1;

/** The QR code's file, named by what it draws: the page address, in this drawing's format (ADR 097). */
export function qrFileName(pageUrl: string): string {
  // A render asks twice for the same page (its button and its file): the last answer is kept.
  if (lastQr[0] !== pageUrl) lastQr = [pageUrl, `qr-${shortHash(`${QR_FORMAT}:${pageUrl}`)}.svg`];
  return lastQr[1]!;
}
let lastQr = ["", ""];
