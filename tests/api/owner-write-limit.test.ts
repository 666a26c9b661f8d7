/**
 * Per-owner budgets for saving and publishing (ADR 093), on the clock injected through AppDeps.now:
 * a person's pace passes, a loop is refused with docs/product.md-style message, a refused request changes
 * nothing, reads and other owners are not held back, and the budget comes back with time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OWNER_WRITE_LIMITS, TOO_MANY_CHANGES } from "#api/auth/owner-write-limit.ts";
import { createServerApp } from "#api/site.ts";
import { links, pageVersions, userProfiles } from "#db/schema.ts";
import { createTestApp, sameOrigin, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { asFreshTab } from "#tests/support/revisions.ts";

let t: TestApp;
let app: ReturnType<typeof createServerApp>;
let at: number;
beforeEach(() => {
  t = createTestApp();
  at = Date.now();
  app = createServerApp({ ...t.deps, now: () => new Date(at) });
});
afterEach(() => t.close());

/** A request as an up-to-date dashboard tab sends it, with the revision it is based on (ADR 068). */
async function call(who: ApiOwner, method: string, path: string, body?: unknown) {
  const fresh = asFreshTab(t.deps.db, who.userId, method, path, body);
  const res = await app.request(fresh.path, { method, headers: sameOrigin({ Cookie: who.cookie }), ...(fresh.body === undefined ? {} : { body: JSON.stringify(fresh.body) }) });
  return { status: res.status, body: (await res.json()) as any };
}
const bio = (o: ApiOwner) => t.deps.db.select({ bio: userProfiles.bio }).from(userProfiles).where(eq(userProfiles.userId, o.userId)).get()!.bio;
const versions = (o: ApiOwner) => t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, o.userId)).all().length;
const refused = { status: 429, body: { error: { code: "rate_limited", message: TOO_MANY_CHANGES } } };

describe("saving the draft", () => {
  it("takes a burst of edits, then refuses the next one and changes nothing", async () => {
    const owner = createApiOwner(t, "trial");
    for (let i = 1; i <= OWNER_WRITE_LIMITS.writes.burst; i++) expect((await call(owner, "PATCH", "/api/profile/text", { bio: `Edit ${i}` })).status).toBe(200);
    expect(await call(owner, "PATCH", "/api/profile/text", { bio: "One too many" })).toEqual(refused);
    expect(bio(owner)).toBe(`Edit ${OWNER_WRITE_LIMITS.writes.burst}`);
    expect(await call(owner, "POST", "/api/links", { linkType: "standard_url", title: "Shop", url: "https://shop.example" })).toEqual(refused);
    expect(await call(owner, "PUT", "/api/social-links/order", { ids: [] })).toEqual(refused);
    expect(await call(owner, "DELETE", "/api/profile/picture")).toEqual(refused);
    expect(t.deps.db.select().from(links).where(eq(links.userId, owner.userId)).all()).toEqual([]);

    // Reading is not a change, and another owner has a budget of their own.
    expect((await call(owner, "GET", "/api/links")).status).toBe(200);
    expect((await call(owner, "GET", "/api/profile")).status).toBe(200);
    const other = createApiOwner(t, "trial");
    expect((await call(other, "PATCH", "/api/profile/text", { bio: "Mine" })).status).toBe(200);

    // Half a second later, one more edit (two a second).
    at += 499;
    expect((await call(owner, "PATCH", "/api/profile/text", { bio: "Too soon" })).status).toBe(429);
    at += 1;
    expect((await call(owner, "PATCH", "/api/profile/text", { bio: "After a moment" })).status).toBe(200);
    expect(bio(owner)).toBe("After a moment");
  });

  it("counts a request that fails validation, so a script cannot probe for free", async () => {
    const owner = createApiOwner(t, "trial");
    for (let i = 0; i < OWNER_WRITE_LIMITS.writes.burst; i++) expect((await call(owner, "PATCH", "/api/profile/text", { bio: "x".repeat(501) })).status).toBe(400);
    expect(await call(owner, "PATCH", "/api/profile/text", { bio: "Fine" })).toEqual(refused);
  });
});

describe("publishing", () => {
  it("takes a burst of publishes, then refuses publish, discard and rollback without touching the page", async () => {
    const owner = createApiOwner(t, "trial");
    const page = join(t.deps.env.PUBLISHED_DIR, owner.username, "index.html");
    const { burst } = OWNER_WRITE_LIMITS.publishes;
    for (let i = 1; i <= burst; i++) {
      expect((await call(owner, "PATCH", "/api/profile/text", { bio: `Version ${i}` })).status).toBe(200);
      expect((await call(owner, "POST", "/api/publish")).body).toEqual({ version: i, changed: true });
    }
    expect((await call(owner, "PATCH", "/api/profile/text", { bio: "Not published" })).status).toBe(200);
    expect(await call(owner, "POST", "/api/publish")).toEqual(refused);
    expect(await call(owner, "POST", "/api/publish/rollback", { version: burst - 1 })).toEqual(refused);
    expect(await call(owner, "POST", "/api/publish/discard")).toEqual(refused);
    expect(readFileSync(page, "utf8")).toContain(`Version ${burst}`);
    expect(bio(owner)).toBe("Not published");
    expect(versions(owner)).toBe(20);
    // Draft state is a read.
    expect((await call(owner, "GET", "/api/publish/state")).body.hasUnpublishedChanges).toBe(true);

    at += 9_999;
    expect((await call(owner, "POST", "/api/publish")).status).toBe(429);
    at += 1;
    expect((await call(owner, "POST", "/api/publish")).body).toEqual({ version: burst + 1, changed: true });
    expect(readFileSync(page, "utf8")).toContain("Not published");
  });
});
