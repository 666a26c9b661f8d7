/**
 * Scheduled rebuilds driven by the scheduler's own clock: the test owns `now` and calls `tick()`,
 * so nothing waits on real time. Every boundary lies at least ten minutes ahead of the real clock's
 * start, which keeps the scheduler's own timer (armed for the gap, an hour at most) from firing
 * while a test runs; the test moves the injected clock past the boundary instead.
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
const MINUTE = 60_000;
/** The injected clock, in ms: starts at the real time and moves only when a test moves it. */
let clock: number;
const now = () => new Date(clock);

beforeEach(() => {
  clock = Date.now();
  dir = mkdtempSync(join(tmpdir(), "plinth-sched-"));
  db = openDatabase({ path: join(dir, "db.sqlite") });
});
afterEach(() => {
  scheduler?.stop();
  scheduler = undefined;
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

function start(extra: { onTrialEnded?: (o: { userId: string; email: string; username: string }) => void } = {}) {
  return startScheduler({ db, publishedDir: join(dir, "published"), origin: ORIGIN, now, ...extra });
}

function account(username: string) {
  return createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: now() }).userId;
}

function ownerWithScheduledLink(username: string, startsInMs: number) {
  const userId = account(username);
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
      scheduleStartTime: new Date(clock + startsInMs),
    })
    .run();
  const published = join(dir, "published");
  const res = publishPage(db, userId, { publishedDir: published, origin: ORIGIN, now: now() });
  expect(res).toMatchObject({ ok: true, changed: true });
  return { userId, file: join(published, username, "index.html"), published };
}

const read = (file: string) => readFileSync(file, "utf8");

