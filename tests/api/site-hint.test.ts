import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SIGNED_IN_HINT_COOKIE } from "#core/signed-in-hint.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
  const site = t.deps.env.SITE_DIR;
  mkdirSync(join(site, "features"), { recursive: true });
  writeFileSync(join(site, "index.html"), "<!doctype html><title>Home</title>");
  writeFileSync(join(site, "features", "index.html"), "<!doctype html><title>Features</title>");
  writeFileSync(join(site, "404.html"), "<!doctype html><title>Page Not Found</title>");
  writeFileSync(join(site, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  mkdirSync(join(t.deps.env.PUBLISHED_DIR, "somebody"), { recursive: true });
  writeFileSync(join(t.deps.env.PUBLISHED_DIR, "somebody", "index.html"), "<!doctype html><title>Somebody</title>");
});
afterEach(() => t.close());

const get = (path: string, cookie?: string) => t.app.request(path, { headers: cookie ? { Cookie: cookie } : {} });
const hintCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith(`${SIGNED_IN_HINT_COOKIE}=`));

describe("the signed-in hint on site pages", () => {
  it("is set on site pages, the 404 page included, for a valid session", async () => {
    const owner = createApiOwner(t);
    for (const path of ["/", "/features", "/no/such/page"]) {
      const res = await get(path, owner.cookie);
      const set = hintCookie(res);
      expect(set, path).toMatch(new RegExp(`^${SIGNED_IN_HINT_COOKIE}=1;`));
      expect(set).not.toMatch(/HttpOnly/i);
      expect(set).toMatch(/SameSite=Lax/);
      expect(res.headers.get("cache-control")).toContain("private");
    }
  });

  it("is cleared when the session is gone, forged or expired, and never set without one", async () => {
    expect(hintCookie(await get("/"))).toBeUndefined();
    expect(hintCookie(await get("/", `${SIGNED_IN_HINT_COOKIE}=1`))).toMatch(/Max-Age=0/);
    const forged = await get("/features", `plinth_session=abc.def; ${SIGNED_IN_HINT_COOKIE}=1`);
    expect(hintCookie(forged)).toMatch(/Max-Age=0/);
    expect(hintCookie(await get("/features", "plinth_session=abc.def"))).toBeUndefined();
  });

  it("is not sent again when it already matches", async () => {
    const owner = createApiOwner(t);
    expect(hintCookie(await get("/", `${owner.cookie}; ${SIGNED_IN_HINT_COOKIE}=1`))).toBeUndefined();
  });

  it("leaves published pages, files and the API alone, so they stay cacheable", async () => {
    const owner = createApiOwner(t);
    const page = await get("/somebody", owner.cookie);
    expect(page.status).toBe(200);
    expect(hintCookie(page)).toBeUndefined();
    expect(page.headers.get("cache-control")).not.toContain("private");
    expect(hintCookie(await get("/favicon.svg", owner.cookie))).toBeUndefined();
    expect(hintCookie(await get("/api/status", owner.cookie))).toBeUndefined();
  });
});
