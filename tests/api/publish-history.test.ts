/**
 * The History view's routes (ADR 137): the versions with what changed, a version's preview as it was
 * published, restoring one into the draft, and hostile input on each (another owner's versions,
 * malformed bodies, cross-origin requests, signed-out callers).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newId } from "#db/ids.ts";
import { links, pageVersions, userProfiles } from "#db/schema.ts";
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

const pageFile = (o: ApiOwner) => join(t.deps.env.PUBLISHED_DIR, o.username, "index.html");
const setProfile = (o: ApiOwner, set: Partial<typeof userProfiles.$inferInsert>) => t.deps.db.update(userProfiles).set(set).where(eq(userProfiles.userId, o.userId)).run();
function addLink(o: ApiOwner, title: string, extra: Partial<typeof links.$inferInsert> = {}): string {
  const id = newId();
  t.deps.db.insert(links).values({ id, userId: o.userId, title, url: `https://example.com/${title}`, orderIndex: 1, ...extra }).run();
  return id;
}
const versions = async (o: ApiOwner) => (await (await o.call("GET", "/api/publish/versions")).json()).versions;
const preview = (o: ApiOwner, query: string, cookie = o.cookie) => t.app.request(`/${o.username}/preview?${query}`, { headers: { Cookie: cookie } });
/** The page's <main>, where everything the owner made is drawn. */
const mainOf = (html: string) => html.slice(html.indexOf("<main"), html.indexOf("</main>"));

/** Three versions: a name, then two links and a theme, then a link removed. */
async function threeVersions(o: ApiOwner) {
  setProfile(o, { displayName: "Version One" });
  await o.call("POST", "/api/publish");
  setProfile(o, { displayName: "Version Two", selectedThemeName: "ocean-blue" });
  addLink(o, "Shop", { orderIndex: 0 });
  const blog = addLink(o, "Blog", { orderIndex: 1 });
  await o.call("POST", "/api/publish");
  t.deps.db.delete(links).where(eq(links.id, blog)).run();
  setProfile(o, { displayName: "Version Three" });
  await o.call("POST", "/api/publish");
}

describe("GET /api/publish/versions", () => {
  it("lists the versions newest first, each with what changed and whether it is live", async () => {
    await threeVersions(owner);
    expect(await versions(owner)).toEqual([
      { version: 3, publishedAt: expect.any(String), summary: "1 link removed, display name changed", live: true, hiddenByPlan: [], planHides: [] },
      { version: 2, publishedAt: expect.any(String), summary: "2 links added, display name changed, theme changed", live: false, hiddenByPlan: [], planHides: [] },
      { version: 1, publishedAt: expect.any(String), summary: "First published version", live: false, hiddenByPlan: [], planHides: [] },
    ]);
  });

  it("names the oldest kept version as such once older ones are pruned, and lists only the owner's own", async () => {
    for (let i = 1; i <= 22; i++) {
      setProfile(owner, { displayName: `V${i}` });
      await owner.call("POST", "/api/publish");
    }
    const list = await versions(owner);
    expect(list).toHaveLength(20);
    expect(list.at(-1)).toMatchObject({ version: 3, summary: "Oldest version kept" });
    expect(list[0]).toMatchObject({ version: 22, summary: "Display name changed" });
    expect(await versions(createApiOwner(t, "trial"))).toEqual([]);
  });

  it("says which versions were published with Plus items hidden by the plan", async () => {
    const lite = createApiOwner(t, "lite");
    addLink(lite, "Card", { linkType: "vcf", url: "#", linkSpecificData: { name: "Ada" } });
    await lite.call("POST", "/api/publish/hide-plus", { hide: ["vcf"] });
    expect((await versions(lite))[0]).toMatchObject({ version: 1, hiddenByPlan: ["vcf"] });
  });
});

