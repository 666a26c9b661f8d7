import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newId } from "#db/ids.ts";
import { links, pageVersions, socialLinks, userProfiles } from "#db/schema.ts";
import { loadDraft } from "#renderer/draft.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;

beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
});
afterEach(() => t.close());

const pageFile = (username: string) => join(t.deps.env.PUBLISHED_DIR, username, "index.html");
const setName = (userId: string, displayName: string) =>
  t.deps.db.update(userProfiles).set({ displayName }).where(eq(userProfiles.userId, userId)).run();
function addLink(userId: string, title: string, extra: Partial<typeof links.$inferInsert> = {}): string {
  const id = newId();
  t.deps.db.insert(links).values({ id, userId, title, url: "https://example.com/" + title, orderIndex: 1, ...extra }).run();
  return id;
}

describe("POST /api/publish", () => {
  it("writes the page, records a version and reports no unpublished changes", async () => {
    setName(owner.userId, "Ada Published");
    const res = await owner.call("POST", "/api/publish");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: 1, changed: true });
    expect(readFileSync(pageFile(owner.username), "utf8")).toContain("Ada Published");
    const state = await (await owner.call("GET", "/api/publish/state")).json();
    expect(state).toMatchObject({ hasUnpublishedChanges: false, hasPublishedPage: true, version: 1, blockedFeatures: [] });
    expect(typeof state.lastPublishedAt).toBe("string");
  });

  it("is a no-op for an unchanged draft", async () => {
    await owner.call("POST", "/api/publish");
    const again = await owner.call("POST", "/api/publish");
    expect(await again.json()).toEqual({ version: 1, changed: false });
    expect(t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, owner.userId)).all()).toHaveLength(1);
  });

  it("serialises concurrent publishes into distinct versions", async () => {
    setName(owner.userId, "First");
    const results = await Promise.all([owner.call("POST", "/api/publish"), owner.call("POST", "/api/publish")]);
    const bodies = await Promise.all(results.map((r) => r.json()));
    expect(bodies.map((b) => b.version)).toEqual([1, 1]);
    expect(bodies.filter((b) => b.changed)).toHaveLength(1);
  });

  it("blocks a Lite owner using Plus-only features with 402 and the list, writing nothing", async () => {
    const lite = createApiOwner(t, "lite");
    addLink(lite.userId, "main", { isMainButton: true });
    addLink(lite.userId, "later", { scheduleStartTime: new Date(Date.now() + 86_400_000) });
    const res = await lite.call("POST", "/api/publish");
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body.error.message).toBe("Publishing requires Plinth Plus subscription");
    expect(body.error.details.description).toBe("Remove Plus-only features or upgrade to publish your changes.");
    expect(body.error.details.features).toEqual(expect.arrayContaining(["main_button", "scheduling"]));
    expect(existsSync(pageFile(lite.username))).toBe(false);
    const state = await (await lite.call("GET", "/api/publish/state")).json();
    expect(state.blockedFeatures).toEqual(expect.arrayContaining(["main_button", "scheduling"]));
  });

  it("lets a Lite owner without Plus-only features publish", async () => {
    const lite = createApiOwner(t, "lite");
    addLink(lite.userId, "plain");
    expect((await lite.call("POST", "/api/publish")).status).toBe(200);
  });

  it("refuses signed-out and cross-origin requests", async () => {
    expect((await t.app.request("/api/publish", { method: "POST", headers: { "Sec-Fetch-Site": "same-origin", Origin: TEST_ORIGIN } })).status).toBe(401);
    const cross = await t.app.request("/api/publish", {
      method: "POST",
      headers: { Cookie: owner.cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
    });
    expect(cross.status).toBe(403);
    expect(existsSync(pageFile(owner.username))).toBe(false);
  });
});

describe("draft state and discard", () => {
  it("restores profile, links and social links exactly, ids preserved", async () => {
    setName(owner.userId, "Before");
    const kept = addLink(owner.userId, "kept");
    const socialId = newId();
    t.deps.db.insert(socialLinks).values({ id: socialId, userId: owner.userId, platform: "github", url: "https://github.com/ada" }).run();
    await owner.call("POST", "/api/publish");
    const published = loadDraft(t.deps.db, owner.userId)!.snapshot;

    setName(owner.userId, "<script>alert(1)</script>");
    t.deps.db.delete(links).where(eq(links.id, kept)).run();
    addLink(owner.userId, "extra");
    t.deps.db.update(socialLinks).set({ url: "https://github.com/other" }).where(eq(socialLinks.id, socialId)).run();
    expect((await (await owner.call("GET", "/api/publish/state")).json()).hasUnpublishedChanges).toBe(true);

    const res = await owner.call("POST", "/api/publish/discard");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      message: "Draft changes have been discarded",
      description: "Your draft has been reverted to the last published version.",
    });
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot).toEqual(published);
    expect((await (await owner.call("GET", "/api/publish/state")).json()).hasUnpublishedChanges).toBe(false);
  });

  it("answers 'Failed to discard changes' when nothing was published", async () => {
    const res = await owner.call("POST", "/api/publish/discard");
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toBe("Failed to discard changes");
  });

  it("reports unpublished changes before the first publish", async () => {
    const state = await (await owner.call("GET", "/api/publish/state")).json();
    expect(state).toMatchObject({ hasUnpublishedChanges: true, hasPublishedPage: false, version: null, lastPublishedAt: null });
  });
});

describe("versions and rollback", () => {
  it("lists versions and re-publishes an older one", async () => {
    setName(owner.userId, "Version One");
    await owner.call("POST", "/api/publish");
    setName(owner.userId, "Version Two");
    await owner.call("POST", "/api/publish");
    const { versions } = await (await owner.call("GET", "/api/publish/versions")).json();
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);

    const res = await owner.call("POST", "/api/publish/rollback", { version: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: 3, changed: true });
    expect(readFileSync(pageFile(owner.username), "utf8")).toContain("Version One");
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot.profile.displayName).toBe("Version One");
  });

  it("refuses another owner's versions with 404 and changes nothing", async () => {
    setName(owner.userId, "Mine");
    await owner.call("POST", "/api/publish");
    const other = createApiOwner(t, "trial");
    setName(other.userId, "Other draft");
    const res = await other.call("POST", "/api/publish/rollback", { version: 1 });
    expect(res.status).toBe(404);
    expect(loadDraft(t.deps.db, other.userId)!.snapshot.profile.displayName).toBe("Other draft");
    expect(existsSync(pageFile(other.username))).toBe(false);
    expect((await (await other.call("GET", "/api/publish/versions")).json()).versions).toEqual([]);
  });

  it.each([
    ["missing version", {}],
    ["string version", { version: "1" }],
    ["script", { version: "<script>alert(1)</script>" }],
    ["negative", { version: -1 }],
    ["fraction", { version: 1.5 }],
    ["huge", { version: 1e20 }],
    ["extra field", { version: 1, userId: "someone-else" }],
    ["malformed JSON", "{version:"],
    ["oversized", { version: 1, pad: "x".repeat(200_000) }],
  ])("answers 400 for %s", async (_name, body) => {
    await owner.call("POST", "/api/publish");
    const res = await owner.call("POST", "/api/publish/rollback", body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await res.json()).error.message).toEqual(expect.any(String));
    expect((await (await owner.call("GET", "/api/publish/versions")).json()).versions).toHaveLength(1);
  });
});
