/**
 * Bulk and automatic re-renders through the publish target (ADR 135), against a real S3-protocol
 * server and a real HTTP server standing in for a CDN's purge API: `npm run republish` as an operator
 * runs it puts every page into the bucket and queues a purge per page; a bucket that is down makes it
 * fail clearly with the database untouched; `npm run restore` re-renders into the bucket; the
 * start-up pass that follows the template re-renders into the bucket; and a bulk re-render of the
 * folder queues a purge per page.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { jobsFor } from "#api/jobs/runner.ts";
import { jobs, pageVersions, userProfiles } from "#db/schema.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { IMMUTABLE, REVALIDATE } from "#renderer/content-types.ts";
import { followTemplate } from "#renderer/follow-template.ts";
import type { PublishTarget } from "#renderer/publish-target.ts";
import { publishPage } from "#renderer/publish.ts";
import { republishAll } from "#renderer/republish.ts";
import { rerenderIntoTarget } from "#renderer/republish-target.ts";
import { UNAVAILABLE_HTML } from "#renderer/suspension.ts";
import { templateFingerprint } from "#renderer/template-fingerprint.ts";
import { createApiAdmin } from "#tests/support/admin.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { startPurgeEndpoint, type PurgeEndpoint } from "#tests/support/purge-endpoint.ts";
import { npmRun } from "#tests/support/npm-run.ts";
import { startTestBucket, type TestBucket } from "#tests/support/s3.ts";
import { freePort } from "#tests/support/nginx.ts";
import { startServerProcess } from "#tests/support/server-process.ts";
import { createBackup } from "#api/backup/create.ts";

const PAGES = "https://pages.plinth.test";

let bucket: TestBucket;
let cdn: PurgeEndpoint;
beforeAll(async () => {
  [bucket, cdn] = await Promise.all([startTestBucket(), startPurgeEndpoint()]);
});
afterAll(() => Promise.all([bucket.stop(), cdn.stop()]));

let t: TestApp;
let prefix: string;
let run = 0;
let logged: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  prefix = `bulk-${++run}/`;
  cdn.requests = [];
  logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  logged.mockRestore();
  t.close();
});

const purgeUrl = () => `${cdn.origin}/purge?page={url}`;
/** The variables of a server on `b` that purges through the test CDN. */
const purgingBucketEnv = (b: TestBucket = bucket) => ({ ...b.env(prefix), CDN_PURGE_URL: purgeUrl() });
/** The pages purged, by their address, in order. */
const purged = () => cdn.requests.map((r) => new URL(r.url, cdn.origin).searchParams.get("page"));
const setName = (o: ApiOwner, displayName: string) => t.deps.db.update(userProfiles).set({ displayName }).where(eq(userProfiles.userId, o.userId)).run();
const pageKey = (o: ApiOwner) => `${prefix}${o.username}/index.html`;
const body = async (o: ApiOwner) => (await bucket.object(pageKey(o)))?.body.toString("utf8") ?? null;
/** An object left by an earlier template (or any stale writer). */
const stale = (o: ApiOwner, text = "rendered by an earlier template") => bucket.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: pageKey(o), Body: text, ContentType: "text/plain" }));
const fingerprintOf = (o: ApiOwner) => t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, o.userId)).get()!.templateFingerprint;
const currentFingerprint = () => templateFingerprint(ensureSharedAssets(t.deps.env.PUBLISHED_DIR));
const oldTemplate = (o: ApiOwner) => t.deps.db.update(pageVersions).set({ templateFingerprint: "an-earlier-template" }).where(eq(pageVersions.userId, o.userId)).run();

async function published(name: string): Promise<ApiOwner> {
  const o = createApiOwner(t, "trial");
  setName(o, name);
  expect((await o.call("POST", "/api/publish")).status).toBe(200);
  return o;
}

/** Lets the purges the app kicked finish, then forgets them. */
async function settle() {
  await jobsFor(t.deps).tick();
  cdn.requests = [];
}

