/**
 * /metrics (ADR 191): Prometheus' text format to the bearer token METRICS_TOKEN, 401 to a missing or
 * wrong one, 404 with no token set; or, with METRICS_PORT, on a second listener bound to 127.0.0.1
 * only. The figures: requests by route pattern and status, the job queue read from SQLite at the
 * scrape (by the injected clock), publishes, mail, beacons and the process's own metrics.
 */
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHttpServer } from "#api/http-server.ts";
import { enqueueJob } from "#api/jobs/queue.ts";
import { runJobs } from "#api/jobs/runner.ts";
import { countingMailer } from "#api/metrics.ts";
import { backupRuns } from "#db/schema.ts";
import { createTestApp, sameOrigin, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";
import { freePort } from "#tests/support/nginx.ts";
import { startServerProcess } from "#tests/support/server-process.ts";

const TOKEN = "scrape-token-0123456789abcdef01234567";

let t: TestApp | undefined;
let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
  t?.close();
  t = undefined;
});

/** The real HTTP server over a test app, on a free port of 127.0.0.1. */
async function listening(app: TestApp): Promise<string> {
  server = createHttpServer(app.deps);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One sample's value from a scrape, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("/metrics on the server's port", () => {
  it("is 404, as an unknown path, when no METRICS_TOKEN is set", async () => {
    t = createTestApp();
    const res = await t.app.request("/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("plinth_");
  });

  it("refuses a missing, wrong, longer, shorter or non-bearer credential with 401", async () => {
    t = createTestApp({ METRICS_TOKEN: TOKEN });
    for (const authorization of [undefined, "Bearer wrong-token-wrong-token-wrong-token", `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}`, TOKEN, "Bearer "]) {
      const res = await t.app.request("/metrics", { headers: authorization ? { Authorization: authorization } : {} });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await res.text()).not.toContain("plinth_");
    }
  });

  it("answers the token with requests by route pattern and status, the job queue, publishes, mail, beacons and the process", async () => {
    t = createTestApp({ METRICS_TOKEN: TOKEN });
    const base = await listening(t);
    const owner = createApiOwner(t, "trial");
    // A request through the real server, by its pattern, never its path.
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const edit = await fetch(`${base}/api/links/not-a-link-of-yours`, { method: "PATCH", headers: sameOrigin({ Cookie: owner.cookie }), body: "{}" });
    expect(edit.status).toBeGreaterThanOrEqual(400);
    // A publish through the target, and a mail.
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    expect((await t.app.request("/api/auth/forgot-password", { method: "POST", headers: sameOrigin(), body: JSON.stringify({ email: `${owner.username}@example.com` }) })).status).toBe(200);
    // The reset mail goes after the answer.
    await vi.waitFor(() => expect(t!.outbox()).toHaveLength(1));
    // A beacon the listener refuses as malformed.
    expect((await fetch(`${base}/api/visitor/track`, { method: "POST", headers: { "Content-Type": "text/plain", Origin: TEST_ORIGIN }, body: "{not json" })).status).toBe(400);
    // The queue, at a clock the test sets: two mails due for 120 s and 30 s, one due tomorrow.
    const now = new Date("2026-11-28T12:00:00Z");
    t.deps.db.$client.exec("DELETE FROM jobs");
    enqueueJob(t.deps.db, { kind: "mail", payload: { to: "a@example.com", subject: "s", text: "t" } }, new Date(now.getTime() - 120_000));
    enqueueJob(t.deps.db, { kind: "mail", payload: { to: "b@example.com", subject: "s", text: "t" } }, new Date(now.getTime() - 30_000));
    enqueueJob(t.deps.db, { kind: "rerender", payload: { userId: owner.userId } }, now, new Date(now.getTime() + 86_400_000));
    // The newest verified scheduled backup, stored an hour before that clock.
    const hourAgo = new Date(now.getTime() - 3_600_000);
    t.deps.db.insert(backupRuns).values({ at: hourAgo, state: "verified", leaseUntil: hourAgo, name: "plinth-x.tar.gz", startedAt: hourAgo, finishedAt: hourAgo }).run();
    t.deps.now = () => now;

    const res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(sample(text, 'plinth_http_requests_total{method="GET",route="/api/health",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, `plinth_http_requests_total{method="PATCH",route="/api/links/:id",status="${edit.status}"}`)).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain("not-a-link-of-yours");
    expect(sample(text, 'plinth_http_request_duration_seconds_count{method="GET",route="/api/health",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'plinth_jobs_pending{kind="mail"}')).toBe(2);
    expect(sample(text, 'plinth_jobs_due{kind="mail"}')).toBe(2);
    expect(sample(text, 'plinth_jobs_oldest_due_age_seconds{kind="mail"}')).toBe(120);
    expect(sample(text, 'plinth_jobs_pending{kind="rerender"}')).toBe(1);
    expect(sample(text, 'plinth_jobs_due{kind="rerender"}')).toBe(0);
    expect(sample(text, 'plinth_jobs_oldest_due_age_seconds{kind="rerender"}')).toBe(0);
    expect(sample(text, "plinth_backup_last_verified_age_seconds")).toBe(3600);
    expect(sample(text, 'plinth_publish_duration_seconds_count{target="folder",outcome="ok"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, "plinth_mail_sent_total")).toBeGreaterThanOrEqual(1);
    expect(sample(text, "plinth_mail_failed_total")).toBe(0);
    expect(sample(text, 'plinth_beacons_refused_total{reason="invalid"}')).toBeGreaterThanOrEqual(1);
    for (const name of ["plinth_beacons_queued_total", "plinth_beacons_written_total", "plinth_bucket_errors_total", "plinth_cdn_purge_errors_total"]) expect(sample(text, name), name).toBeGreaterThanOrEqual(0);
    // The process's own metrics (prom-client's defaults).
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(text).toContain("nodejs_heap_size_used_bytes");
  });

  it("counts a worker run and a failed mail", async () => {
    t = createTestApp({ METRICS_TOKEN: TOKEN });
    const scrape = async () => (await t!.app.request("/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    const failedBefore = sample(await scrape(), "plinth_mail_failed_total") ?? 0;
    const attemptsBefore = sample(await scrape(), 'plinth_job_attempts_failed_total{kind="mail"}') ?? 0;
    // A mailer whose transport refuses: the queued mail fails its attempt and is counted.
    t.deps.mailer = countingMailer({
      send: async () => {
        throw new Error("SMTP server unavailable");
      },
    });
    enqueueJob(t.deps.db, { kind: "mail", payload: { to: "a@example.com", subject: "s", text: "t" } }, new Date());
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      await runJobs(t.deps);
    } finally {
      console.error = original;
    }
    expect(errors.map(String).join("\n")).toContain("Job failed");
    const text = await scrape();
    expect(sample(text, 'plinth_job_attempts_failed_total{kind="mail"}')).toBe(attemptsBefore + 1);
    expect(sample(text, "plinth_job_worker_last_run_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "plinth_mail_failed_total")).toBe(failedBefore + 1);
  });
});

describe("/metrics on METRICS_PORT", () => {
  it("answers without a token on 127.0.0.1 only, while the server's port answers 404", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plinth-metrics-"));
    mkdirSync(join(dir, "site"));
    const [port, metricsPort] = [await freePort(), await freePort()];
    const proc = await startServerProcess({
      NODE_ENV: "test",
      HOST: "0.0.0.0",
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATA_DIR: join(dir, "data"),
      PUBLISHED_DIR: join(dir, "published"),
      SITE_DIR: join(dir, "site"),
      LOG_REQUESTS: "0",
    });
    try {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("plinth_jobs_pending");
      expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: "POST" })).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/api/health`)).status).toBe(404);
      // Another address of this machine reaches the server's port but not the metrics one.
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
      if (outside) {
        expect((await fetch(`http://${outside}:${port}/api/health`)).status).toBe(200);
        await expect(fetch(`http://${outside}:${metricsPort}/metrics`)).rejects.toThrow();
      }
    } finally {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
