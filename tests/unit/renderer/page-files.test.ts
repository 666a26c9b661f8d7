/**
 * Files written beside a page at publish time.
 */
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { qrMarker, qrSvg } from "#renderer/page-files.ts";
import { vcard, vcfFileName } from "#renderer/components/vcard.ts";
import { link } from "./fixtures.ts";

describe("qr.svg", () => {
  it("draws every dark module of the page address's QR code at medium error correction", () => {
    const url = "https://plinth.example/alice";
    const qr = QRCode.create(url, { errorCorrectionLevel: "M" });
    expect(qr.errorCorrectionLevel.bit).toBe(QRCode.create("x", { errorCorrectionLevel: "M" }).errorCorrectionLevel.bit);
    const svg = qrSvg(url);
    const dark = [...svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => `${Number(m[1]) - 4},${Number(m[2]) - 4}`);
    const expected: string[] = [];
    for (let y = 0; y < qr.modules.size; y++) for (let x = 0; x < qr.modules.size; x++) if (qr.modules.get(x, y)) expected.push(`${x},${y}`);
    expect(dark).toEqual(expected);
    expect(svg).toContain(`viewBox="0 0 ${qr.modules.size + 8} ${qr.modules.size + 8}"`);
    expect(svg).toContain(qrMarker(url));
  });
});

describe("contact cards", () => {
  it("writes a vCard 3.0 with the card's fields, named after its content", () => {
    const l = link({ linkType: "vcf", title: "Card", data: { name: "Ada Lovelace", phone: "+44 20 0000", email: "ada@example.com", organization: "Engines, Ltd; London" } });
    expect(vcard(l)).toBe(
      "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada Lovelace\r\nN:Ada Lovelace;;;;\r\nORG:Engines\\, Ltd\\; London\r\nTEL;TYPE=CELL:+44 20 0000\r\nEMAIL;TYPE=INTERNET:ada@example.com\r\nEND:VCARD\r\n",
    );
    expect(vcfFileName(l)).toMatch(/^contact-[0-9a-z]+\.vcf$/);
    expect(vcfFileName(l)).toBe(vcfFileName({ ...l }));
    expect(vcfFileName({ ...l, data: { ...l.data, phone: "+44 20 0001" } })).not.toBe(vcfFileName(l));
    // Without a name, the link's title names the card.
    expect(vcard(link({ linkType: "vcf", title: "Reach me", data: {} }))).toContain("FN:Reach me\r\n");
  });
});
