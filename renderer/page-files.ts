/**
 * Per-page files written at publish time, beside index.html: the QR code (qrcode, error correction M)
 * and a .vcf contact card per contact link. Both are named by their content (ADR 097), so a file
 * that exists is already right and is never rewritten.
 */
import QRCode from "qrcode";
import type { PageLink } from "#core/model.ts";
import { QR_FORMAT, qrFileName, vcard, vcfFileNameOf } from "./components/vcard.ts";
import { escapeXml } from "./escape.ts";
import type { PageFile } from "./types.ts";

/** Names the drawing's format and the address inside the file, for whoever opens it. */
export const qrMarker = (text: string) => `<desc>Plinth QR ${QR_FORMAT}: ${escapeXml(text)}</desc>`;

export function qrSvg(text: string): string {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const size = qr.modules.size;
  const m = 4;
  let d = "";
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) if (qr.modules.get(x, y)) d += `M${x + m} ${y + m}h1v1h-1z`;
  }
  const n = size + 2 * m;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n} ${n}" shape-rendering="crispEdges">${qrMarker(text)}<rect width="${n}" height="${n}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`;
}

export function pageFiles(pageUrl: string, links: PageLink[]): PageFile[] {
  const files: PageFile[] = [{ path: qrFileName(pageUrl), content: () => qrSvg(pageUrl), immutable: true }];
  const seen = new Set<string>();
  for (const l of links) {
    if (l.linkType !== "vcf") continue;
    const content = vcard(l);
    const path = vcfFileNameOf(content);
    if (!seen.has(path)) files.push({ path, content, immutable: true });
    seen.add(path);
  }
  return files;
}
