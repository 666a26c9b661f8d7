/**
 * The server sends a text file's brotli or gzip copy (ADR 054) to a client that takes its encoding:
 * brotli before gzip, q=0 honoured, with Vary, the copy's length and an ETag of its own; HEAD and
 * 304 alike. A copy whose time is not its file's (left by an older version of the file) or that
 * would be no smaller is never sent; a page without a copy of its own is compressed once per version
 * and kept (ADR 057).
 */
import { mkdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compressedOnceStats } from "#api/compressed-once.ts";
import { acceptedEncodings } from "#api/static-files.ts";
import { withCompressedCopies } from "#renderer/precompress.ts";
import { writeFileAtomic } from "#renderer/atomic-write.ts";
import { precompressFolder } from "#scripts/lib/precompress-site.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const PAGE = `<!doctype html><title>Pressed</title>${"<p>A line of the page that compresses well.</p>".repeat(100)}`;

/** A published page written as publishing writes it: copies first, all with one time. */
function publish(username: string, html = PAGE, at = new Date()): string {
  const path = join(t.deps.env.PUBLISHED_DIR, username, "index.html");
  for (const w of withCompressedCopies({ path, content: html, mtime: at })) writeFileAtomic(w.path, w.content, w);
  return path;
}

const get = (path: string, headers: Record<string, string> = {}, method = "GET") => t.app.request(path, { method, headers });
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const decoded = async (res: Response) => {
  const body = await bytes(res);
  const encoding = res.headers.get("content-encoding");
  return (encoding === "br" ? brotliDecompressSync(body) : encoding === "gzip" ? gunzipSync(body) : body).toString("utf8");
};

describe("which encoding a request takes", () => {
  it.each([
    ["gzip, deflate, br, zstd", ["br", "gzip"]],
    ["br", ["br"]],
    ["gzip", ["gzip"]],
    ["x-gzip", ["gzip"]],
    ["BR, GZIP", ["br", "gzip"]],
    ["gzip;q=1, br;q=0.5", ["gzip", "br"]],
    ["br;q=0, gzip", ["gzip"]],
    ["*", ["br", "gzip"]],
    ["*;q=0", []],
    ["br;q=0, *", ["gzip"]],
    ["identity", []],
    ["deflate", []],
    ["", []],
    [";;,,=q", []],
  ])("%j takes %j", (header, expected) => {
    expect(acceptedEncodings(header)).toEqual(expected);
  });
});

describe("a published page", () => {
  it("is sent as brotli, gzip or as it is, by Accept-Encoding, each the same page", async () => {
    publish("pressed");
    const cases = [
      ["br, gzip", "br"],
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["gzip;q=0.5, br;q=0.1", "gzip"],
      ["identity", null],
      ["br;q=0, gzip;q=0", null],
      ["*;q=0", null],
      [null, null],
    ] as const;
    const etags = new Set<string>();
    for (const [accept, encoding] of cases) {
      const res = await get("/pressed", accept === null ? {} : { "Accept-Encoding": accept });
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get("content-encoding"), String(accept)).toBe(encoding);
      expect(res.headers.get("vary"), String(accept)).toBe("Accept-Encoding");
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const body = await bytes(res.clone());
      expect(res.headers.get("content-length"), String(accept)).toBe(String(body.length));
      if (encoding) expect(body.length).toBeLessThan(Buffer.byteLength(PAGE) / 5);
      expect(await decoded(res)).toBe(PAGE);
      etags.add(res.headers.get("etag")!);
    }
    // One ETag per representation: br, gzip and the page as it is.
    expect(etags.size).toBe(3);
  });

  it("answers HEAD and a revalidation of each encoding as GET would", async () => {
    publish("pressed");
    const br = await get("/pressed", { "Accept-Encoding": "br" });
    const head = await get("/pressed", { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    for (const h of ["content-encoding", "content-length", "etag", "vary"]) expect(head.headers.get(h), h).toBe(br.headers.get(h));

    const again = await get("/pressed", { "Accept-Encoding": "br", "If-None-Match": br.headers.get("etag")! });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(br.headers.get("etag"));
    expect(again.headers.get("vary")).toBe("Accept-Encoding");
    // The brotli copy's ETag does not stand for the gzip one.
    const other = await get("/pressed", { "Accept-Encoding": "gzip", "If-None-Match": br.headers.get("etag")! });
    expect(other.status).toBe(200);
    expect(other.headers.get("content-encoding")).toBe("gzip");
  });

  it("never sends a copy whose time is not its page's, nor one that is no smaller", async () => {
    const path = publish("stale", PAGE, new Date("2026-01-01T00:00:00.000Z"));
    // A newer page swapped in without copies (an interrupted publish of an older version, a
    // hand-made file): the copies left beside it hold the old page.
    writeFileAtomic(path, "<!doctype html><p>the newer page</p>".repeat(20), { mtime: new Date("2026-01-02T00:00:00.000Z") });
    for (const accept of ["br", "gzip", "br, gzip", ""]) {
      const res = await get("/stale", { "Accept-Encoding": accept });
      expect(await decoded(res), accept).toContain("the newer page");
    }
    // Copies written after the page, by anything else: not the page's either.
    writeFileSync(`${path}.br`, brotliCompressSync("<p>something else</p>"));
    expect(await decoded(await get("/stale", { "Accept-Encoding": "br" }))).toContain("the newer page");

    // A tiny file whose copies are larger than itself is sent as it is.
    const tiny = publish("tinypage", "<p>hi</p>");
    expect(statSync(`${tiny}.gz`).size).toBeGreaterThan(statSync(tiny).size);
    const res = await get("/tinypage", { "Accept-Encoding": "br, gzip" });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.text()).toBe("<p>hi</p>");
  });

  it("compresses a page without copies (a bulk re-render's) once per version and keeps it (ADR 057)", async () => {
    const dir = join(t.deps.env.PUBLISHED_DIR, "plainpage");
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(join(dir, "index.html"), PAGE, { mtime: new Date("2026-03-01T00:00:00.000Z") });
    const before = compressedOnceStats.compressions;
    const [br, gzip] = [await get("/plainpage", { "Accept-Encoding": "br, gzip" }), await get("/plainpage", { "Accept-Encoding": "gzip" })];
    expect([br.headers.get("content-encoding"), gzip.headers.get("content-encoding")]).toEqual(["br", "gzip"]);
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(Number(br.headers.get("content-length"))).toBeLessThan(PAGE.length / 4);
    expect([await decoded(br), await decoded(gzip)]).toEqual([PAGE, PAGE]);
    // The same version again, in either encoding, HEAD or a revalidation: nothing is compressed again.
    const etag = br.headers.get("etag")!;
    expect((await get("/plainpage", { "Accept-Encoding": "br", "If-None-Match": etag })).status).toBe(304);
    const head = await get("/plainpage", { "Accept-Encoding": "br" }, "HEAD");
    expect([head.headers.get("content-length"), head.headers.get("etag")]).toEqual([br.headers.get("content-length"), etag]);
    expect(await decoded(await get("/plainpage", { "Accept-Encoding": "br" }))).toBe(PAGE);
    expect(compressedOnceStats.compressions - before).toBe(1);
    // A client that takes neither gets the file as it is.
    const plain = await get("/plainpage");
    expect([plain.headers.get("content-encoding"), await plain.text()]).toEqual([null, PAGE]);
    // A new version of the page is compressed anew, and only its own bytes are sent.
    const next = PAGE.replace("Pressed", "Pressed again");
    writeFileAtomic(join(dir, "index.html"), next, { mtime: new Date("2026-03-02T00:00:00.000Z") });
    expect(await decoded(await get("/plainpage", { "Accept-Encoding": "br" }))).toBe(next);
    expect(compressedOnceStats.compressions - before).toBe(2);
  });
});

