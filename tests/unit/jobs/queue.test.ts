/**
 * The job queue against a real database: due work runs once, failures are retried with a doubling
 * wait measured on the injected clock, work with a once key happens once, and nothing runs early.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createJobWorker, enqueueJob, type JobHandlers } from "#api/jobs/queue.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { JOB_KINDS, jobs } from "#db/schema.ts";

let dir: string;
let db: Db;
let clock: number;
const now = () => new Date(clock);
/** What the worker logged as failed: each failed attempt is logged, and the tests count them. */
let logged: string[];

beforeEach(() => {
  logged = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  clock = Date.parse("2030-01-01T00:00:00Z");
  dir = mkdtempSync(join(tmpdir(), "plinth-jobs-"));
  db = openDatabase({ path: join(dir, "db.sqlite") });
});
afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

/** Handlers that record each run; `failures` makes the first runs of a payload throw. */
function recording(failures = 0) {
  const runs: unknown[] = [];
  let left = failures;
  const run = (payload: unknown) => {
    runs.push(payload);
    if (left-- > 0) throw new Error("SMTP server unavailable");
  };
  return { runs, handlers: every(run) };
}

/** The same handler for every kind. */
const every = (run: (payload: unknown) => unknown) => Object.fromEntries(JOB_KINDS.map((kind) => [kind, run])) as JobHandlers;

