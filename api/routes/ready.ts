/**
 * GET /api/ready (ADR 192): whether this process should get traffic. It checks what /api/health
 * does not: the database answers a query, this process's job worker ran recently (within three of
 * its intervals, BILLING_SWEEP_MS, by the injected clock), and with PUBLISH_TARGET=s3 the bucket
 * answers. 200 with each check's state, or 503 naming the checks that failed.
 */
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { AppDeps } from "../context.ts";
import { s3Sdk } from "#renderer/bucket-target.ts";
import { bucketOf } from "../deps.ts";
import { lastJobRun } from "../jobs/runner.ts";
import { log } from "../log.ts";

/** How long the bucket has to answer before it counts as down. */
export const BUCKET_CHECK_TIMEOUT_MS = 3000;
/** The worker wakes at least every BILLING_SWEEP_MS; missing three wakes in a row is a stuck worker. */
export const WORKER_STALE_INTERVALS = 3;

type Check = { ok: true } | { ok: false; reason: string };

export function readyRoutes(deps: AppDeps) {
  const bucket = bucketOf(deps.env);

  const database = (): Check => {
    try {
      return deps.db.get<{ ok: number }>(sql`select 1 as ok`)?.ok === 1 ? { ok: true } : { ok: false, reason: "the database did not answer" };
    } catch (err) {
      return { ok: false, reason: `the database did not answer: ${err instanceof Error ? err.message : String(err)}` };
    }
  };

  const worker = (): Check => {
    const last = lastJobRun(deps);
    if (!last) return { ok: false, reason: "the job worker has not run yet" };
    const ageMs = deps.now().getTime() - last.getTime();
    const limitMs = WORKER_STALE_INTERVALS * deps.env.BILLING_SWEEP_MS;
    return ageMs <= limitMs ? { ok: true } : { ok: false, reason: `the job worker last ran ${Math.round(ageMs / 1000)} s ago (more than ${Math.round(limitMs / 1000)} s)` };
  };

  const bucketCheck = async (): Promise<Check> => {
    if (!bucket) return { ok: true };
    try {
      await bucket.client.send(new (s3Sdk().HeadBucketCommand)({ Bucket: bucket.bucket }), { abortSignal: AbortSignal.timeout(BUCKET_CHECK_TIMEOUT_MS) });
      return { ok: true };
    } catch (err) {
      const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      const why = status ? `HTTP ${status}` : e.name === "TimeoutError" || e.name === "AbortError" ? `no answer within ${BUCKET_CHECK_TIMEOUT_MS} ms` : (e.code ?? e.name);
      return { ok: false, reason: `the bucket ${bucket.bucket} did not answer${why ? ` (${why})` : ""}` };
    }
  };

  return (
    new Hono()
      // GET /api/ready - may this process take traffic: the database, the job worker, the bucket
      .get("/", async (c) => {
        const checks: Record<string, Check> = { database: database(), jobs: worker() };
        if (bucket) checks.bucket = await bucketCheck();
        const failed = Object.entries(checks).filter(([, check]) => !check.ok);
        const body = {
          ready: failed.length === 0,
          checks: Object.fromEntries(Object.entries(checks).map(([name, check]) => [name, check.ok ? "ok" : check.reason])),
          ...(failed.length ? { failed: failed.map(([name]) => name) } : {}),
        };
        if (failed.length) log().warn({ checks: body.checks }, "not ready");
        return c.json(body, failed.length ? 503 : 200);
      })
  );
}