/** `npm run republish` in a process of its own, with the test app's configuration and `env`. */
function republishCommand(env: Record<string, string>) {
  return npmRun("republish", [], { ...process.env, DATA_DIR: join(t.dir, "data"), PUBLISHED_DIR: t.deps.env.PUBLISHED_DIR, PUBLIC_ORIGIN: TEST_ORIGIN, ...env });
}

describe("npm run republish with a bucket target", () => {
  it("puts every published page into the bucket, the suspended page as the unavailable page, and queues a purge per page", async () => {
    const env = purgingBucketEnv();
    t = createTestApp(env);
    const ada = await published("Ada Bulk");
    const bob = await published("Bob Bulk");
    const eve = await published("Eve Bulk");
    expect((await createApiAdmin(t).call("POST", `/api/admin/pages/${eve.userId}/suspend`, { reason: "Spam" })).status).toBe(200);
    await settle();
    for (const o of [ada, bob, eve]) await stale(o);
    for (const o of [ada, bob]) oldTemplate(o);
    t.deps.db.delete(jobs).run();

    const res = await republishCommand(env);
    // (stderr may carry the S3 SDK's notice about Node versions, nothing of ours)
    expect(res.stderr).not.toMatch(/Could not|refused/);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("republished 3/3");
    expect(res.stdout).toMatch(/^Republished 3 page\(s\) to the bucket in \d+ ms\.$/m);
    expect(res.stdout).toContain("Queued 3 CDN purge(s); the server's job worker sends them");

    for (const [o, name] of [[ada, "Ada Bulk"], [bob, "Bob Bulk"]] as const) {
      const page = (await bucket.object(pageKey(o)))!;
      expect(page).toMatchObject({ contentType: "text/html; charset=utf-8", cacheControl: REVALIDATE, contentEncoding: undefined });
      expect(page.body.toString("utf8")).toContain(name);
      expect(page.body.toString("utf8")).toContain(`<link rel="canonical" href="${PAGES}/${o.username}">`);
      const qr = (await bucket.keys(`${prefix}${o.username}/qr-`))[0]!;
      expect(await bucket.object(qr)).toMatchObject({ contentType: "image/svg+xml", cacheControl: IMMUTABLE });
      expect(fingerprintOf(o)).toBe(currentFingerprint());
    }
    const unavailable = (await bucket.object(pageKey(eve)))!;
    expect(unavailable).toMatchObject({ contentType: "text/html; charset=utf-8", cacheControl: REVALIDATE });
    expect(unavailable.body.toString("utf8")).toBe(UNAVAILABLE_HTML);
    const sitemap = (await bucket.object(`${prefix}sitemap.xml`))!.body.toString("utf8");
    expect(sitemap).toContain(`<loc>${PAGES}/${ada.username}</loc>`);
    expect(sitemap).not.toContain(eve.username);

    // The purges wait in the queue for the server's job worker, which sends one per page.
    const queued = t.deps.db.select().from(jobs).where(eq(jobs.kind, "cdn-purge")).all();
    expect(queued.map((j) => (j.payload as { username: string }).username).sort()).toEqual([ada, bob, eve].map((o) => o.username).sort());
    expect(queued.every((j) => j.state === "pending")).toBe(true);
    await jobsFor(t.deps).tick();
    expect(purged().sort()).toEqual([ada, bob, eve].map((o) => `${PAGES}/${o.username}`).sort());
  }, 120_000);

  it("fails with a clear message when the bucket is down, and leaves the database as it was", async () => {
    const down = await startTestBucket("down");
    const env = purgingBucketEnv(down);
    t = createTestApp(env);
    const ada = await published("Ada Down");
    const bob = await published("Bob Down");
    await settle();
    for (const o of [ada, bob]) oldTemplate(o);
    t.deps.db.delete(jobs).run();
    await down.stop();
    const before = JSON.stringify([t.deps.db.select().from(pageVersions).all(), t.deps.db.select().from(jobs).all(), t.deps.db.select().from(userProfiles).all()]);

    const res = await republishCommand(env);
    expect(res.code).toBe(1);
    for (const o of [ada, bob]) expect(res.stderr).toContain(`Could not re-render /${o.username}: The publish target refused the writes`);
    expect(res.stderr).toContain("The publish target refused 3 page(s) or file(s) (");
    expect(res.stderr).toContain("sitemap.xml); 0 page(s) were written. Run npm run republish again once the publish target takes writes.");
    expect(res.stdout).not.toContain("Queued");
    const after = JSON.stringify([t.deps.db.select().from(pageVersions).all(), t.deps.db.select().from(jobs).all(), t.deps.db.select().from(userProfiles).all()]);
    expect(after).toBe(before);
    expect(fingerprintOf(ada)).toBe("an-earlier-template");
  }, 120_000);
});

