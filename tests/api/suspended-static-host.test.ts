/**
 * A suspended page answers 410 from nginx too (ADR 161): an admin suspends a page through the API,
 * and Debian's nginx serving PUBLISHED_DIR with docs/nginx.conf answers its address and its own
 * files with 410 and the unavailable page, as the server does, without a reload; the suspension
 * lifted, nginx serves the page again with 200. A restore of the whole folder (a republish) keeps it.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "#db/ids.ts";
import { links } from "#db/schema.ts";
import { SUSPENDED_MARKER } from "#renderer/publish-target.ts";
import { republishAll } from "#renderer/republish.ts";
import { UNAVAILABLE_HTML } from "#renderer/suspension.ts";
import { createApiAdmin } from "#tests/support/admin.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { getRaw, startStaticHost, type StaticHost } from "#tests/support/nginx.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let host: StaticHost;
let t: TestApp;
let owner: ApiOwner;
let admin: ApiOwner;

beforeAll(async () => {
  host = await startStaticHost();
  t = createTestApp({ PUBLISHED_DIR: host.root });
  writeFileSync(join(host.root, "404.html"), "<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>");
  owner = createApiOwner(t, "plus");
  admin = createApiAdmin(t);
  t.deps.db.insert(links).values({ id: newId(), userId: owner.userId, title: "Card", url: "#", linkType: "vcf", linkSpecificData: { name: "Static Card" } }).run();
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
}, 60_000);

afterAll(() => {
  t?.close();
  host?.stop();
});

/** The page's own files (QR code, contact card) its HTML names. */
const ownFiles = (html: string) => [...html.matchAll(new RegExp(`(?:src|href)="(/${owner.username}/[^"]+\\.(?:svg|vcf))"`, "g"))].map((m) => m[1]!);

describe("a suspended page behind nginx (ADR 161)", () => {
  it("answers 410 with the unavailable page from nginx while suspended, and 200 with the page once restored", async () => {
    const page = await fetch(`${host.origin}/${owner.username}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const own = ownFiles(html);
    expect(own.length).toBeGreaterThan(0);

    expect((await admin.call("POST", `/api/admin/pages/${owner.userId}/suspend`, { reason: "Spam links" })).status).toBe(200);
    expect(existsSync(join(host.root, owner.username, SUSPENDED_MARKER))).toBe(true);
    // The server and nginx answer alike, in every encoding, at once (nginx is not reloaded).
    const fromServer = await t.app.request(`/${owner.username}`);
    expect(fromServer.status).toBe(410);
    expect(await fromServer.text()).toBe(UNAVAILABLE_HTML);
    for (const encoding of ["identity", "gzip", "br"]) {
      for (const path of [`/${owner.username}`, `/${owner.username}/`]) {
        const res = await getRaw(host.origin + path, { "Accept-Encoding": encoding });
        expect(res.status, `${path} ${encoding}`).toBe(410);
        const body = res.headers["content-encoding"] === "gzip" ? gunzipSync(res.body) : res.body;
        expect(body.toString("utf8")).toBe(UNAVAILABLE_HTML);
        expect(res.headers["x-frame-options"]).toBe("DENY");
      }
    }
    for (const path of own) {
      const res = await fetch(host.origin + path);
      expect(res.status, path).toBe(410);
      expect(await res.text()).toBe(UNAVAILABLE_HTML);
    }
    // The marker itself is not served.
    expect((await fetch(`${host.origin}/${owner.username}/${SUSPENDED_MARKER}`)).status).toBe(404);

    // A republish of the whole folder (npm run republish, a restore) leaves it suspended.
    await republishAll(t.deps.db, { publishedDir: host.root, origin: TEST_ORIGIN, threads: 1 });
    expect((await fetch(`${host.origin}/${owner.username}`)).status).toBe(410);

    expect((await admin.call("POST", `/api/admin/pages/${owner.userId}/restore`, { note: "Reviewed" })).status).toBe(200);
    expect(existsSync(join(host.root, owner.username, SUSPENDED_MARKER))).toBe(false);
    const back = await fetch(`${host.origin}/${owner.username}`);
    expect(back.status).toBe(200);
    const restored = await back.text();
    expect(restored).not.toBe(UNAVAILABLE_HTML);
    expect(restored).toContain("Static Card");
    for (const path of ownFiles(restored)) expect((await fetch(host.origin + path)).status, path).toBe(200);
  });

  it("keeps an unknown page at 404 and a never-suspended page at 200", async () => {
    expect((await fetch(`${host.origin}/nobody_here`)).status).toBe(404);
    expect(await (await fetch(`${host.origin}/nobody_here`)).text()).toContain("Page Not Found");
    expect((await fetch(`${host.origin}/${owner.username}`)).status).toBe(200);
  });
});
