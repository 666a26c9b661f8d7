import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
  t.deps.db.update(userProfiles).set({ displayName: "Draft Only Name" }).where(eq(userProfiles.userId, owner.userId)).run();
});
afterEach(() => t.close());

describe("preview", () => {
  it.each(["/{u}/preview", "/{u}?preview=true"])("shows %s to its owner, noindex and uncached", async (pattern) => {
    const res = await t.app.request(pattern.replace("{u}", owner.username), { headers: { Cookie: owner.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-robots-tag")).toContain("noindex");
    const html = await res.text();
    expect(html).toContain("Draft Only Name");
    expect(html).toContain('<meta name="robots" content="noindex,nofollow">');
    expect(html).toContain('<div class="pv" role="status">Preview: this is your unpublished draft.');
    // A preview never counts as a visit.
    expect(html).toContain('"preview":true');
  });

  it("answers 404 to signed-out visitors and to other owners, without the draft", async () => {
    const other = createApiOwner(t, "trial");
    const headerSets: Record<string, string>[] = [{}, { Cookie: other.cookie }, { Cookie: "plinth_session=forged.token" }];
    for (const headers of headerSets) {
      for (const path of [`/${owner.username}/preview`, `/${owner.username}?preview=true`]) {
        const res = await t.app.request(path, { headers });
        expect(res.status).toBe(404);
        expect(res.headers.get("cache-control")).toBe("no-store");
        expect(await res.text()).not.toContain("Draft Only Name");
      }
    }
  });

  it("leaves the published page as it was", async () => {
    await owner.call("POST", "/api/publish");
    t.deps.db.update(userProfiles).set({ displayName: "Newer Draft" }).where(eq(userProfiles.userId, owner.userId)).run();
    const preview = await t.app.request(`/${owner.username}/preview`, { headers: { Cookie: owner.cookie } });
    expect(await preview.text()).toContain("Newer Draft");
    const live = await t.app.request(`/${owner.username}`);
    expect(await live.text()).toContain("Draft Only Name");
  });
});

describe("sitemap.xml and robots.txt", () => {
  it("lists published pages only and is served from the root", async () => {
    const unpublished = createApiOwner(t, "trial");
    await owner.call("POST", "/api/publish");
    const sitemap = await t.app.request("/sitemap.xml");
    expect(sitemap.status).toBe(200);
    const xml = await sitemap.text();
    expect(xml).toContain(`/${owner.username}</loc>`);
    expect(xml).not.toContain(unpublished.username);
    expect(readFileSync(join(t.deps.env.PUBLISHED_DIR, "sitemap.xml"), "utf8")).toBe(xml);
    const robots = await (await t.app.request("/robots.txt")).text();
    expect(robots).toContain("Sitemap: ");
    expect(robots).toContain("Disallow: /api/");
  });
});
