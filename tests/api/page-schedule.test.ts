/**
 * Scheduled re-renders on the job queue: a publish queues one `page-boundary` job per future
 * boundary, and the worker re-renders the page when the injected clock reaches it. The test owns
 * the worker's clock and calls `tick()`; nothing waits on real time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AppDeps } from "#api/context.ts";
import { requeuePageBoundaries } from "#api/jobs/page-schedule.ts";
import { publishInitialPage } from "#api/services/accounts.ts";
import { jobsFor } from "#api/jobs/runner.ts";
import { newId } from "#db/ids.ts";
import { jobs, links, userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { mailsTo } from "../support/mail.ts";
import { createApiOwner, type ApiOwner } from "../support/owner.ts";

const MINUTE = 60_000;
let t: TestApp;
/** The worker's clock, in ms: starts at the real time and moves only when a test moves it. */
let clock: number;
/** The app as the job worker sees it, with the test's clock. */
let later: AppDeps;

beforeEach(() => {
  t = createTestApp();
  clock = Date.now();
  later = { ...t.deps, now: () => new Date(clock) };
});
afterEach(() => t.close());

const pageOf = (o: ApiOwner) => readFileSync(join(t.deps.env.PUBLISHED_DIR, o.username, "index.html"), "utf8");
const boundaryJobs = () => t.deps.db.select().from(jobs).where(eq(jobs.kind, "page-boundary")).all();
const tick = () => jobsFor(later).tick();

async function publish(o: ApiOwner) {
  const res = await o.call("POST", "/api/publish");
  expect(res.status).toBe(200);
}

function scheduledLink(o: ApiOwner, title: string, times: { start?: number; end?: number }) {
  t.deps.db
    .insert(links)
    .values({
      id: newId(),
      userId: o.userId,
      title,
      url: "https://example.com/scheduled",
      orderIndex: 1,
      scheduleStartTime: times.start === undefined ? null : new Date(times.start),
      scheduleEndTime: times.end === undefined ? null : new Date(times.end),
    })
    .run();
}

const trialMails = (o: ApiOwner) => mailsTo(t.deps.env.OUTBOX_DIR, `${o.username}@example.com`).filter((m) => m.subject === "Your Plinth Plus trial has ended");

