/**
 * The server's Prometheus metrics (ADR 191), through prom-client: counted where the work happens,
 * and the job queue read from SQLite when they are scraped. Served at /metrics to a bearer token
 * (METRICS_TOKEN) or on METRICS_PORT bound to 127.0.0.1; docs/operations.md lists them.
 */
import { timingSafeEqual, createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { and, count, eq, lte, max, min } from "drizzle-orm";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Db } from "#db/client.ts";
import { backupRuns, JOB_KINDS, jobs } from "#db/schema.ts";
import type { PublishTarget, TargetWriter } from "#renderer/publish-target.ts";
import { log } from "./log.ts";
import type { Mailer } from "./mail/mailer.ts";

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: "plinth_http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: "plinth_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const beaconsQueued = new Counter({ name: "plinth_beacons_queued_total", help: "Analytics beacons accepted and queued for writing.", registers: [registry] });
export const beaconsWritten = new Counter({ name: "plinth_beacons_written_total", help: "Analytics beacons written to the database.", registers: [registry] });
export const beaconsRefused = new Counter({
  name: "plinth_beacons_refused_total",
  help: "Analytics beacons refused: full (the write queue is full, 503), limited (429), invalid (4xx).",
  labelNames: ["reason"] as const,
  registers: [registry],
});

