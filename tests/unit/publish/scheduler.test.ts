/**
 * Scheduled rebuilds with a real timer: a link scheduled a couple of seconds ahead appears in the
 * published HTML with nobody publishing, and a boundary passed while the scheduler was stopped is
 * rebuilt on start.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { links, userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { startScheduler, type Scheduler } from "#renderer/scheduler.ts";

let dir: string;
let db: Db;
let scheduler: Scheduler | undefined;
const ORIGIN = "http://localhost:4321";

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "plinth-sched-"));
  db = openDatabase({ path: join(dir, "db.sqlite") });
});
afterEach(() => {
  scheduler?.stop();
  scheduler = undefined;
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

function ownerWithScheduledLink(username: string, startsInMs: number) {
  const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: new Date() });
  db.insert(links)
    .values({ id: newId(), userId, title: "Always Here Link", url: "https://example.com/always", orderIndex: 0 })
    .run();
  db.insert(links)
    .values({
      id: newId(),
      userId,
      title: "Scheduled Launch Link",
      url: "https://example.com/launch",
      orderIndex: 1,
      scheduleStartTime: new Date(Date.now() + startsInMs),
    })
    .run();
  const published = join(dir, "published");
  const res = publishPage(db, userId, { publishedDir: published, origin: ORIGIN, now: new Date() });
  expect(res).toMatchObject({ ok: true, changed: true });
  return { userId, file: join(published, username, "index.html"), published };
}

async function waitForText(file: string, text: string, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const html = readFileSync(file, "utf8");
    if (html.includes(text) || Date.now() > until) return html;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("scheduled rebuilds", () => {
  it("shows a scheduled link after its start with no publish", async () => {
    const { file, published } = ownerWithScheduledLink("schedowner", 2500);
    const before = readFileSync(file, "utf8");
    expect(before).toContain("Always Here Link");
    expect(before).not.toContain("Scheduled Launch Link");
    scheduler = startScheduler({ db, publishedDir: published, origin: ORIGIN });
    expect(await waitForText(file, "Scheduled Launch Link", 20_000)).toContain("Scheduled Launch Link");
  }, 30_000);

  it("rebuilds on start a boundary missed while stopped", async () => {
    const { file, published } = ownerWithScheduledLink("restartowner", 300);
    expect(readFileSync(file, "utf8")).not.toContain("Scheduled Launch Link");
    // No scheduler is running while the boundary passes.
    await new Promise((r) => setTimeout(r, 600));
    expect(readFileSync(file, "utf8")).not.toContain("Scheduled Launch Link");
    scheduler = startScheduler({ db, publishedDir: published, origin: ORIGIN });
    const rebuilt = await scheduler.ready;
    expect(rebuilt).toContain("restartowner");
    expect(readFileSync(file, "utf8")).toContain("Scheduled Launch Link");
  }, 30_000);

  it("still rebuilds every other page when one published snapshot is unreadable", async () => {
    const broken = ownerWithScheduledLink("brokenowner", 300);
    db.$client.prepare("UPDATE page_versions SET snapshot = ? WHERE user_id = ?").run("{not json", broken.userId);
    const { file, published } = ownerWithScheduledLink("healthyowner", 300);
    await new Promise((r) => setTimeout(r, 600));
    scheduler = startScheduler({ db, publishedDir: published, origin: ORIGIN });
    expect(await scheduler.ready).toEqual(["healthyowner"]);
    expect(readFileSync(file, "utf8")).toContain("Scheduled Launch Link");
  }, 30_000);

  it("re-renders under Lite rules when a trial ends while stopped, and tells the owner", async () => {
    const { userId } = createAccount(db, { email: "trialend@example.com", username: "trialend", passwordHash: null, emailVerified: true, now: new Date() });
    db.update(userProfiles).set({ trialEndsAt: new Date(Date.now() + 300), longFormText: "Plus-only about text" }).where(eq(userProfiles.userId, userId)).run();
    const published = join(dir, "published");
    publishPage(db, userId, { publishedDir: published, origin: ORIGIN, now: new Date() });
    const file = join(published, "trialend", "index.html");
    expect(readFileSync(file, "utf8")).toContain("Plus-only about text");
    await new Promise((r) => setTimeout(r, 600));
    const told: string[] = [];
    scheduler = startScheduler({ db, publishedDir: published, origin: ORIGIN, onTrialEnded: (o) => void told.push(o.email) });
    expect(await scheduler.ready).toContain("trialend");
    expect(told).toEqual(["trialend@example.com"]);
    expect(readFileSync(file, "utf8")).not.toContain("Plus-only about text");
    expect(readFileSync(file, "utf8")).toContain("Powered by Plinth");
    // Once rendered, a restart does not render it or tell the owner again.
    scheduler.stop();
    scheduler = startScheduler({ db, publishedDir: published, origin: ORIGIN, onTrialEnded: (o) => void told.push(o.email) });
    expect(await scheduler.ready).toEqual([]);
    expect(told).toHaveLength(1);
  });

  it("re-renders on time when a trial ends while running", async () => {
    const { userId } = createAccount(db, { email: "live@example.com", username: "trialive", passwordHash: null, emailVerified: true, now: new Date() });
    db.update(userProfiles).set({ trialEndsAt: new Date(Date.now() + 1500), removeBranding: true }).where(eq(userProfiles.userId, userId)).run();
    const published = join(dir, "published");
    const told: string[] = [];
    scheduler = startScheduler({ db, publishedDir: published, origin: ORIGIN, onTrialEnded: (o) => void told.push(o.username) });
    await scheduler.ready;
    publishPage(db, userId, { publishedDir: published, origin: ORIGIN, now: new Date() });
    const file = join(published, "trialive", "index.html");
    expect(readFileSync(file, "utf8")).not.toContain("Powered by Plinth");
    expect(await waitForText(file, "Powered by Plinth", 20_000)).toContain("Powered by Plinth");
    await expect.poll(() => told).toEqual(["trialive"]);
  }, 30_000);

  it("re-renders when a cancelled subscription's paid period ends", async () => {
    const { userId } = createAccount(db, { email: "cancel@example.com", username: "cancelled", passwordHash: null, emailVerified: true, now: new Date() });
    db.update(userProfiles)
      .set({ trialEndsAt: null, planType: "plus", subscriptionStatus: "canceled_plus", currentPeriodEndDate: new Date(Date.now() + 300), longFormText: "Paid about text" })
      .where(eq(userProfiles.userId, userId))
      .run();
    const published = join(dir, "published");
    publishPage(db, userId, { publishedDir: published, origin: ORIGIN, now: new Date() });
    await new Promise((r) => setTimeout(r, 600));
    scheduler = startScheduler({ db, publishedDir: published, origin: ORIGIN });
    expect(await scheduler.ready).toEqual(["cancelled"]);
    expect(readFileSync(join(published, "cancelled", "index.html"), "utf8")).not.toContain("Paid about text");
  });

  it("arms its timer for a schedule published while it runs, without scanning every page", async () => {
    scheduler = startScheduler({ db, publishedDir: join(dir, "published"), origin: ORIGIN });
    expect(await scheduler.ready).toEqual([]);
    const { userId } = createAccount(db, { email: "ends@example.com", username: "endsoon", passwordHash: null, emailVerified: true, now: new Date() });
    const end = new Date(Date.now() + 1500);
    db.insert(links).values({ id: newId(), userId, title: "Ending Offer Link", url: "https://example.com/offer", orderIndex: 0, scheduleEndTime: end }).run();
    const published = join(dir, "published");
    publishPage(db, userId, { publishedDir: published, origin: ORIGIN, now: new Date() });
    expect(scheduler.nextWakeAt()).toBe(end.getTime());
    const file = join(published, "endsoon", "index.html");
    expect(readFileSync(file, "utf8")).toContain("Ending Offer Link");
    const until = Date.now() + 20_000;
    while (readFileSync(file, "utf8").includes("Ending Offer Link") && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(file, "utf8")).not.toContain("Ending Offer Link");
  }, 30_000);
});
