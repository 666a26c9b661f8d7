/**
 * The CDN purge hook (ADR 133), against a real HTTP server that records what it is sent: every change
 * of a public page queues a `cdn-purge` job that POSTs to CDN_PURGE_URL once the page's files are in
 * place, a failure is retried on the queue's backoff (the test owns the worker's clock and ticks it),
 * and the publish never waits for the CDN.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { runCdnPurge } from "#api/jobs/cdn-purge.ts";
import { runPageBoundary } from "#api/jobs/page-schedule.ts";
import { enqueueJob, JOB_BACKOFF_MS } from "#api/jobs/queue.ts";
import { jobsFor } from "#api/jobs/runner.ts";
import { cdnErrors } from "#api/metrics.ts";
import { jobs, userProfiles } from "#db/schema.ts";
import { createApiAdmin } from "#tests/support/admin.ts";
import { browser } from "#tests/support/auth-client.ts";
import { lastMailTo, sixDigitCode } from "#tests/support/mail.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { freePort } from "#tests/support/nginx.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { startPurgeEndpoint, type PurgeEndpoint } from "#tests/support/purge-endpoint.ts";
import { startTestBucket, type TestBucket } from "#tests/support/s3.ts";

let cdn: PurgeEndpoint;
let bucket: TestBucket;
beforeAll(async () => {
  [cdn, bucket] = await Promise.all([startPurgeEndpoint(), startTestBucket()]);
});
afterAll(() => Promise.all([cdn.stop(), bucket.stop()]));

let t: TestApp;
let owner: ApiOwner;
/** The worker's clock, in ms: it moves only when a test moves it. */
let clock: number;
let logged: ReturnType<typeof vi.spyOn>;

/** An app whose purges go to the test endpoint, with the worker on the test's clock. */
function app(overrides: Record<string, string> = {}) {
  t = createTestApp({ CDN_PURGE_URL: `${cdn.origin}/purge?page={url}&path={path}`, CDN_PURGE_HEADER: "Authorization: Bearer purge-token", ...overrides });
  clock = Date.now();
  t.deps.now = () => new Date(clock);
  owner = createApiOwner(t, "trial");
}

beforeEach(() => {
  cdn.requests = [];
  cdn.answer = () => 200;
  logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  app();
});
afterEach(() => {
  logged.mockRestore();
  t.close();
});

const setName = (displayName: string) => t.deps.db.update(userProfiles).set({ displayName }).where(eq(userProfiles.userId, owner.userId)).run();
const purgeJobs = () => t.deps.db.select().from(jobs).where(eq(jobs.kind, "cdn-purge")).all();
/** Waits for the runs the app started, then runs what is due on the test's clock. */
const settle = () => jobsFor(t.deps).tick();
/** The pages purged, in order, by their page address. */
const purged = () => cdn.requests.map((r) => new URL(r.url, cdn.origin).searchParams.get("page"));
const pageUrl = (o: ApiOwner = owner) => `${TEST_ORIGIN}/${o.username}`;

async function publish(expected = 200) {
  const res = await owner.call("POST", "/api/publish");
  expect(res.status).toBe(expected);
  return res.json();
}