describe("scheduled re-renders", () => {
  it("show a scheduled link from its start and hide it after its end, with nobody publishing", async () => {
    const owner = createApiOwner(t, "plus");
    const start = clock + 10 * MINUTE;
    const end = clock + 20 * MINUTE;
    scheduledLink(owner, "Scheduled Launch Link", { start, end });
    await publish(owner);
    expect(pageOf(owner)).not.toContain("Scheduled Launch Link");
    expect(boundaryJobs().map((j) => j.runAfter.getTime())).toEqual([start, end]);

    clock = start - 1;
    expect(await tick()).toMatchObject({ done: 0 });
    expect(pageOf(owner)).not.toContain("Scheduled Launch Link");
    clock = start;
    expect(await tick()).toMatchObject({ done: 1 });
    expect(pageOf(owner)).toContain("Scheduled Launch Link");
    clock = end;
    await tick();
    expect(pageOf(owner)).not.toContain("Scheduled Launch Link");
    expect(boundaryJobs()).toEqual([]);
  });

  it("run at start a boundary that passed while the server was down, once", async () => {
    const owner = createApiOwner(t, "plus");
    scheduledLink(owner, "Scheduled Launch Link", { start: clock + 10 * MINUTE });
    await publish(owner);
    // No worker runs while the boundary passes; the server starts an hour later.
    clock += 60 * MINUTE;
    await requeuePageBoundaries(t.deps.db, later.now);
    expect(await tick()).toMatchObject({ done: 1 });
    expect(pageOf(owner)).toContain("Scheduled Launch Link");
    // A second start has nothing to do.
    await requeuePageBoundaries(t.deps.db, later.now);
    expect(await tick()).toMatchObject({ done: 0 });
  });

  it("a new publish replaces the boundaries queued by the one before", async () => {
    const owner = createApiOwner(t, "plus");
    scheduledLink(owner, "Scheduled Launch Link", { start: clock + 10 * MINUTE });
    await publish(owner);
    t.deps.db.update(links).set({ scheduleStartTime: new Date(clock + 30 * MINUTE) }).where(eq(links.userId, owner.userId)).run();
    await publish(owner);
    expect(boundaryJobs().map((j) => j.runAfter.getTime())).toEqual([clock + 30 * MINUTE]);
    // Publishing again unchanged queues nothing twice.
    await publish(owner);
    expect(boundaryJobs()).toHaveLength(1);
  });

  it("the start-up pass queues the pages published before the queue, and skips an unreadable snapshot", async () => {
    const broken = createApiOwner(t, "plus");
    scheduledLink(broken, "Scheduled Launch Link", { start: clock + 10 * MINUTE });
    await publish(broken);
    const healthy = createApiOwner(t, "plus");
    scheduledLink(healthy, "Scheduled Launch Link", { start: clock + 10 * MINUTE });
    await publish(healthy);
    t.deps.db.delete(jobs).run();
    t.deps.db.$client.prepare("UPDATE page_versions SET snapshot = ? WHERE user_id = ?").run("{not json", broken.userId);
    const warn = console.warn;
    const warned: unknown[] = [];
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      expect(await requeuePageBoundaries(t.deps.db, later.now)).toBe(1);
    } finally {
      console.warn = warn;
    }
    expect(warned).toHaveLength(1);
    expect(new Set(boundaryJobs().map((j) => (j.payload as { userId: string }).userId))).toEqual(new Set([healthy.userId]));
    clock += 10 * MINUTE;
    await tick();
    expect(pageOf(healthy)).toContain("Scheduled Launch Link");
  });

  it("at the trial's end the page shows what Lite shows and the owner is told, once", async () => {
    const owner = createApiOwner(t, "trial");
    const trialEnd = clock + 15 * MINUTE;
    t.deps.db.update(userProfiles).set({ trialEndsAt: new Date(trialEnd), removeBranding: true }).where(eq(userProfiles.userId, owner.userId)).run();
    // A link boundary before the trial's end re-renders the page but tells nobody.
    scheduledLink(owner, "Scheduled Launch Link", { start: clock + 5 * MINUTE });
    await publish(owner);
    expect(pageOf(owner)).not.toContain("Powered by Plinth");
    clock += 5 * MINUTE;
    await tick();
    expect(pageOf(owner)).toContain("Scheduled Launch Link");
    expect(trialMails(owner)).toEqual([]);

    clock = trialEnd;
    await tick();
    expect(pageOf(owner)).toContain("Powered by Plinth");
    expect(trialMails(owner)).toHaveLength(1);
    // A restart queues nothing for the past, and the mail is never sent again.
    clock += MINUTE;
    await requeuePageBoundaries(t.deps.db, later.now);
    await tick();
    expect(trialMails(owner)).toHaveLength(1);
  });

  it("the page published at signup is re-rendered at the end of the new owner's trial", async () => {
    const owner = createApiOwner(t, "trial");
    publishInitialPage(t.deps.db, owner.userId, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: t.deps.env.PUBLIC_ORIGIN, now: new Date() });
    const trialEnd = t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!.trialEndsAt!;
    expect(boundaryJobs().map((j) => j.runAfter.getTime())).toEqual([trialEnd.getTime()]);
    clock = trialEnd.getTime();
    await tick();
    expect(trialMails(owner)).toHaveLength(1);
  });

  it("at a cancelled subscription's period end the page shows what Lite shows", async () => {
    const owner = createApiOwner(t, "plus");
    const periodEnd = clock + 10 * MINUTE;
    t.deps.db
      .update(userProfiles)
      .set({ subscriptionStatus: "canceled_plus", currentPeriodEndDate: new Date(periodEnd), removeBranding: true })
      .where(eq(userProfiles.userId, owner.userId))
      .run();
    await publish(owner);
    expect(pageOf(owner)).not.toContain("Powered by Plinth");
    clock = periodEnd;
    await tick();
    expect(pageOf(owner)).toContain("Powered by Plinth");
    expect(trialMails(owner)).toEqual([]);
  });
});