describe("npm run restore with a bucket target", () => {
  it("re-renders every restored page into the bucket and queues a purge per page", async () => {
    const env = purgingBucketEnv();
    t = createTestApp(env);
    const ada = await published("Ada Restored");
    const bob = await published("Bob Restored");
    await settle();
    // An upload the new bucket has never held: the restore puts it before the pages.
    const upload = "media/ab/0123456789abcdef0123456789abcdef.jpg";
    mkdirSync(join(t.deps.env.PUBLISHED_DIR, "media", "ab"), { recursive: true });
    writeFileSync(join(t.deps.env.PUBLISHED_DIR, upload), "a picture");
    const archive = join(t.dir, "backups", "nightly.tar.gz");
    await createBackup({ databasePath: t.deps.env.DATABASE_PATH, publishedDir: t.deps.env.PUBLISHED_DIR, out: archive });
    for (const o of [ada, bob]) await stale(o, "lost with the old bucket");

    const into = { data: join(t.dir, "restored", "data"), published: join(t.dir, "restored", "published") };
    const res = await npmRun("restore", [archive], { ...process.env, ...env, DATA_DIR: into.data, PUBLISHED_DIR: into.published, PUBLIC_ORIGIN: TEST_ORIGIN });
    expect(res.stderr).not.toMatch(/Could not|refused/);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("re-rendered 2 page(s)");
    expect(res.stdout).toContain("Put 1 upload(s) into the bucket; 0 were there already.");
    expect(await bucket.object(prefix + upload)).toMatchObject({ contentType: "image/jpeg", cacheControl: IMMUTABLE });
    expect(res.stdout).toContain("Queued 2 CDN purge(s); the server's job worker sends them");
    expect(await body(ada)).toContain("Ada Restored");
    expect(await body(bob)).toContain(`<link rel="canonical" href="${PAGES}/${bob.username}">`);
    const restored = new Database(join(into.data, "plinth.db"), { readonly: true });
    const queued = restored.prepare("SELECT json_extract(payload, '$.username') AS username FROM jobs WHERE kind = 'cdn-purge' AND state = 'pending' ORDER BY username").all();
    restored.close();
    expect(queued).toEqual([ada, bob].map((o) => ({ username: o.username })).sort((a, b) => a.username.localeCompare(b.username)));
  }, 120_000);
});

describe("the start-up pass that follows the template, with a bucket target", () => {
  it("re-renders the out-of-date pages into the bucket, leaves the others, and purges each page it re-rendered", async () => {
    t = createTestApp(purgingBucketEnv());
    const old = await published("Old Template");
    const current = await published("Current Template");
    await settle();
    oldTemplate(old);
    await stale(old);
    await stale(current, "left alone");

    const lines: string[] = [];
    const done = await followTemplate(t.deps.db, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: TEST_ORIGIN, pagesOrigin: PAGES, target: t.deps.target, log: (l) => lines.push(l) });
    expect(done).toBe(1);
    expect(lines.at(-1)).toMatch(/^All 1 out-of-date page\(s\) follow the current template/);
    expect(await body(old)).toContain("Old Template");
    expect(await body(old)).toContain(`<link rel="canonical" href="${PAGES}/${old.username}">`);
    expect(await body(current)).toBe("left alone");
    expect(fingerprintOf(old)).toBe(currentFingerprint());
    await jobsFor(t.deps).tick();
    expect(purged()).toEqual([`${PAGES}/${old.username}`]);
  }, 60_000);
});

