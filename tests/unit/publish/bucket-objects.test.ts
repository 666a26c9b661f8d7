import { describe, expect, it } from "vitest";
import { objectHeaders } from "#renderer/bucket-target.ts";
import { IMMUTABLE, REVALIDATE } from "#renderer/content-types.ts";

describe("a bucket object's headers (ADR 130)", () => {
  it("revalidates pages, the sitemap and robots.txt", () => {
    expect(objectHeaders("alice/index.html")).toEqual({ ContentType: "text/html; charset=utf-8", CacheControl: REVALIDATE });
    expect(objectHeaders("sitemap.xml")).toEqual({ ContentType: "application/xml; charset=utf-8", CacheControl: REVALIDATE });
    expect(objectHeaders("robots.txt")).toEqual({ ContentType: "text/plain; charset=utf-8", CacheControl: REVALIDATE });
  });

  it("keeps files named by their content for a year", () => {
    expect(objectHeaders("alice/qr-3f9a1c.svg")).toEqual({ ContentType: "image/svg+xml", CacheControl: IMMUTABLE });
    expect(objectHeaders("alice/contact-9z8y.vcf")).toEqual({ ContentType: "text/vcard; charset=utf-8", CacheControl: IMMUTABLE });
    expect(objectHeaders("_p/visitor.3f9a1c2b0d.js")).toEqual({ ContentType: "text/javascript; charset=utf-8", CacheControl: IMMUTABLE });
    expect(objectHeaders("_p/fonts/inter-1a2b3c4d5e-400.woff2")).toEqual({ ContentType: "font/woff2", CacheControl: IMMUTABLE });
    expect(objectHeaders("media/ab12.webp")).toEqual({ ContentType: "image/webp", CacheControl: IMMUTABLE });
  });

  it("gives a compressed copy its file's type and its own encoding", () => {
    expect(objectHeaders("_p/visitor.3f9a1c2b0d.js.br")).toEqual({ ContentType: "text/javascript; charset=utf-8", CacheControl: IMMUTABLE, ContentEncoding: "br" });
    expect(objectHeaders("sitemap.xml.gz")).toEqual({ ContentType: "application/xml; charset=utf-8", CacheControl: REVALIDATE, ContentEncoding: "gzip" });
    expect(objectHeaders("alice/qr-3f9a1c.svg.gz")).toEqual({ ContentType: "image/svg+xml", CacheControl: IMMUTABLE, ContentEncoding: "gzip" });
  });

  it("does not take a file that only looks content-named, or an unknown type, for more than it is", () => {
    expect(objectHeaders("alice/qr-../index.html").CacheControl).toBe(REVALIDATE);
    expect(objectHeaders("alice/notes.qr-abc.svg").CacheControl).toBe(REVALIDATE);
    // A .gz of a type that has no compressed copies is a file of its own, not a copy.
    expect(objectHeaders("media/archive.zip.gz")).toEqual({ ContentType: "application/octet-stream", CacheControl: IMMUTABLE });
  });
});
