/**
 * Bulk re-renders record what the plan hides as a single publish or re-render does (ADR 136, 201):
 * after a trial ends, a re-render of every page (npm run republish, a restore, the template pass)
 * marks an owner whose Lite page leaves Plus items out as "hidden", and once the owner is on Plus
 * again the next one marks them "back", so the dashboard says "Your Plus items are back on your
 * page". The folder on the main thread and on worker threads, and a bucket, each against an owner
 * whose page a single re-render handles.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { desc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { newId } from "#db/ids.ts";
import { links, pageVersions, userProfiles } from "#db/schema.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { pageLockOf } from "#renderer/published-pages.ts";
import { stageFiles } from "#renderer/atomic-write.ts";
import { republishAll } from "#renderer/republish.ts";
import { rerenderPublishedPage } from "#renderer/rerender.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { startTestBucket, type TestBucket } from "#tests/support/s3.ts";

const LONG_TEXT = "A long story the plan hides on a Lite page.";

let t: TestApp;
let bucket: TestBucket;
beforeAll(async () => {
  bucket = await startTestBucket();
});
afterAll(() => bucket.stop());
afterEach(() => t.close());

const set = (o: ApiOwner, values: Partial<typeof userProfiles.$inferInsert>) => t.deps.db.update(userProfiles).set(values).where(eq(userProfiles.userId, o.userId)).run();
const stateOf = (o: ApiOwner) => t.deps.db.select({ s: userProfiles.plusItemsState }).from(userProfiles).where(eq(userProfiles.userId, o.userId)).get()!.s;
const plusItemsBack = async (o: ApiOwner) => (await (await o.call("GET", "/api/publish/state")).json()).plusItemsBack;

/** An owner who published long-form text during the trial. */
async function publishedDuringTrial(): Promise<ApiOwner> {
  const o = createApiOwner(t, "trial");
  set(o, { displayName: "Trial page", longFormText: LONG_TEXT });
  expect((await o.call("POST", "/api/publish")).status).toBe(200);
  expect(stateOf(o)).toBe("none");
  return o;
}

/** Trial over, then Plus again: after each, `bulk` re-renders every page; `single` is re-rendered on its own. */
async function trialEndsThenPlus(bulk: () => Promise<number>, pageOf: (o: ApiOwner) => Promise<string>) {
  const [owner, single] = [await publishedDuringTrial(), await publishedDuringTrial()];
  const singly = () => rerenderPublishedPage(t.deps.db, single.userId, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: TEST_ORIGIN, now: new Date() }, t.deps.target);

  for (const o of [owner, single]) set(o, { trialEndsAt: new Date(Date.now() - 1000) });
  expect(await bulk()).toBeGreaterThanOrEqual(1);
  expect(await singly()).toBe(true);
  expect(await pageOf(owner)).not.toContain(LONG_TEXT);
  expect(stateOf(single)).toBe("hidden");
  expect(stateOf(owner)).toBe("hidden");

  for (const o of [owner, single]) set(o, { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(Date.now() + 30 * 86_400_000) });
  await bulk();
  expect(await singly()).toBe(true);
  expect(await pageOf(owner)).toContain(LONG_TEXT);
  expect(stateOf(single)).toBe("back");
  expect(stateOf(owner)).toBe("back");
  expect(await plusItemsBack(owner)).toBe(true);
  // The dashboard said so: once.
  expect((await owner.call("POST", "/api/publish/plus-items-back/seen")).status).toBe(200);
  expect(await plusItemsBack(owner)).toBe(false);
}

/**
 * ADR 259: as the trial ends, then Plus again, but the owner edits the long-form text in the draft
 * meanwhile and deletes nothing: the text the Lite page hid stays hidden (withheld) until the next
 * publish, the Contact Card link comes back, and a later bulk re-render keeps withholding it; a
 * single re-render of another owner does the same.
 */
async function editedMeanwhile(bulk: () => Promise<number>, pageOf: (o: ApiOwner) => Promise<string>) {
  const withCard = async () => {
    const o = createApiOwner(t, "trial");
    set(o, { displayName: "Trial page", longFormText: LONG_TEXT });
    t.deps.db.insert(links).values({ id: newId(), userId: o.userId, title: "Contact Card", url: "#", linkType: "vcf", linkSpecificData: { name: "Ada" }, orderIndex: 0 }).run();
    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    return o;
  };
  const [owner, single] = [await withCard(), await withCard()];
  const singly = () => rerenderPublishedPage(t.deps.db, single.userId, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: TEST_ORIGIN, now: new Date() }, t.deps.target);
  const withheld = (o: ApiOwner) => t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, o.userId)).orderBy(desc(pageVersions.version)).get()!.withheldItems;

  for (const o of [owner, single]) set(o, { trialEndsAt: new Date(Date.now() - 1000) });
  await bulk();
  expect(await singly()).toBe(true);
  expect(await pageOf(owner)).not.toContain("Contact Card");
  for (const o of [owner, single]) set(o, { longFormText: "A new story, not published yet." });

  for (const o of [owner, single]) set(o, { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(Date.now() + 30 * 86_400_000) });
  await bulk();
  expect(await singly()).toBe(true);
  for (const o of [owner, single]) {
    expect(withheld(o)).toEqual([{ kind: "long_form_text" }]);
    expect(stateOf(o)).toBe("back");
  }
  const page = await pageOf(owner);
  expect(page).toContain("Contact Card");
  expect(page).not.toContain(LONG_TEXT);
  expect(page).not.toContain("A new story");
  // Another bulk re-render (the withholding is on the version now) keeps it so.
  await bulk();
  expect(await pageOf(owner)).not.toContain(LONG_TEXT);
  expect(await pageOf(owner)).toContain("Contact Card");
  // The next publish shows the draft.
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
  expect(await pageOf(owner)).toContain("A new story, not published yet.");
  expect(withheld(owner)).toBeNull();
}