describe("the purge request", () => {
  it("POSTs the page's address to the URL template, with the header and a JSON body naming the page", async () => {
    await publish();
    await settle();
    expect(cdn.requests).toHaveLength(1);
    const req = cdn.requests[0]!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe(`/purge?page=${encodeURIComponent(pageUrl())}&path=/${owner.username}`);
    expect(req.headers.authorization).toBe("Bearer purge-token");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({ files: [pageUrl()] });
    // Done and forgotten.
    expect(purgeJobs()).toEqual([]);
  });

  it("is retried on the queue's backoff after a 500, and not before", async () => {
    const statuses = [500, 200];
    cdn.answer = () => statuses.shift()!;
    const errors = async () => (await cdnErrors.get()).values[0]?.value ?? 0;
    const errorsBefore = await errors();
    expect(await publish()).toEqual({ version: 1, changed: true });
    await settle();
    expect(cdn.requests).toHaveLength(1);
    // Counted for the operator's alert (plinth_cdn_purge_errors_total).
    expect(await errors()).toBe(errorsBefore + 1);
    const failed = purgeJobs()[0]!;
    expect(failed).toMatchObject({ state: "pending", attempts: 1, runAfter: new Date(clock + JOB_BACKOFF_MS) });
    expect(failed.lastError).toMatch(new RegExp(`^CDN purge of /${owner.username} answered 500`));
    // The purge URL may carry a token: the error names the page, never the URL.
    expect(failed.lastError).not.toContain(cdn.origin);

    clock += JOB_BACKOFF_MS - 1;
    await settle();
    expect(cdn.requests).toHaveLength(1);
    clock += 1;
    await settle();
    expect(purged()).toEqual([pageUrl(), pageUrl()]);
    expect(purgeJobs()).toEqual([]);
  });

  it("counts a CDN that cannot be reached, or that redirects, as a failure to retry", async () => {
    t.close();
    // A port nothing listens on: the connection is refused.
    app({ CDN_PURGE_URL: `http://127.0.0.1:${await freePort()}/purge?page={url}` });
    await publish();
    await settle();
    expect(purgeJobs()[0]).toMatchObject({ state: "pending", attempts: 1, lastError: expect.stringMatching(/^CDN purge of \/owner_[0-9a-f]+ failed: fetch failed/) });

    cdn.answer = () => 302;
    await expect(runCdnPurge({ ...t.deps.env, CDN_PURGE_URL: `${cdn.origin}/purge` }, { username: owner.username })).rejects.toThrow(/answered 302/);
  });

  it("gives up on a CDN that does not answer within the timeout", async () => {
    let release = () => undefined as void;
    cdn.answer = () => new Promise<number>((resolve) => (release = () => resolve(200)));
    await expect(runCdnPurge(t.deps.env, { username: owner.username }, 50)).rejects.toThrow(`CDN purge of /${owner.username} failed: no answer within 50 ms`);
    release();
  });

  it("never holds the publish: the owner has the answer while the CDN is still thinking", async () => {
    let release = () => undefined as void;
    let arrived = () => undefined as void;
    const asked = new Promise<void>((resolve) => (arrived = resolve));
    cdn.answer = () => {
      arrived();
      return new Promise<number>((resolve) => (release = () => resolve(200)));
    };
    setName("Published while the CDN hangs");
    // The CDN answers only once this resolves: a publish that waited for it would never end.
    expect(await publish()).toEqual({ version: 1, changed: true });
    await asked;
    expect(purgeJobs()).toHaveLength(1);
    release();
    await settle();
    expect(purgeJobs()).toEqual([]);
  });

  it("keeps one waiting purge per page while the CDN is down", async () => {
    cdn.answer = () => 503;
    setName("One");
    await publish();
    await settle();
    setName("Two");
    await publish();
    await settle();
    expect(cdn.requests).toHaveLength(2);
    const waiting = purgeJobs();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.payload).toEqual({ username: owner.username });
  });
});

