/**
 * Files written beside a page at publish time.
 */
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { qrMarker, qrSvg } from "#renderer/page-files.ts";
import { qrFileName, shortHash, vcard, vcfFileName, vcfFileNameOf } from "#renderer/components/vcard.ts";
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

describe("file names", () => {
  it("keeps the names pages already carry: the QR code's and a card's, from their content", () => {
    // Names that published pages link to: a change here renames every page's files.
    expect(qrFileName("https://plinth.example/alice")).toBe("qr-2gat59zm0lp.svg");
    expect(qrFileName("http://localhost:4321/demo")).toBe("qr-4sq1ybw2r5.svg");
    expect(qrFileName("https://plinth.example/%3C%2Fscript%3E")).toBe("qr-q3359k4dr0.svg");
    expect(qrFileName("https://plinth.example/alice")).toBe("qr-2gat59zm0lp.svg");
    expect(vcfFileNameOf("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\nN:Ada;;;;\r\nEND:VCARD\r\n")).toBe("contact-1xglyegf9yy.vcf");
  });

  it("writes the hash in base 36 exactly as Number#toString(36) does", () => {
    // The same 53-bit hash, written the slow way.
    const reference = (s: string) => {
      let h1 = 0xdeadbeef;
      let h2 = 0x41c6ce57;
      for (let i = 0; i < s.length; i++) {
        h1 = Math.imul(h1 ^ s.charCodeAt(i), 2654435761);
        h2 = Math.imul(h2 ^ s.charCodeAt(i), 1597334677);
      }
      h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
      h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
      return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
    };
    for (let i = 0; i < 20_000; i++) {
      const s = `${i}:${"x".repeat(i % 7)}\u00e9${i * 7919}`;
      if (shortHash(s) !== reference(s)) expect(shortHash(s)).toBe(reference(s));
    }
    for (const s of ["", "a", "\u0000", "🙂", "x".repeat(10_000)]) expect(shortHash(s)).toBe(reference(s));
  });
});