describe("a bulk re-render of the folder records what the plan hides, as a single re-render does", () => {
  const filePage = async (o: ApiOwner) => readFileSync(join(t.deps.env.PUBLISHED_DIR, o.username, "index.html"), "utf8");
  const folder = (threads: number) => () => republishAll(t.deps.db, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: TEST_ORIGIN, threads, offMainThread: threads > 1 });
  const where = [
    ["on the main thread", 1],
    ["on worker threads", 2],
  ] as const;
  it.each(where)("%s", async (_where, threads) => {
    t = createTestApp();
    await trialEndsThenPlus(folder(threads), filePage);
  }, 60_000);
  it.each(where)("%s, withholding what the owner changed meanwhile (ADR 259)", async (_where, threads) => {
    t = createTestApp();
    await editedMeanwhile(folder(threads), filePage);
  }, 60_000);
});

describe("the bulk re-render's page lock", () => {
  it("swaps in no page staged before its version's withheld items changed: the single re-render draws it again, before any swap", async () => {
    t = createTestApp();
    const o = createApiOwner(t, "trial");
    set(o, { displayName: "Trial page", longFormText: LONG_TEXT });
    t.deps.db.insert(links).values({ id: newId(), userId: o.userId, title: "Contact Card", url: "#", linkType: "vcf", linkSpecificData: { name: "Ada" }, orderIndex: 0 }).run();
    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    const settings = { publishedDir: t.deps.env.PUBLISHED_DIR, origin: TEST_ORIGIN };
    const singly = () => rerenderPublishedPage(t.deps.db, o.userId, { ...settings, now: new Date() }, t.deps.target);
    set(o, { trialEndsAt: new Date(Date.now() - 1000) });
    expect(await singly()).toBe(true);
    set(o, { longFormText: "Edited meanwhile." });
    set(o, { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(Date.now() + 30 * 86_400_000) });
    const version = t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, o.userId)).orderBy(desc(pageVersions.version)).get()!;
    // A bulk render staged the page under Plus with nothing withheld; then another process re-rendered
    // it, withholding the edited text, and the state moved on from "hidden".
    const page = join(t.deps.env.PUBLISHED_DIR, o.username, "index.html");
    const staged = { userId: o.userId, version: version.version, page, files: stageFiles([{ path: page, content: `stale ${LONG_TEXT}` }]), plusItems: { lite: false, hidden: true }, withheldJson: null };
    expect(await singly()).toBe(true);
    expect(stateOf(o)).toBe("back");
    const swapped: string[][] = [];
    const assets = ensureSharedAssets(t.deps.env.PUBLISHED_DIR);
    const lock = pageLockOf(t.deps.db, { ...settings, apiOrigin: TEST_ORIGIN, assets, fingerprint: "test" });
    expect(lock([staged], (pages) => swapped.push(pages.map((p) => p.userId)))).toEqual([o.userId]);
    expect(swapped).toEqual([[]]);
    const html = readFileSync(page, "utf8");
    expect(html).not.toContain("stale");
    expect(html).not.toContain(LONG_TEXT);
    expect(html).toContain("Contact Card");
  });
});

describe("a bulk re-render into a bucket records what the plan hides, as a single re-render does", () => {
  let prefix = "";
  /** A test app that publishes into the bucket, under a prefix of its own. */
  const bucketApp = (name: string) => {
    prefix = `${name}-${Date.now()}/`;
    t = createTestApp(bucket.env(prefix));
  };
  const bucketPage = async (o: ApiOwner) => (await bucket.object(`${prefix}${o.username}/index.html`))!.body.toString("utf8");
  const throughTarget = () => republishAll(t.deps.db, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: TEST_ORIGIN, target: t.deps.target });
  it("through the target", async () => {
    bucketApp("plus-items");
    await trialEndsThenPlus(throughTarget, bucketPage);
  }, 60_000);
  it("through the target, withholding what the owner changed meanwhile (ADR 259)", async () => {
    bucketApp("plus-withheld");
    await editedMeanwhile(throughTarget, bucketPage);
  }, 60_000);
});
