/**
 * The trial-end e-mail rides the job queue: sent once per trial, retried when sending fails, never
 * sent twice, and not sent to an owner who already pays. The clock is the deps' injected `now`.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppDeps } from "#api/context.ts";
import { jobsFor } from "#api/jobs/runner.ts";
import { queueTrialEndedMail } from "#api/services/trial-end.ts";
import { jobs, userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { mailsTo } from "../support/mail.ts";
import { createApiOwner } from "../support/owner.ts";

let t: TestApp;
let clock: number;
let smtpDown: boolean;
let deps: AppDeps;
let logged: string[];

beforeEach(() => {
  t = createTestApp();
  clock = Date.now();
  smtpDown = false;
  logged = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  const real = t.deps.mailer;
  deps = {
    ...t.deps,
    now: () => new Date(clock),
    mailer: {
      send: async (m) => {
        if (smtpDown) throw new Error("connect ECONNREFUSED 127.0.0.1:25");
        await real.send(m);
      },
    },
  };
});
afterEach(() => t.close());

function trialOwner() {
  const owner = createApiOwner(t, "trial");
  t.deps.db.update(userProfiles).set({ trialEndsAt: new Date(clock - 1000) }).where(eq(userProfiles.userId, owner.userId)).run();
  return { userId: owner.userId, username: owner.username, email: `${owner.username}@example.com` };
}

/** What a page-boundary job at the owner's trial end does after the re-render: the mail queued, then the worker's tick. */
async function noticeTrialEnded(d: AppDeps, owner: { userId: string }) {
  const trialEnd = t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!.trialEndsAt!.getTime();
  queueTrialEndedMail(d, owner.userId, trialEnd);
  await jobsFor(d).tick();
}

const trialMails = (to: string) => mailsTo(t.deps.env.OUTBOX_DIR, to).filter((m) => m.subject === "Your Plinth Plus trial has ended");

describe("the trial-end e-mail", () => {
  it("is sent once, however often the trial's end is noticed", async () => {
    const owner = trialOwner();
    await noticeTrialEnded(deps, owner);
    await noticeTrialEnded(deps, owner);
    clock += 86_400_000;
    await noticeTrialEnded(deps, owner);
    await jobsFor(deps).tick();
    const mails = trialMails(owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`/${owner.username} now shows Plinth Lite features`);
  });

  it("is retried after a failed send, and still sent only once", async () => {
    const owner = trialOwner();
    smtpDown = true;
    await noticeTrialEnded(deps, owner);
    expect(trialMails(owner.email)).toEqual([]);
    expect(logged.some((l) => l.includes("ECONNREFUSED"))).toBe(true);
    expect(t.deps.db.select().from(jobs).get()).toMatchObject({ state: "pending", attempts: 1 });
    // The SMTP server is back; the worker retries once the backoff has passed on the clock.
    smtpDown = false;
    expect(await jobsFor(deps).tick()).toMatchObject({ done: 0 });
    clock += 5000;
    expect(await jobsFor(deps).tick()).toMatchObject({ done: 1 });
    await noticeTrialEnded(deps, owner);
    clock += 3_600_000;
    await jobsFor(deps).tick();
    expect(trialMails(owner.email)).toHaveLength(1);
  });

  it("is not sent to an owner who subscribed during the trial", async () => {
    const owner = trialOwner();
    t.deps.db
      .update(userProfiles)
      .set({ planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(clock + 30 * 86_400_000) })
      .where(eq(userProfiles.userId, owner.userId))
      .run();
    await noticeTrialEnded(deps, owner);
    await jobsFor(deps).tick();
    expect(trialMails(owner.email)).toEqual([]);
    expect(t.deps.db.select().from(jobs).all()).toEqual([]);
  });

  it("is sent again for a later trial (a new trial end is a new notice)", async () => {
    const owner = trialOwner();
    await noticeTrialEnded(deps, owner);
    t.deps.db.update(userProfiles).set({ trialEndsAt: new Date(clock + 1000) }).where(eq(userProfiles.userId, owner.userId)).run();
    clock += 2000;
    await noticeTrialEnded(deps, owner);
    expect(trialMails(owner.email)).toHaveLength(2);
  });
});