describe("scheduled rebuilds", () => {
  it("shows a scheduled link after its start with no publish", async () => {
    const { file } = ownerWithScheduledLink("schedowner", 10 * MINUTE);
    expect(read(file)).toContain("Always Here Link");
    expect(read(file)).not.toContain("Scheduled Launch Link");
    scheduler = start();
    expect(await scheduler.ready).toEqual([]);
    expect(scheduler.nextWakeAt()).toBe(clock + 10 * MINUTE);
    // Just before the start nothing changes; at the start the page is re-rendered.
    clock += 10 * MINUTE - 1;
    expect(await scheduler.tick()).toEqual([]);
    expect(read(file)).not.toContain("Scheduled Launch Link");
    clock += 1;
    expect(await scheduler.tick()).toEqual(["schedowner"]);
    expect(read(file)).toContain("Scheduled Launch Link");
  });

  it("rebuilds on start a boundary missed while stopped", async () => {
    const { file } = ownerWithScheduledLink("restartowner", 10 * MINUTE);
    // No scheduler is running while the boundary passes.
    clock += 11 * MINUTE;
    expect(read(file)).not.toContain("Scheduled Launch Link");
    scheduler = start();
    expect(await scheduler.ready).toEqual(["restartowner"]);
    expect(read(file)).toContain("Scheduled Launch Link");
    // Rendered for the boundary: a second start has nothing to do.
    scheduler.stop();
    scheduler = start();
    expect(await scheduler.ready).toEqual([]);
  });

  it("still rebuilds every other page when one published snapshot is unreadable", async () => {
    const broken = ownerWithScheduledLink("brokenowner", 10 * MINUTE);
    db.$client.prepare("UPDATE page_versions SET snapshot = ? WHERE user_id = ?").run("{not json", broken.userId);
    const { file } = ownerWithScheduledLink("healthyowner", 10 * MINUTE);
    clock += 11 * MINUTE;
    scheduler = start();
    expect(await scheduler.ready).toEqual(["healthyowner"]);
    expect(read(file)).toContain("Scheduled Launch Link");
  });

  it("re-renders under Lite rules when a trial ends while stopped, and tells the owner", async () => {
    const userId = account("trialend");
    db.update(userProfiles).set({ trialEndsAt: new Date(clock + 10 * MINUTE), longFormText: "Plus-only about text" }).where(eq(userProfiles.userId, userId)).run();
    const published = join(dir, "published");
    publishPage(db, userId, { publishedDir: published, origin: ORIGIN, now: now() });
    const file = join(published, "trialend", "index.html");
    expect(read(file)).toContain("Plus-only about text");
    clock += 11 * MINUTE;
    const told: string[] = [];
    scheduler = start({ onTrialEnded: (o) => void told.push(o.email) });
    expect(await scheduler.ready).toEqual(["trialend"]);
    expect(told).toEqual(["trialend@example.com"]);
    expect(read(file)).not.toContain("Plus-only about text");
    expect(read(file)).toContain("Powered by Plinth");
    // Once rendered, a restart does not render it or tell the owner again.
    scheduler.stop();
    clock += MINUTE;
    scheduler = start({ onTrialEnded: (o) => void told.push(o.email) });
    expect(await scheduler.ready).toEqual([]);
    expect(told).toHaveLength(1);
  });

  it("re-renders on time when a trial ends while running", async () => {
    const userId = account("trialive");
    const trialEnd = clock + 15 * MINUTE;
    db.update(userProfiles).set({ trialEndsAt: new Date(trialEnd), removeBranding: true }).where(eq(userProfiles.userId, userId)).run();
    const told: string[] = [];
    scheduler = start({ onTrialEnded: (o) => void told.push(o.username) });
    expect(await scheduler.ready).toEqual([]);
    const published = join(dir, "published");
    publishPage(db, userId, { publishedDir: published, origin: ORIGIN, now: now() });
    const file = join(published, "trialive", "index.html");
    expect(read(file)).not.toContain("Powered by Plinth");
    expect(scheduler.nextWakeAt()).toBe(trialEnd);
    clock = trialEnd - 1;
    expect(await scheduler.tick()).toEqual([]);
    expect(told).toEqual([]);
    clock = trialEnd;
    expect(await scheduler.tick()).toEqual(["trialive"]);
    expect(read(file)).toContain("Powered by Plinth");
    expect(told).toEqual(["trialive"]);
    // The boundary is spent: a later tick neither re-renders nor tells the owner again.
    clock += MINUTE;
    expect(await scheduler.tick()).toEqual([]);
    expect(told).toEqual(["trialive"]);
  });

  it("re-renders when a cancelled subscription's paid period ends", async () => {
    const userId = account("cancelled");
    db.update(userProfiles)
      .set({ trialEndsAt: null, planType: "plus", subscriptionStatus: "canceled_plus", currentPeriodEndDate: new Date(clock + 10 * MINUTE), longFormText: "Paid about text" })
      .where(eq(userProfiles.userId, userId))
      .run();
    const published = join(dir, "published");
    publishPage(db, userId, { publishedDir: published, origin: ORIGIN, now: now() });
    expect(read(join(published, "cancelled", "index.html"))).toContain("Paid about text");
    clock += 11 * MINUTE;
    scheduler = start();
    expect(await scheduler.ready).toEqual(["cancelled"]);
    expect(read(join(published, "cancelled", "index.html"))).not.toContain("Paid about text");
  });

  it("arms its timer for a schedule published while it runs, without scanning every page", async () => {
    scheduler = start();
    expect(await scheduler.ready).toEqual([]);
    const userId = account("endsoon");
    const end = clock + 20 * MINUTE;
    db.insert(links).values({ id: newId(), userId, title: "Ending Offer Link", url: "https://example.com/offer", orderIndex: 0, scheduleEndTime: new Date(end) }).run();
    const published = join(dir, "published");
    publishPage(db, userId, { publishedDir: published, origin: ORIGIN, now: now() });
    expect(scheduler.nextWakeAt()).toBe(end);
    const file = join(published, "endsoon", "index.html");
    expect(read(file)).toContain("Ending Offer Link");
    clock = end;
    expect(await scheduler.tick()).toEqual(["endsoon"]);
    expect(read(file)).not.toContain("Ending Offer Link");
  });
});
