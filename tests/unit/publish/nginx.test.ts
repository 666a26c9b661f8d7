/**
 * Any static host: PUBLISHED_DIR served by Debian's nginx with docs/nginx.conf serves a page, its
 * own files and the shared assets with the right types and cache headers, and its 404 page; the
 * compressed copies written at publish time by Accept-Encoding (ADR 054), and frame protection on
 * every answer (ADR 055), and a suspended page's 410 (ADR 161).
 * (tests/e2e/public-static-host.spec.ts runs the page and its visitor script in a browser.)
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { links, userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { UNAVAILABLE_HTML, writeUnavailablePage } from "#renderer/suspension.ts";
import { getRaw, startStaticHost, type StaticHost } from "#tests/support/nginx.ts";

const API_ORIGIN = "http://localhost:4321";
let db: Db;
let host: StaticHost;

beforeAll(async () => {
  host = await startStaticHost();
  db = openDatabase({ path: join(host.root, "..", "db.sqlite") });
  const { userId } = createAccount(db, { email: "static@example.com", username: "statichost", passwordHash: null, emailVerified: true, now: new Date() });
  db.insert(links).values({ id: newId(), userId, title: "Card", url: "#", linkType: "vcf", linkSpecificData: { name: "Static Card" } }).run();
  // Published twice: the second version is a new file swapped in over the first (ADR 097).
  for (const displayName of ["An Earlier Version", "Served By Nginx"]) {
    db.update(userProfiles).set({ displayName, customFontPairingName: "elegant-serif" }).where(eq(userProfiles.userId, userId)).run();
    expect(publishPage(db, userId, { publishedDir: host.root, origin: host.origin, apiOrigin: API_ORIGIN, now: new Date() })).toMatchObject({ ok: true });
  }
  writeFileSync(join(host.root, "404.html"), "<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>");
}, 30_000);

afterAll(() => {
  closeDatabase(db);
  host.stop();
});

describe("published pages on nginx", () => {
  it("serves the page, revalidated, with the API origin in its configuration", async () => {
    for (const path of ["/statichost", "/statichost/"]) {
      const page = await fetch(`${host.origin}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
      const html = await page.text();
      expect(html).toContain("Served By Nginx");
      expect(html).toContain(`"apiOrigin":"${API_ORIGIN}"`);
      expect(html).toContain(`connect-src ${API_ORIGIN}`);
    }
  });

  it("serves the shared assets and the page's own files forever-cached, with their types", async () => {
    const html = await (await fetch(`${host.origin}/statichost`)).text();
    const shared = [...html.matchAll(/(?:src|href)="(\/_p\/[^"]+)"/g), ...html.matchAll(/url\((\/_p\/[^)]+)\)/g)].map((m) => m[1]!);
    expect(shared.some((u) => u.endsWith(".js"))).toBe(true);
    expect(shared.some((u) => u.endsWith(".woff2"))).toBe(true);
    for (const asset of shared) {
      const res = await fetch(host.origin + asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get("cache-control")).toContain("immutable");
    }
    const own = [...html.matchAll(/(?:src|href)="(\/statichost\/[^"]+)"/g)].map((m) => m[1]!);
    const types: Record<string, string> = {};
    for (const path of new Set(own)) {
      const res = await fetch(host.origin + path);
      expect(res.status, path).toBe(200);
      // Named by their content, so cached for good like the shared assets.
      expect(res.headers.get("cache-control"), path).toContain("immutable");
      types[path.split(".").at(-1)!] = res.headers.get("content-type")!;
    }
    expect(types).toEqual({ svg: "image/svg+xml", vcf: "text/vcard; charset=utf-8" });
    expect((await fetch(`${host.origin}/sitemap.xml`)).headers.get("content-type")).toContain("xml");
    expect(await (await fetch(`${host.origin}/robots.txt`)).text()).toContain(`Sitemap: ${host.origin}/sitemap.xml`);
  });

  it("answers 404 with the 404 page for unknown pages, dot files and paths outside the layout", async () => {
    for (const path of ["/nobodyhere", "/statichost/.tmp-abc", "/statichost/.tmp-index.html", "/statichost/index.html/x", "/_p/nothing.js", "/a/b/c", "/statichost/../db.sqlite"]) {
      const res = await fetch(host.origin + path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain("Page Not Found");
    }
  });

  it("sends the page compressed by Accept-Encoding (gzip, made as it is sent; ADR 121), the same page, with Vary; shared files go as their brotli copies", async () => {
    const page = readFileSync(join(host.root, "statichost", "index.html"));
    const cases = [
      ["br, gzip", "gzip"],
      ["gzip, deflate, br, zstd", "gzip"],
      ["gzip", "gzip"],
      ["br", undefined],
      ["identity", undefined],
      [null, undefined],
    ] as const;
    for (const [accept, encoding] of cases) {
      const res = await getRaw(`${host.origin}/statichost`, accept === null ? {} : { "Accept-Encoding": accept });
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers["content-encoding"], String(accept)).toBe(encoding);
      expect(res.headers["vary"], String(accept)).toBe("Accept-Encoding");
      const body = encoding === "gzip" ? gunzipSync(res.body) : res.body;
      expect(body.equals(page), String(accept)).toBe(true);
      if (encoding) expect(res.body.length).toBeLessThan(page.length / 2);
    }
    // The page's own files are compressed as they are sent; the shared script and the sitemap have brotli copies.
    const html = page.toString("utf8");
    const own = [...new Set([...html.matchAll(/(?:src|href)="(\/statichost\/[^"]+\.(?:svg|vcf))"/g)].map((m) => m[1]!))];
    const shared = [...new Set([...html.matchAll(/src="(\/_p\/[^"]+\.js)"/g)].map((m) => m[1]!))];
    expect(own.some((f) => f.includes("/qr-")) && shared.length > 0).toBe(true);
    for (const [paths, encoding] of [[own, "gzip"], [[...shared, "/sitemap.xml"], "br"]] as const) {
      for (const path of paths) {
        const res = await getRaw(host.origin + path, { "Accept-Encoding": "br, gzip" });
        expect(res.status, path).toBe(200);
        expect(res.headers["content-encoding"], path).toBe(encoding);
        const body = encoding === "br" ? brotliDecompressSync(res.body) : gunzipSync(res.body);
        expect(body.equals(readFileSync(join(host.root, path))), path).toBe(true);
      }
    }
  });

  it("forbids framing on every answer: pages, files, assets and the 404 page", async () => {
    const html = await (await fetch(`${host.origin}/statichost`)).text();
    const files = [...html.matchAll(/(?:src|href)="(\/(?:statichost|_p)\/[^"]+)"/g)].map((m) => m[1]!);
    for (const path of ["/statichost", "/statichost/", ...new Set(files), "/sitemap.xml", "/robots.txt", "/nobodyhere", "/statichost/.tmp-index.html"]) {
      const res = await fetch(host.origin + path);
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("content-security-policy"), path).toBe("frame-ancestors 'none'; object-src 'none'; base-uri 'none'");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    // The page's own policy is still the one in its meta tag.
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
  });
});

describe("a suspended page on nginx (ADR 108)", () => {
  it("is the unavailable page, with 410 as from the server, in every encoding, and its own files are gone", async () => {
    const { userId } = createAccount(db, { email: "suspended@example.com", username: "suspendedhost", passwordHash: null, emailVerified: true, now: new Date() });
    db.insert(links).values({ id: newId(), userId, title: "Card", url: "#", linkType: "vcf", linkSpecificData: { name: "Suspended Card" } }).run();
    expect(publishPage(db, userId, { publishedDir: host.root, origin: host.origin, apiOrigin: API_ORIGIN, now: new Date() })).toMatchObject({ ok: true });
    const html = await (await fetch(`${host.origin}/suspendedhost`)).text();
    const own = [...html.matchAll(/(?:src|href)="(\/suspendedhost\/[^"]+\.(?:svg|vcf))"/g)].map((m) => m[1]!);
    expect(own.length).toBeGreaterThan(0);

    writeUnavailablePage(host.root, "suspendedhost", new Date());
    for (const encoding of ["identity", "br", "gzip"]) {
      const res = await getRaw(`${host.origin}/suspendedhost`, { "Accept-Encoding": encoding });
      expect(res.status).toBe(410);
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
      const body = res.headers["content-encoding"] === "gzip" ? gunzipSync(res.body) : res.body;
      expect(body.toString("utf8")).toBe(UNAVAILABLE_HTML);
    }
    for (const path of own) {
      const res = await fetch(`${host.origin}${path}`);
      expect(res.status, path).toBe(410);
      expect(await res.text()).toBe(UNAVAILABLE_HTML);
    }
    // index.html itself is no address of its own.
    expect((await fetch(`${host.origin}/suspendedhost/index.html`)).status).toBe(404);
    expect((await fetch(`${host.origin}/suspendedhost/suspended`)).status).toBe(404);
  });
});
