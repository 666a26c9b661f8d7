/**
 * Any static host: PUBLISHED_DIR served by Debian's nginx with docs/nginx.conf serves a page, its
 * own files and the shared assets with the right types and cache headers, and its 404 page.
 * (tests/e2e/public-static-host.spec.ts runs the page and its visitor script in a browser.)
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { links, userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { startStaticHost, type StaticHost } from "#tests/support/nginx.ts";

const API_ORIGIN = "http://localhost:4321";
let db: Db;
let host: StaticHost;

beforeAll(async () => {
  host = await startStaticHost();
  db = openDatabase({ path: join(host.root, "..", "db.sqlite") });
  const { userId } = createAccount(db, { email: "static@example.com", username: "statichost", passwordHash: null, emailVerified: true, now: new Date() });
  db.insert(links).values({ id: newId(), userId, title: "Card", url: "#", linkType: "vcf", linkSpecificData: { name: "Static Card" } }).run();
  // Published twice, so the page folder also holds the previous version's spare file (ADR 028).
  for (const displayName of ["An Earlier Version", "Served By Nginx"]) {
    db.update(userProfiles).set({ displayName, customFontPairingName: "elegant-serif" }).where(eq(userProfiles.userId, userId)).run();
    expect(publishPage(db, userId, { publishedDir: host.root, origin: host.origin, apiOrigin: API_ORIGIN, now: new Date() })).toMatchObject({ ok: true });
  }
  expect(existsSync(join(host.root, "statichost", ".spare-index.html"))).toBe(true);
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
    for (const path of ["/nobodyhere", "/statichost/.tmp-abc", "/statichost/.spare-index.html", "/statichost/index.html/x", "/_p/nothing.js", "/a/b/c", "/statichost/../db.sqlite"]) {
      const res = await fetch(host.origin + path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain("Page Not Found");
    }
  });
});