describe("what is purged", () => {
  it("purges after a publish, a rollback and a re-render, and not after a discard or a publish that changed nothing", async () => {
    setName("Version one");
    await publish();
    setName("Version two");
    await publish();
    await settle();
    expect(purged()).toEqual([pageUrl(), pageUrl()]);

    // The folder already holds this page: nothing is written, nothing purged.
    expect(await publish()).toEqual({ version: 2, changed: false });
    setName("A draft");
    expect((await owner.call("POST", "/api/publish/discard")).status).toBe(200);
    await settle();
    expect(purged()).toHaveLength(2);

    expect((await owner.call("POST", "/api/publish/rollback", { version: 1 })).status).toBe(200);
    await settle();
    expect(purged()).toHaveLength(3);

    // A schedule boundary and the re-render that follows a plan change, both run by the worker.
    enqueueJob(t.deps.db, { kind: "page-boundary", payload: { userId: owner.userId, at: clock } }, t.deps.now());
    await settle();
    expect(purged()).toHaveLength(4);
    enqueueJob(t.deps.db, { kind: "rerender", payload: { userId: owner.userId } }, t.deps.now());
    await settle();
    expect(purged()).toEqual(Array(5).fill(pageUrl()));
    expect(purgeJobs()).toEqual([]);
  });

  it("purges a suspended page and the page restored", async () => {
    await publish();
    await settle();
    const admin = createApiAdmin(t);
    expect((await admin.call("POST", `/api/admin/pages/${owner.userId}/suspend`, { reason: "Phishing links" })).status).toBe(200);
    await settle();
    expect(purged()).toHaveLength(2);
    expect((await admin.call("POST", `/api/admin/pages/${owner.userId}/restore`, { note: "Appeal accepted" })).status).toBe(200);
    await settle();
    expect(purged()).toEqual(Array(3).fill(pageUrl()));
  });

  it("purges the page of an account deleted, and only that one", async () => {
    await publish();
    const other = createApiOwner(t, "trial");
    expect((await other.call("POST", "/api/publish")).status).toBe(200);
    await settle();
    expect(purged()).toEqual([pageUrl(), pageUrl(other)]);
    expect((await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username })).status).toBe(200);
    await settle();
    expect(purged()).toEqual([pageUrl(), pageUrl(other), pageUrl()]);
  });

  it("purges the address of a page made at signup, which the CDN may have cached as missing", async () => {
    const b = browser(t);
    const who = { username: `new_cdn_${Date.now().toString(36)}`, email: `new_cdn_${Date.now().toString(36)}@example.com` };
    expect((await b.json("POST", "/api/auth/signup/start", who)).status).toBe(200);
    expect((await b.json("POST", "/api/auth/signup/verify", { code: sixDigitCode(lastMailTo(t.deps.env.OUTBOX_DIR, who.email)!) })).status).toBe(200);
    const password = "Sturdy-Password-42";
    expect((await b.json("POST", "/api/auth/signup/complete", { password, confirmPassword: password, plan: "lite", agreedToTerms: true })).status).toBe(201);
    await settle();
    expect(purged()).toEqual([`${TEST_ORIGIN}/${who.username}`]);
  });

  it("does nothing without CDN_PURGE_URL", async () => {
    t.close();
    app({ CDN_PURGE_URL: "", CDN_PURGE_HEADER: "" });
    await publish();
    await settle();
    await runPageBoundary(t.deps, { userId: owner.userId, at: clock });
    await settle();
    expect(cdn.requests).toEqual([]);
    expect(purgeJobs()).toEqual([]);
  });
});

describe("with the bucket target", () => {
  let prefix: string;
  let run = 0;
  beforeEach(() => {
    t.close();
    prefix = `cdn-${++run}/`;
    app(bucket.env(prefix));
  });

  it("purges the page's address on PUBLIC_PAGES_ORIGIN, once the bucket holds the new page", async () => {
    const seen: string[] = [];
    cdn.answer = async () => {
      seen.push((await bucket.object(`${prefix}${owner.username}/index.html`))?.body.toString("utf8") ?? "");
      return 200;
    };
    setName("In the bucket before the purge");
    await publish();
    await settle();
    expect(purged()).toEqual([`https://pages.plinth.test/${owner.username}`]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain("In the bucket before the purge");
  });

  it("queues no purge when the bucket refuses the page", async () => {
    t.close();
    app({ ...bucket.env(prefix), S3_BUCKET: `absent-${run}` });
    await publish(503);
    await settle();
    expect(cdn.requests).toEqual([]);
    expect(purgeJobs()).toEqual([]);
  });
});