describe("the page's files, the shared assets and the site", () => {
  it("sends the copies of QR codes, contact cards, scripts, sitemap.xml; images as they are", async () => {
    const root = t.deps.env.PUBLISHED_DIR;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M1 1h1v1h-1z"/>'.repeat(200)}</svg>`;
    const files: [string, string][] = [
      ["/qrowner/qr-1a2b3c.svg", svg],
      ["/qrowner/contact-9z8y.vcf", `BEGIN:VCARD\r\nVERSION:3.0\r\n${"NOTE:a note that repeats\r\n".repeat(20)}END:VCARD\r\n`],
      ["/_p/visitor.abc123.js", "console.log('visitor');".repeat(100)],
      ["/sitemap.xml", `<?xml version="1.0"?><urlset>${"<url><loc>http://localhost/x</loc></url>".repeat(50)}</urlset>`],
    ];
    publish("qrowner");
    for (const [path, content] of files) for (const w of withCompressedCopies({ path: join(root, path), content })) writeFileAtomic(w.path, w.content, w);
    for (const [path, content] of files) {
      const res = await get(path, { "Accept-Encoding": "gzip, br" });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-encoding"), path).toBe("br");
      expect(res.headers.get("vary"), path).toBe("Accept-Encoding");
      expect(await decoded(res), path).toBe(content);
    }
    // Pictures are compressed already: no copy is looked for, and nothing varies.
    mkdirSync(join(root, "media", "ab"), { recursive: true });
    writeFileSync(join(root, "media", "ab", "pic.webp"), "webp");
    writeFileSync(join(root, "media", "ab", "pic.webp.gz"), gzipSync("webp"));
    const pic = await get("/media/ab/pic.webp", { "Accept-Encoding": "gzip" });
    expect(pic.headers.get("content-encoding")).toBeNull();
    expect(pic.headers.get("vary")).toBeNull();
    expect(await pic.text()).toBe("webp");
  });

  it("sends the built site's pages, scripts and 404 page compressed", async () => {
    const site = t.deps.env.SITE_DIR;
    mkdirSync(join(site, "_astro"), { recursive: true });
    mkdirSync(join(site, "dashboard"), { recursive: true });
    const html = (title: string) => `<!doctype html><title>${title}</title>${"<p>Plinth, the page for your links.</p>".repeat(60)}`;
    writeFileSync(join(site, "index.html"), html("Home"));
    writeFileSync(join(site, "404.html"), html("Page Not Found"));
    writeFileSync(join(site, "dashboard", "index.html"), html("Dashboard"));
    writeFileSync(join(site, "_astro", "app.x1.js"), "export const a = 1;".repeat(200));
    await precompressFolder(site);
    for (const [path, status, text] of [["/", 200, "Home"], ["/dashboard/links", 200, "Dashboard"], ["/no/such/page", 404, "Page Not Found"], ["/_astro/app.x1.js", 200, "export const a"]] as const) {
      const res = await get(path, { "Accept-Encoding": "gzip" });
      expect(res.status, path).toBe(status);
      expect(res.headers.get("content-encoding"), path).toBe("gzip");
      expect(await decoded(res), path).toContain(text);
    }
    // A file rebuilt without its copies: its old copies are never sent, it is (compressed once).
    const index = join(site, "index.html");
    writeFileSync(index, html("Rebuilt"));
    utimesSync(index, new Date(), new Date(Date.now() + 5000));
    const res = await get("/", { "Accept-Encoding": "br, gzip" });
    expect(await decoded(res)).toContain("Rebuilt");
  });
});
