/**
 * /api/ready (ADR 192) tells a load balancer whether this process should get traffic: the database
 * answers, the job worker ran within three of its intervals (by the injected clock), and with
 * PUBLISH_TARGET=s3 the bucket answers a HEAD. 503 names what failed; /api/health stays 200, the
 * cheap liveness check.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runJobs } from "#api/jobs/runner.ts";
import { WORKER_STALE_INTERVALS } from "#api/routes/ready.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { startTestBucket } from "#tests/support/s3.ts";

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

const ready = async (app: TestApp) => {
  const res = await app.app.request("/api/ready");
  return { status: res.status, body: (await res.json()) as { ready: boolean; checks: Record<string, string>; failed?: string[] } };
};

describe("/api/ready", () => {
  it("is ready once the worker has run, with each check's state", async () => {
    t = createTestApp();
    expect(await ready(t)).toEqual({ status: 503, body: { ready: false, checks: { database: "ok", jobs: "the job worker has not run yet" }, failed: ["jobs"] } });
    await runJobs(t.deps);
    expect(await ready(t)).toEqual({ status: 200, body: { ready: true, checks: { database: "ok", jobs: "ok" } } });
  });

  it("fails when the worker has not run for three of its intervals, by the injected clock", async () => {
    t = createTestApp({ BILLING_SWEEP_MS: "60000" });
    await runJobs(t.deps);
    const ran = t.deps.now().getTime();
    const limit = WORKER_STALE_INTERVALS * 60_000;
    t.deps.now = () => new Date(ran + limit - 1000);
    expect((await ready(t)).status).toBe(200);
    t.deps.now = () => new Date(ran + limit + 61_000);
    const late = await ready(t);
    expect(late.status).toBe(503);
    expect(late.body.failed).toEqual(["jobs"]);
    expect(late.body.checks.jobs).toMatch(/^the job worker last ran 2\d\d s ago \(more than 180 s\)$/);
    // /api/health does not look at the worker.
    expect((await t.app.request("/api/health")).status).toBe(200);
  });

  it("fails naming the database when it does not answer", async () => {
    t = createTestApp();
    await runJobs(t.deps);
    t.deps.db.$client.close();
    const down = await ready(t);
    expect(down.status).toBe(503);
    expect(down.body.failed).toEqual(["database"]);
    expect(down.body.checks.database).toMatch(/^the database did not answer/);
  });

  it("checks the bucket with PUBLISH_TARGET=s3, and answers 503 naming it when it is down while /api/health stays 200", async () => {
    const bucket = await startTestBucket("ready-pages");
    let stopped = false;
    try {
      t = createTestApp(bucket.env("pages/"));
      await runJobs(t.deps);
      expect(await ready(t)).toEqual({ status: 200, body: { ready: true, checks: { database: "ok", jobs: "ok", bucket: "ok" } } });
      await bucket.stop();
      stopped = true;
      const down = await ready(t);
      expect(down.status).toBe(503);
      expect(down.body.failed).toEqual(["bucket"]);
      expect(down.body.checks.bucket).toMatch(/^the bucket ready-pages did not answer/);
      expect(down.body.checks.database).toBe("ok");
      expect((await t.app.request("/api/health")).status).toBe(200);
    } finally {
      if (!stopped) await bucket.stop();
    }
  });

  it("fails naming the bucket when it exists no more", async () => {
    const bucket = await startTestBucket("ready-pages");
    try {
      t = createTestApp({ ...bucket.env(), S3_BUCKET: "no-such-bucket" });
      await runJobs(t.deps);
      const res = await ready(t);
      expect(res.status).toBe(503);
      expect(res.body.checks.bucket).toBe("the bucket no-such-bucket did not answer (HTTP 404)");
    } finally {
      await bucket.stop();
    }
  });
});