export const publishDuration = new Histogram({
  name: "plinth_publish_duration_seconds",
  help: "One step of the publish pipeline (a publish, a re-render, a suspension), from render to the target holding the files.",
  labelNames: ["target", "outcome"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const bucketErrors = new Counter({ name: "plinth_bucket_errors_total", help: "Writes the bucket (PUBLISH_TARGET=s3) refused or did not answer.", registers: [registry] });
export const cdnErrors = new Counter({ name: "plinth_cdn_purge_errors_total", help: "CDN purges (CDN_PURGE_URL) that failed; each is retried by the job queue.", registers: [registry] });
export const mailSent = new Counter({ name: "plinth_mail_sent_total", help: "E-mails handed to SMTP or written to the outbox.", registers: [registry] });
export const mailFailed = new Counter({ name: "plinth_mail_failed_total", help: "E-mails that could not be sent (a queued one is retried).", registers: [registry] });
export const jobsFailed = new Counter({
  name: "plinth_job_attempts_failed_total",
  help: "Job attempts that threw, by kind (the job is retried until its last attempt).",
  labelNames: ["kind"] as const,
  registers: [registry],
});

const jobsPending = new Gauge({ name: "plinth_jobs_pending", help: "Jobs waiting in the queue, due or not, by kind.", labelNames: ["kind"] as const, registers: [registry] });
const jobsDue = new Gauge({ name: "plinth_jobs_due", help: "Pending jobs whose time has come, by kind.", labelNames: ["kind"] as const, registers: [registry] });
const jobsOldestDue = new Gauge({
  name: "plinth_jobs_oldest_due_age_seconds",
  help: "How long the oldest due job has waited past its time, by kind (0 when none is due).",
  labelNames: ["kind"] as const,
  registers: [registry],
});
const jobsFailedRows = new Gauge({ name: "plinth_jobs_failed", help: "Jobs that used all their attempts and stopped, by kind.", labelNames: ["kind"] as const, registers: [registry] });
const backupAge = new Gauge({
  name: "plinth_backup_last_verified_age_seconds",
  help: "Seconds since the newest scheduled backup was stored and verified (absent until one is).",
  registers: [registry],
});
const workerLastRun = new Gauge({ name: "plinth_job_worker_last_run_age_seconds", help: "Seconds since this process's job worker last ran.", registers: [registry] });

/** The job queue and the newest verified backup as they are now, read from SQLite at each scrape. */
export function collectQueue(db: Db, now: Date, lastWorkerRun: Date | null): void {
  const at = now.getTime();
  const pending = db.select({ kind: jobs.kind, n: count() }).from(jobs).where(eq(jobs.state, "pending")).groupBy(jobs.kind).all();
  const due = db
    .select({ kind: jobs.kind, n: count(), oldest: min(jobs.runAfter) })
    .from(jobs)
    .where(and(eq(jobs.state, "pending"), lte(jobs.runAfter, now)))
    .groupBy(jobs.kind)
    .all();
  const failed = db.select({ kind: jobs.kind, n: count() }).from(jobs).where(eq(jobs.state, "failed")).groupBy(jobs.kind).all();
  for (const kind of JOB_KINDS) {
    const d = due.find((r) => r.kind === kind);
    jobsPending.set({ kind }, pending.find((r) => r.kind === kind)?.n ?? 0);
    jobsDue.set({ kind }, d?.n ?? 0);
    jobsOldestDue.set({ kind }, d?.oldest ? Math.max(0, (at - d.oldest.getTime()) / 1000) : 0);
    jobsFailedRows.set({ kind }, failed.find((r) => r.kind === kind)?.n ?? 0);
  }
  const verified = db.select({ at: max(backupRuns.finishedAt) }).from(backupRuns).where(eq(backupRuns.state, "verified")).get()?.at;
  if (verified) backupAge.set(Math.max(0, (at - verified.getTime()) / 1000));
  else backupAge.reset();
  if (lastWorkerRun) workerLastRun.set(Math.max(0, (at - lastWorkerRun.getTime()) / 1000));
}

/** Every metric in Prometheus' text format. */
export async function metricsText(): Promise<{ body: string; contentType: string }> {
  return { body: await registry.metrics(), contentType: registry.contentType };
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether an Authorization header carries the bearer token, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "");
  // Digests of equal length, so neither the length nor the content leaks through the time taken.
  return timingSafeEqual(digest(m?.[1] ?? ""), digest(token)) && m !== null;
}

/**
 * `mailer`, counting what it sends and what fails, with a line for each under the request's or job's
 * id. The line names the recipient's domain only, never the subject (it may hold a sign-in code).
 */
export function countingMailer(mailer: Mailer): Mailer {
  return {
    async send(message) {
      const toDomain = message.to.split("@").pop();
      try {
        await mailer.send(message);
        mailSent.inc();
        log().info({ toDomain }, "mail sent");
      } catch (err) {
        mailFailed.inc();
        log().warn({ toDomain, err }, "mail failed");
        throw err;
      }
    },
  };
}

/** `target`, timing each step's writer from its start to its finished writes, and counting a bucket's refusals. */
export function observedTarget(target: PublishTarget): PublishTarget {
  const kind = target.kind === "bucket" ? "s3" : "folder";
  const observed: PublishTarget = {
    kind: target.kind,
    writer(): TargetWriter {
      const inner = target.writer();
      const started = performance.now();
      // Each of the writer's steps goes to the target's own writer; finish is timed.
      const writer: TargetWriter = {
        hasPage: (username) => inner.hasPage(username),
        writePage: (username, writes) => inner.writePage(username, writes),
        writeUnavailablePage: (username, html, now) => inner.writeUnavailablePage(username, html, now),
        removePage: (username) => inner.removePage(username),
        removeAllOf: (username) => inner.removeAllOf(username),
        putFiles: (paths) => inner.putFiles(paths),
        removeFiles: (paths) => inner.removeFiles(paths),
        async finish() {
          let outcome = "ok";
          try {
            await inner.finish();
          } catch (err) {
            outcome = "failed";
            if (target.kind === "bucket") bucketErrors.inc();
            throw err;
          } finally {
            const seconds = (performance.now() - started) / 1000;
            publishDuration.observe({ target: kind, outcome }, seconds);
            log().debug({ target: kind, outcome, durationMs: Math.round(seconds * 1000) }, "publish step");
          }
        },
      };
      return writer;
    },
  };
  if (target.pagesWritten) observed.pagesWritten = (usernames) => target.pagesWritten!(usernames);
  return observed;
}