describe("the server at start, with a bucket target and CDN_PURGE_URL", () => {
  /** Resolves once `done()` holds, checked as the server's output and requests arrive; fails after a minute. */
  async function until(done: () => boolean, what: () => string) {
    const deadline = Date.now() + 60_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`Still waiting: ${what()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("re-renders the out-of-date pages into its bucket and its job worker purges each", async () => {
    const env = purgingBucketEnv();
    t = createTestApp(env);
    const old = await published("Old At Start");
    await settle();
    oldTemplate(old);
    await stale(old);

    const port = await freePort();
    const server = await startServerProcess({
      ...env,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      DATA_DIR: join(t.dir, "data"),
      PUBLISHED_DIR: t.deps.env.PUBLISHED_DIR,
      SITE_DIR: join(t.dir, "no-site"),
      LOG_REQUESTS: "0",
    });
    try {
      await until(() => server.output().includes("All 1 out-of-date page(s) follow the current template") && cdn.requests.length > 0, server.output);
      expect(await body(old)).toContain("Old At Start");
      expect(await body(old)).toContain(`<link rel="canonical" href="${PAGES}/${old.username}">`);
      expect(fingerprintOf(old)).toBe(currentFingerprint());
      expect(purged()).toEqual([`${PAGES}/${old.username}`]);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe("a page changed while its re-render is being put", () => {
  it("is put again as it is now, so an older render never lands last", async () => {
    t = createTestApp(bucket.env(prefix));
    const o = await published("First Version");
    // Another process publishes a new version (and puts it) while the re-render's objects go up.
    let raced = false;
    const inner = t.deps.target;
    const racing: PublishTarget = {
      kind: inner.kind,
      writer() {
        const w = inner.writer();
        return {
          ...w,
          async finish() {
            if (!raced) {
              raced = true;
              setName(o, "Second Version");
              const other = inner.writer();
              expect(publishPage(t.deps.db, o.userId, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: TEST_ORIGIN, pagesOrigin: PAGES, now: new Date(), writer: other }).ok).toBe(true);
              await other.finish();
            }
            await w.finish();
          },
        };
      },
    };
    const assets = ensureSharedAssets(t.deps.env.PUBLISHED_DIR);
    expect(await rerenderIntoTarget(t.deps.db, o.userId, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: TEST_ORIGIN, pagesOrigin: PAGES, assets, target: racing, now: new Date() })).toBe(true);
    expect(raced).toBe(true);
    expect(await body(o)).toContain("Second Version");
  }, 60_000);
});

describe("a bulk re-render of the folder with CDN_PURGE_URL set", () => {
  it("queues one purge per page it re-rendered, which the purge API receives when the jobs run", async () => {
    t = createTestApp({ CDN_PURGE_URL: purgeUrl() });
    const owners = [await published("Folder One"), await published("Folder Two"), await published("Folder Three")];
    await settle();

    const done = await republishAll(t.deps.db, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: TEST_ORIGIN, target: t.deps.target, threads: 2 });
    expect(done).toBe(3);
    await jobsFor(t.deps).tick();
    expect(purged().sort()).toEqual(owners.map((o) => `${TEST_ORIGIN}/${o.username}`).sort());
    expect(t.deps.db.select().from(jobs).where(eq(jobs.kind, "cdn-purge")).all()).toEqual([]);
  }, 60_000);
});
