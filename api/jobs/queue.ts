/**
 * The one job queue (ADR 100): a row in `jobs` is written in the same transaction as the change it
 * follows, and a worker runs it after the commit. A failed job waits longer before each retry
 * (doubling from `backoffMs` up to `maxBackoffMs`) and is marked failed after `maxAttempts`. A job
 * with a once key is kept when done, so enqueueing the same key again does nothing: once-only work
 * (an e-mail that must never go twice) carries one.
 *
 * Any number of processes may run a worker on one database (ADR 180): a worker claims a job before
 * running it (`claimed_by`, and a lease in `lease_until`, set in one UPDATE that only a free job
 * matches), so each job runs in one process; a job whose process died is free again once its lease
 * has passed, and runs again. Its side effect therefore happens once, unless a process dies between
 * doing it and recording it: then it happens again, as after a crash with one process.
 *
 * The worker reads the time only through its injected `now`; `tick()` runs what is due and is what
 * tests call. `start()` adds a real interval for the server.
 */
import { hostname } from "node:os";
import { and, asc, eq, inArray, isNull, lte, notInArray, or, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { jobs, type JOB_KINDS } from "#db/schema.ts";

export type JobKind = (typeof JOB_KINDS)[number];

export interface NewJob {
  kind: JobKind;
  payload: unknown;
  /** Work that must happen once: a second job with the same key is not enqueued. */
  onceKey?: string;
}

/** Adds a job, due at `at` (or `runAfter`); false when a job with its once key already exists. */
export function enqueueJob(tx: Db, job: NewJob, at: Date, runAfter: Date = at): boolean {
  const inserted = tx
    .insert(jobs)
    .values({ id: newId(), kind: job.kind, payload: job.payload, onceKey: job.onceKey ?? null, runAfter, createdAt: at })
    .onConflictDoNothing()
    .run();
  return inserted.changes === 1;
}

type Job = typeof jobs.$inferSelect;

export type JobHandlers = Record<JobKind, (payload: unknown) => unknown>;

export interface JobWorkerOptions {
  db: Db;
  now: () => Date;
  handlers: JobHandlers;
  backoffMs?: number;
  maxBackoffMs?: number;
  maxAttempts?: number;
  /** How long a claim holds unless renewed (default JOB_LEASE_MS). */
  leaseMs?: number;
  /** Names the worker in `claimed_by` (default: host, process id and a random part). */
  workerId?: string;
  /** Told of each run and each job (the server's logs and metrics, api/jobs/runner.ts); plain console lines without one. */
  observer?: JobObserver;
}

/** What the worker tells its observer; the queue itself knows nothing of logs or metrics. */
export interface JobObserver {
  /** Calls one job's handler: the server calls it inside the job's log context. */
  run<T>(job: { id: string; kind: JobKind; attempts: number }, handler: () => T): T;
  /** A job's attempt threw (`job` given), or a run of the due jobs did (no `job`). */
  failed(err: unknown, job?: { id: string; kind: JobKind }, attempts?: number): void;
  /** A run of the due jobs starts or ends now. */
  ran(at: Date): void;
}

const consoleObserver: JobObserver = {
  run: (_job, handler) => handler(),
  failed: (err, job, attempts) => (job ? console.error("Job failed", job.kind, job.id, `attempt ${attempts}`, err) : console.error("Jobs failed", err)),
  ran: () => undefined,
};

export interface TickResult {
  done: number;
  retried: number;
  failed: number;
}

export interface JobWorker {
  /** Runs every job due now, one at a time, oldest first. Calls made while one runs queue behind it. */
  tick(): Promise<TickResult>;
  /**
   * Runs `tick()` by itself (the server): when the next pending job is due, and at least every
   * `everyMs` of real time for jobs queued meanwhile by a caller that did not tick. `stop()` ends
   * that and waits for a run.
   */
  start(everyMs: number): void;
  stop(): Promise<void>;
}

export const JOB_BACKOFF_MS = 5000;
export const JOB_BACKOFF_MAX_MS = 60 * 60 * 1000;
export const JOB_MAX_ATTEMPTS = 12;
/**
 * A claim's length (ADR 180). The worker renews it every quarter of it while the job runs, so it
 * bounds only how long a job whose process died waits before another process runs it again.
 */
export const JOB_LEASE_MS = 2 * 60_000;

export function createJobWorker(opts: JobWorkerOptions): JobWorker {
  const { db, now, handlers } = opts;
  const backoff = opts.backoffMs ?? JOB_BACKOFF_MS;
  const maxBackoff = opts.maxBackoffMs ?? JOB_BACKOFF_MAX_MS;
  const maxAttempts = opts.maxAttempts ?? JOB_MAX_ATTEMPTS;
  const leaseMs = opts.leaseMs ?? JOB_LEASE_MS;
  const workerId = opts.workerId ?? `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  const observer = opts.observer ?? consoleObserver;
  let last: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let sleepMs: number | undefined;

  const runDue = async (): Promise<TickResult> => {
    const result: TickResult = { done: 0, retried: 0, failed: 0 };
    observer.ran(now());
    // Work a job enqueues that is due at once (a mail after a re-render, an event delivery after a
    // renewal) runs in the same tick; a job that failed runs again in a later tick, never this one.
    const retried: string[] = [];
    for (;;) {
      const job = claimNext(retried);
      if (!job) {
        observer.ran(now());
        return result;
      }
      await runOne(job, result, retried);
    }
  };

  /**
   * Takes the oldest due job no live worker holds, in one statement (so two processes never take the
   * same one): pending, due, and never claimed or its lease past (its process died or hung).
   */
  const claimNext = (skip: string[]): Job | undefined => {
    const at = now();
    const free = or(isNull(jobs.leaseUntil), lte(jobs.leaseUntil, at));
    const next = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.state, "pending"), lte(jobs.runAfter, at), free, skip.length ? notInArray(jobs.id, skip) : undefined))
      .orderBy(asc(jobs.runAfter), asc(jobs.createdAt), asc(sql`rowid`))
      .limit(1);
    return db
      .update(jobs)
      .set({ claimedBy: workerId, leaseUntil: new Date(at.getTime() + leaseMs) })
      .where(and(inArray(jobs.id, next), eq(jobs.state, "pending"), free))
      .returning()
      .get();
  };

  /** Changes only a job this worker still holds: one whose lease was taken over is the new holder's. */
  const mine = (job: Job) => and(eq(jobs.id, job.id), eq(jobs.claimedBy, workerId));

  const runOne = async (job: Job, result: TickResult, retried: string[]): Promise<void> => {
    // A long job (a backup, a slow SMTP server) keeps its lease while it runs, until the database
    // closes under it (a shutdown that did not wait for a hung job): then there is nothing to renew.
    const renew = setInterval(() => {
      if (!db.$client.open) return clearInterval(renew);
      db.update(jobs).set({ leaseUntil: new Date(now().getTime() + leaseMs) }).where(mine(job)).run();
    }, Math.max(1000, Math.floor(leaseMs / 4)));
    renew.unref?.();
    try {
      await observer.run(job, () => handlers[job.kind](job.payload));
      // Keyed work stays as the record that it happened; the rest leaves no trace.
      if (job.onceKey) db.update(jobs).set({ state: "done", attempts: job.attempts + 1, lastError: null, leaseUntil: null }).where(mine(job)).run();
      else db.delete(jobs).where(mine(job)).run();
      result.done++;
    } catch (err) {
      const attempts = job.attempts + 1;
      const lastError = String(err instanceof Error ? err.message : err).slice(0, 500);
      observer.failed(err, job, attempts);
      if (attempts >= maxAttempts) {
        db.update(jobs).set({ state: "failed", attempts, lastError, claimedBy: null, leaseUntil: null }).where(mine(job)).run();
        result.failed++;
        return;
      }
      const wait = Math.min(backoff * 2 ** job.attempts, maxBackoff);
      db.update(jobs)
        .set({ attempts, runAfter: new Date(now().getTime() + wait), lastError, claimedBy: null, leaseUntil: null })
        .where(mine(job))
        .run();
      retried.push(job.id);
      result.retried++;
    } finally {
      clearInterval(renew);
    }
  };

  /** When started: sleep until the next pending job is due, or `sleepMs` at most. */
  const arm = () => {
    if (sleepMs === undefined) return;
    if (timer) clearTimeout(timer);
    // A job another process holds is due again when its lease runs out, not before.
    const next = db
      .select({ at: sql<number | null>`min(max(${jobs.runAfter}, coalesce(${jobs.leaseUntil}, 0)))` })
      .from(jobs)
      .where(eq(jobs.state, "pending"))
      .get()?.at;
    // A few ms past the instant, so the instant itself counts as passed.
    const wait = next != null ? Math.min(Math.max(0, next - now().getTime()) + 5, sleepMs) : sleepMs;
    timer = setTimeout(() => void tick().catch(() => undefined), wait);
    timer.unref?.();
  };

  const tick = (): Promise<TickResult> => {
    const run = last.then(runDue).finally(arm);
    last = run.catch((err) => observer.failed(err));
    return run;
  };

  return {
    tick,
    start(everyMs) {
      if (sleepMs !== undefined) return;
      sleepMs = everyMs;
      arm();
    },
    async stop() {
      sleepMs = undefined;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await last;
    },
  };
}