describe("POST /api/publish/restore", () => {
  it("makes an older version the draft and leaves the live page alone", async () => {
    await threeVersions(owner);
    const live = readFileSync(pageFile(owner), "utf8");
    const res = await owner.call("POST", "/api/publish/restore", { version: 2 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Version 2 is now your draft", description: "Edit it as you like, then publish when you are ready." });
    const draft = loadDraft(t.deps.db, owner.userId)!.snapshot;
    expect(draft.profile.displayName).toBe("Version Two");
    expect(draft.links.map((l) => l.title).sort()).toEqual(["Blog", "Shop"]);
    expect(readFileSync(pageFile(owner), "utf8")).toBe(live);
    const state = await (await owner.call("GET", "/api/publish/state")).json();
    expect(state).toMatchObject({ hasUnpublishedChanges: true, version: 3 });
    // Then edited and published as usual.
    setProfile(owner, { displayName: "Version Two, edited" });
    expect(await (await owner.call("POST", "/api/publish")).json()).toEqual({ version: 4, changed: true });
    expect(readFileSync(pageFile(owner), "utf8")).toContain("Blog");
  });

  it("restores a version with Plus items for a Lite owner: the draft holds them, publishing asks first", async () => {
    addLink(owner, "Shop", { isMainButton: true });
    await owner.call("POST", "/api/publish");
    t.deps.db.delete(links).where(eq(links.userId, owner.userId)).run();
    await owner.call("POST", "/api/publish");
    setProfile(owner, { trialEndsAt: new Date(Date.now() - 1000) });
    expect((await owner.call("POST", "/api/publish/restore", { version: 1 })).status).toBe(200);
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot.links).toMatchObject([{ title: "Shop", isMainButton: true }]);
    expect((await owner.call("POST", "/api/publish")).status).toBe(402);
  });

  it("refuses another owner's version numbers with 404 and changes nothing", async () => {
    await threeVersions(owner);
    const other = createApiOwner(t, "trial");
    setProfile(other, { displayName: "Other draft" });
    for (const version of [1, 2, 3]) {
      const res = await other.call("POST", "/api/publish/restore", { version });
      expect(res.status).toBe(404);
      expect((await res.json()).error.message).toBe("Version not found");
    }
    expect(loadDraft(t.deps.db, other.userId)!.snapshot.profile.displayName).toBe("Other draft");
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot.profile.displayName).toBe("Version Three");
  });

  it("refuses a version pruned from the last 20", async () => {
    for (let i = 1; i <= 21; i++) {
      setProfile(owner, { displayName: `V${i}` });
      await owner.call("POST", "/api/publish");
    }
    expect((await owner.call("POST", "/api/publish/restore", { version: 1 })).status).toBe(404);
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot.profile.displayName).toBe("V21");
  });

  it.each([
    ["no body", undefined],
    ["a missing version", {}],
    ["a string version", { version: "1" }],
    ["a script", { version: "<script>alert(1)</script>" }],
    ["zero", { version: 0 }],
    ["a negative version", { version: -1 }],
    ["a fraction", { version: 1.5 }],
    ["a huge number", { version: 1e20 }],
    ["an extra field", { version: 1, userId: "someone-else" }],
    ["malformed JSON", "{version:"],
    ["an oversized body", { version: 1, pad: "x".repeat(200_000) }],
  ])("answers 4xx for %s, touching nothing", async (_name, body) => {
    await threeVersions(owner);
    const res = await owner.call("POST", "/api/publish/restore", body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await res.json()).error.message).toEqual(expect.any(String));
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot.profile.displayName).toBe("Version Three");
  });

  it("refuses signed-out and cross-origin callers", async () => {
    await threeVersions(owner);
    const body = JSON.stringify({ version: 1 });
    const signedOut = await t.app.request("/api/publish/restore", { method: "POST", headers: { Origin: TEST_ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" }, body });
    expect(signedOut.status).toBe(401);
    const forged = await t.app.request("/api/publish/restore", {
      method: "POST",
      headers: { Cookie: owner.cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example", "Content-Type": "application/json" },
      body,
    });
    expect(forged.status).toBe(403);
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot.profile.displayName).toBe("Version Three");
  });
});

describe("putting a version with Plus items live on Lite (ADR 200)", () => {
  const LONG_TEXT = "About me, in seven hundred words.";
  /** Version 1 with a main button and long-form text (published during the trial), version 2 without; then the trial ends. */
  async function plusVersionThenLite(o: ApiOwner) {
    addLink(o, "Shop", { isMainButton: true, orderIndex: 0 });
    setProfile(o, { displayName: "With Plus", longFormText: LONG_TEXT });
    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    t.deps.db.delete(links).where(eq(links.userId, o.userId)).run();
    setProfile(o, { displayName: "Lite draft", longFormText: "" });
    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    setProfile(o, { trialEndsAt: new Date(Date.now() - 1000) });
  }
  const draftName = (o: ApiOwner) => loadDraft(t.deps.db, o.userId)!.snapshot.profile.displayName;
  const plusState = (o: ApiOwner) => t.deps.db.select({ s: userProfiles.plusItemsState }).from(userProfiles).where(eq(userProfiles.userId, o.userId)).get()!.s;

  it("lists, per version, what the plan would hide if it were put live now", async () => {
    await plusVersionThenLite(owner);
    const [v2, v1] = await versions(owner);
    expect(v2).toMatchObject({ version: 2, planHides: [] });
    expect(v1.planHides).toEqual([
      { feature: "main_button", kind: "main", id: expect.any(String), text: "“Shop” will show as an ordinary link, not the main button" },
      { feature: "long_form_text", kind: "long_form_text", text: "Your long-form text will be hidden" },
    ]);
    // On Plus nothing is hidden.
    setProfile(owner, { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(Date.now() + 86_400_000) });
    expect((await versions(owner)).map((v: { planHides: unknown[] }) => v.planHides)).toEqual([[], []]);
  });

  it("answers 402 without consent and leaves the draft and the page alone", async () => {
    await plusVersionThenLite(owner);
    const live = readFileSync(pageFile(owner), "utf8");
    const res = await owner.call("POST", "/api/publish/rollback", { version: 1 });
    expect(res.status).toBe(402);
    expect((await res.json()).error.details.features).toEqual(["main_button", "long_form_text"]);
    expect(draftName(owner)).toBe("Lite draft");
    expect(readFileSync(pageFile(owner), "utf8")).toBe(live);
  });

  it("puts it live with consent: the plan hides the listed items, the draft and the stored version keep them", async () => {
    await plusVersionThenLite(owner);
    const res = await owner.call("POST", "/api/publish/rollback", { version: 1, hide: ["main_button", "long_form_text"] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: 3, changed: true });
    const page = mainOf(readFileSync(pageFile(owner), "utf8"));
    expect(page).toContain("With Plus");
    expect(page).toContain("Shop");
    expect(page).not.toContain(LONG_TEXT);
    const draft = loadDraft(t.deps.db, owner.userId)!.snapshot;
    expect(draft.profile.longFormText).toBe(LONG_TEXT);
    expect(draft.links).toMatchObject([{ title: "Shop", isMainButton: true }]);
    const stored = t.deps.db.select().from(pageVersions).where(and(eq(pageVersions.userId, owner.userId), eq(pageVersions.version, 3))).get()!;
    expect(stored.snapshot).toMatchObject({ profile: { longFormText: LONG_TEXT }, links: [{ title: "Shop", isMainButton: true }] });
    expect(stored.hiddenByPlan).toEqual(["main_button", "long_form_text"]);
    expect((await versions(owner))[0]).toMatchObject({ version: 3, live: true, hiddenByPlan: ["main_button", "long_form_text"] });
    expect(plusState(owner)).toBe("hidden");
    // Nothing to publish: the draft is the live version.
    expect(await (await owner.call("GET", "/api/publish/state")).json()).toMatchObject({ hasUnpublishedChanges: false, version: 3 });
  });

  it("answers 409 when the consent no longer covers what the plan hides, changing nothing", async () => {
    await plusVersionThenLite(owner);
    const live = readFileSync(pageFile(owner), "utf8");
    const res = await owner.call("POST", "/api/publish/rollback", { version: 1, hide: ["main_button"] });
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.error.message).toBe("What your plan hides on this version changed since you opened History. Check the list and try again.");
    expect(body.error.details.features).toEqual(["main_button", "long_form_text"]);
    expect(draftName(owner)).toBe("Lite draft");
    expect(readFileSync(pageFile(owner), "utf8")).toBe(live);
    expect((await versions(owner))[0].version).toBe(2);
  });

  it("answers 404 for another owner's version, consent or not, and touches neither owner", async () => {
    await plusVersionThenLite(owner);
    const other = createApiOwner(t, "lite");
    setProfile(other, { displayName: "Other draft" });
    for (const body of [{ version: 1 }, { version: 1, hide: ["main_button", "long_form_text"] }]) {
      const res = await other.call("POST", "/api/publish/rollback", body);
      expect(res.status).toBe(404);
      expect((await res.json()).error.message).toBe("Version not found");
    }
    expect(draftName(other)).toBe("Other draft");
    expect(existsSync(pageFile(other))).toBe(false);
    expect(draftName(owner)).toBe("Lite draft");
  });

  it.each([
    ["an empty consent", { version: 1, hide: [] }],
    ["an unknown feature", { version: 1, hide: ["everything"] }],
    ["a script", { version: 1, hide: ["<script>alert(1)</script>"] }],
    ["a string", { version: 1, hide: "main_button" }],
    ["too many", { version: 1, hide: Array.from({ length: 100 }, () => "main_button") }],
  ])("answers 400 for %s, touching nothing", async (_name, body) => {
    await plusVersionThenLite(owner);
    const res = await owner.call("POST", "/api/publish/rollback", body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toEqual(expect.any(String));
    expect(draftName(owner)).toBe("Lite draft");
  });
});

describe("a version's preview", () => {
  it("renders the version as it was published, with a banner naming it, noindex and uncounted", async () => {
    setProfile(owner, { displayName: "Version One" });
    await owner.call("POST", "/api/publish");
    const published = readFileSync(pageFile(owner), "utf8");
    setProfile(owner, { displayName: "Version Two" });
    await owner.call("POST", "/api/publish");
    const res = await preview(owner, "version=1");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-robots-tag")).toContain("noindex");
    const html = await res.text();
    expect(html).toMatch(/<div class="pv" role="status">Version 1, published \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC: your page as visitors saw it then\./);
    expect(html).toContain('"preview":true');
    expect(mainOf(html)).toBe(mainOf(published));
    // The same address with preview=true works too; without it, the query asks nothing of the live page.
    expect(await (await t.app.request(`/${owner.username}?preview=true&version=1`, { headers: { Cookie: owner.cookie } })).text()).toContain("Version One");
    expect(await (await t.app.request(`/${owner.username}?version=1`)).text()).toContain("Version Two");
  });

  it("renders a version published under Lite as Lite, though the owner is on Plus now, and schedules as they stood then", async () => {
    const lite = createApiOwner(t, "lite");
    const now = Date.now();
    addLink(lite, "Card", { linkType: "vcf", url: "#", linkSpecificData: { name: "Ada" } });
    addLink(lite, "Blog", { orderIndex: 2 });
    setProfile(lite, { longFormText: "About Ada" });
    await lite.call("POST", "/api/publish/hide-plus", { hide: ["vcf", "long_form_text"] });
    const published = readFileSync(pageFile(lite), "utf8");
    setProfile(lite, { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(now + 30 * 86_400_000) });
    const html = await (await preview(lite, "version=1")).text();
    expect(mainOf(html)).toBe(mainOf(published));
    expect(html).not.toContain("About Ada");
    expect(html).toContain("Blog");
  });

  it("renders an older version stored without its plan under the owner's plan as it stood then, or Plus when only Plus let it through", async () => {
    const lite = createApiOwner(t, "lite");
    setProfile(lite, { displayName: "Lite page" });
    await lite.call("POST", "/api/publish");
    addLink(lite, "Shop", { isMainButton: true });
    setProfile(lite, { trialEndsAt: new Date(Date.now() + 86_400_000) });
    await lite.call("POST", "/api/publish");
    t.deps.db.update(pageVersions).set({ plan: null }).where(eq(pageVersions.userId, lite.userId)).run();
    setProfile(lite, { trialEndsAt: new Date(Date.now() - 86_400_000) });
    expect(await (await preview(lite, "version=2")).text()).toContain('class="btn main"');
    const first = await (await preview(lite, "version=1")).text();
    expect(first).toContain("Lite page");
    expect(first).toContain("Powered by Plinth");
  });

  it("answers the site's 404 to anyone but the owner, and for versions that are not theirs or malformed", async () => {
    await threeVersions(owner);
    const other = createApiOwner(t, "trial");
    await other.call("POST", "/api/publish");
    for (const cookie of ["", other.cookie, "plinth_session=forged.token"]) {
      const res = await preview(owner, "version=1", cookie);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("Version One");
    }
    for (const query of ["version=9", "version=0", "version=-1", "version=1.5", "version=abc", "version=%3Cscript%3E", "version=01", "version=99999999999999999999", "version="]) {
      const res = await preview(owner, query);
      expect(res.status, query).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    // Another owner's version 1 is not the owner's own version 1.
    expect(await (await preview(other, "version=1")).text()).not.toContain("Version One");
    // A version whose link was since deleted from the draft still previews.
    t.deps.db.delete(links).where(and(eq(links.userId, owner.userId))).run();
    expect(await (await preview(owner, "version=2")).text()).toContain("Blog");
  });
});
