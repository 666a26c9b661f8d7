import { describe, expect, it } from "vitest";
import { LEAD_FILE_MAX_BYTES, linkFileError, sniffLeadFile } from "#core/schemas/link-files.ts";

const bytes = (...parts: (string | number[] | Uint8Array)[]) => new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p)))));

describe("lead-magnet file types come from the bytes", () => {
  it("knows PDF (whole), images, MP3 and ZIP/EPUB (whole)", () => {
    expect(sniffLeadFile(bytes("%PDF-1.7\n...\n%%EOF\n"))).toBe("pdf");
    expect(sniffLeadFile(bytes("%PDF-1.7\n... no end"))).toBeNull();
    expect(sniffLeadFile(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpg");
    expect(sniffLeadFile(bytes("ID3", [4, 0, 0, 0]))).toBe("mp3");
    expect(sniffLeadFile(bytes([0xff, 0xfb, 0x90, 0x64]))).toBe("mp3");
    const eocd = [0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)];
    const local = (name: string) => bytes([0x50, 0x4b, 0x03, 0x04, ...new Array(26).fill(0)], name);
    expect(sniffLeadFile(bytes(local("mimetypeapplication/epub+zip"), eocd))).toBe("epub");
    expect(sniffLeadFile(bytes(local("readme.txt_______________________"), eocd))).toBe("zip");
    expect(sniffLeadFile(local("readme.txt_______________________"))).toBeNull();
  });

  it("refuses markup, scripts and programs", () => {
    for (const s of ["<html>", "<svg xmlns='http://www.w3.org/2000/svg'/>", "#!/bin/sh", "MZ\u0090\u0000", "", "PK"]) expect(sniffLeadFile(bytes(s)), s).toBeNull();
  });
});

describe("the browser's check before uploading", () => {
  it("refuses declared types and sizes the server would refuse, with the kind's messages", () => {
    expect(linkFileError("lead_magnet", { type: "application/pdf", size: LEAD_FILE_MAX_BYTES })).toBeNull();
    expect(linkFileError("lead_magnet", { type: "", size: 10 })).toBeNull();
    expect(linkFileError("lead_magnet", { type: "text/html", size: 10 })?.text).toBe("Please select a PDF, EPUB, ZIP, MP3 or image file (JPG, PNG, GIF, WEBP)");
    expect(linkFileError("lead_magnet", { type: "application/pdf", size: LEAD_FILE_MAX_BYTES + 1 })).toEqual({ title: "File too large", text: "Please select a file smaller than 10MB" });
    expect(linkFileError("thumbnail", { type: "image/svg+xml", size: 10 })).toEqual({ title: "Invalid file type", text: "Please select a valid image file (JPG, PNG, GIF)" });
    expect(linkFileError("thumbnail", { type: "", size: 10 })?.title).toBe("Invalid file type");
    expect(linkFileError("thumbnail", { type: "image/png", size: 2 * 1024 * 1024 + 1 })?.text).toBe("Please select an image smaller than 2MB");
  });
});
