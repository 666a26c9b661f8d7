/** Per-page files written at publish time: qr.svg (qrcode, error correction M) and .vcf contact cards. */
import QRCode from "qrcode";
import type { PageLink, PageSnapshot } from "#core/model.ts";
import { vcfFileName } from "./components/Page.tsx";
import type { PageFile } from "./types.ts";

export function qrSvg(text: string): string {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const size = qr.modules.size;
  const m = 4;
  let d = "";
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) if (qr.modules.get(x, y)) d += `M${x + m} ${y + m}h1v1h-1z`;
  }
  const n = size + 2 * m;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n} ${n}" shape-rendering="crispEdges"><rect width="${n}" height="${n}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`;
}

function vEscape(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/\r?\n/g, "\\n").replace(/[,;]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f]/g, "");
}

export function vcard(link: PageLink): string {
  const d = link.data;
  const name = d.name || link.title;
  const lines = ["BEGIN:VCARD", "VERSION:3.0", `FN:${vEscape(name)}`, `N:${vEscape(name)};;;;`];
  if (d.organization) lines.push(`ORG:${vEscape(d.organization)}`);
  if (d.phone) lines.push(`TEL;TYPE=CELL:${vEscape(d.phone)}`);
  if (d.email) lines.push(`EMAIL:${vEscape(d.email)}`);
  lines.push("END:VCARD");
  return lines.join("\r\n") + "\r\n";
}

export function pageFiles(snapshot: PageSnapshot, pageUrl: string, links: PageLink[]): PageFile[] {
  const files: PageFile[] = [{ path: "qr.svg", content: qrSvg(pageUrl) }];
  for (const l of links) if (l.linkType === "vcf") files.push({ path: vcfFileName(l), content: vcard(l) });
  void snapshot;
  return files;
}