describe("job queue", () => {
  it("runs a due job once and forgets it; a job due later waits for the clock", async () => {
    const { runs, handlers } = recording();
    const worker = createJobWorker({ db, now, handlers });
    enqueueJob(db, { kind: "mail", payload: { to: "a@example.com" } }, now());
    enqueueJob(db, { kind: "rerender", payload: { userId: "later" } }, now(), new Date(clock + 60_000));
    expect(await worker.tick()).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(runs).toEqual([{ to: "a@example.com" }]);
    expect(await worker.tick()).toEqual({ done: 0, retried: 0, failed: 0 });
    clock += 59_999;
    expect(await worker.tick()).toEqual({ done: 0, retried: 0, failed: 0 });
    clock += 1;
    expect(await worker.tick()).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(runs).toEqual([{ to: "a@example.com" }, { userId: "later" }]);
    expect(db.select().from(jobs).all()).toEqual([]);
  });

  it("retries a failed job after a wait that doubles, on the injected clock", async () => {
    const { runs, handlers } = recording(2);
    const worker = createJobWorker({ db, now, handlers, backoffMs: 1000 });
    enqueueJob(db, { kind: "mail", payload: "m" }, now());
    expect(await worker.tick()).toMatchObject({ retried: 1 });
    const row = db.select().from(jobs).get()!;
    expect(row).toMatchObject({ attempts: 1, state: "pending", lastError: "SMTP server unavailable" });
    expect(row.runAfter.getTime()).toBe(clock + 1000);
    // Not before its wait is over.
    clock += 999;
    expect(await worker.tick()).toEqual({ done: 0, retried: 0, failed: 0 });
    clock += 1;
    expect(await worker.tick()).toMatchObject({ retried: 1 });
    expect(db.select().from(jobs).get()!.runAfter.getTime()).toBe(clock + 2000);
    clock += 2000;
    expect(await worker.tick()).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(runs).toHaveLength(3);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^Job failed mail \S+ attempt 1 Error: SMTP server unavailable/);
    expect(db.select().from(jobs).all()).toEqual([]);
  });

  it("gives up after the last attempt and keeps the job as failed, never running it again", async () => {
    const { runs, handlers } = recording(100);
    const worker = createJobWorker({ db, now, handlers, backoffMs: 10, maxAttempts: 3 });
    enqueueJob(db, { kind: "mail", payload: "m" }, now());
    for (let i = 0; i < 6; i++) {
      await worker.tick();
      clock += 60_000;
    }
    expect(runs).toHaveLength(3);
    expect(logged).toHaveLength(3);
    expect(db.select().from(jobs).get()).toMatchObject({ state: "failed", attempts: 3, lastError: "SMTP server unavailable" });
  });

  it("enqueues work with a once key only once, before and after it ran, even when it first failed", async () => {
    const { runs, handlers } = recording(1);
    const worker = createJobWorker({ db, now, handlers, backoffMs: 1000 });
    const job = { kind: "mail" as const, payload: "trial ended", onceKey: "trial-end:u1" };
    expect(enqueueJob(db, job, now())).toBe(true);
    expect(enqueueJob(db, job, now())).toBe(false);
    await worker.tick();
    expect(enqueueJob(db, job, now())).toBe(false);
    clock += 1000;
    expect(await worker.tick()).toMatchObject({ done: 1 });
    expect(enqueueJob(db, job, now())).toBe(false);
    clock += 3_600_000;
    await worker.tick();
    expect(runs).toEqual(["trial ended", "trial ended"]);
    expect(db.select().from(jobs).where(eq(jobs.onceKey, "trial-end:u1")).get()).toMatchObject({ state: "done", attempts: 2 });
  });

  it("runs a job once when ticks overlap", async () => {
    const runs: unknown[] = [];
    const handlers: JobHandlers = every(async (p) => void runs.push(p));
    const worker = createJobWorker({ db, now, handlers });
    enqueueJob(db, { kind: "mail", payload: "once" }, now());
    await Promise.all([worker.tick(), worker.tick(), worker.tick()]);
    expect(runs).toEqual(["once"]);
  });

  it("runs in the same tick the work a job queued for now, in the order it was queued, and a failing job once per tick", async () => {
    const runs: unknown[] = [];
    const handlers: JobHandlers = every(async (p) => {
      runs.push(p);
      if (p === "renewal") {
        enqueueJob(db, { kind: "provider-events", payload: "event 1" }, now());
        enqueueJob(db, { kind: "provider-events", payload: "event 2" }, now());
        enqueueJob(db, { kind: "provider-due", payload: "next renewal" }, now(), new Date(clock + 60_000));
      }
      if (p === "event 2") throw new Error("webhook refused");
    });
    const worker = createJobWorker({ db, now, handlers });
    enqueueJob(db, { kind: "provider-due", payload: "renewal" }, now());
    expect(await worker.tick()).toMatchObject({ done: 2, retried: 1 });
    expect(runs).toEqual(["renewal", "event 1", "event 2"]);
    expect(logged).toHaveLength(1);
  });

  it("two workers on one database run a job once: the first claims it with a lease, the second leaves it alone while the lease holds", async () => {
    const runs: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const a = createJobWorker({ db, now, workerId: "a", leaseMs: 60_000, handlers: every(async (p) => {
        runs.push(`a:${p}`);
        await held;
      }) });
    const b = createJobWorker({ db, now, workerId: "b", leaseMs: 60_000, handlers: every((p) => void runs.push(`b:${p}`)) });
    enqueueJob(db, { kind: "mail", payload: "m1" }, now());
    const aTick = a.tick();
    await new Promise((r) => setImmediate(r));
    expect(db.select().from(jobs).get()).toMatchObject({ claimedBy: "a", leaseUntil: new Date(clock + 60_000) });
    clock += 59_999;
    expect(await b.tick()).toEqual({ done: 0, retried: 0, failed: 0 });
    release();
    expect(await aTick).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(await b.tick()).toEqual({ done: 0, retried: 0, failed: 0 });
    expect(runs).toEqual(["a:m1"]);
    expect(db.select().from(jobs).all()).toEqual([]);
  });

  it("a job whose worker died (its lease ran out) is taken over and runs again; the dead worker's late finish changes nothing", async () => {
    const runs: string[] = [];
    // Worker a takes the job and never finishes it: its process died mid-way.
    const dead = createJobWorker({ db, now, workerId: "dead", leaseMs: 60_000, handlers: every((p) => runs.push(`dead:${p}`) && new Promise<never>(() => undefined)) });
    const alive = createJobWorker({ db, now, workerId: "alive", leaseMs: 60_000, handlers: every((p) => void runs.push(`alive:${p}`)) });
    enqueueJob(db, { kind: "mail", payload: "m1", onceKey: "welcome:u1" }, now());
    void dead.tick();
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual(["dead:m1"]);
    clock += 59_999;
    expect(await alive.tick()).toEqual({ done: 0, retried: 0, failed: 0 });
    clock += 1;
    expect(await alive.tick()).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(runs).toEqual(["dead:m1", "alive:m1"]);
    expect(db.select().from(jobs).get()).toMatchObject({ state: "done", claimedBy: "alive", attempts: 1 });
    clock += 3_600_000;
    expect(await alive.tick()).toEqual({ done: 0, retried: 0, failed: 0 });
    expect(runs).toEqual(["dead:m1", "alive:m1"]);
  });

  it("a job still running when the database closes stops renewing its lease instead of throwing", async () => {
    // Only the renewal's interval is faked: the queue's own clock is the injected `now`.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const own = openDatabase({ path: join(dir, "closing.sqlite") });
      const hung = createJobWorker({ db: own, now, leaseMs: 60_000, handlers: every(() => new Promise<never>(() => undefined)) });
      enqueueJob(own, { kind: "mail", payload: "m1" }, now());
      void hung.tick();
      await new Promise((r) => setImmediate(r));
      vi.advanceTimersByTime(15_000);
      expect(own.select({ leaseUntil: jobs.leaseUntil }).from(jobs).get()?.leaseUntil).toEqual(new Date(clock + 60_000));
      closeDatabase(own);
      expect(vi.getTimerCount()).toBe(1);
      expect(() => vi.advanceTimersByTime(15_000)).not.toThrow();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
