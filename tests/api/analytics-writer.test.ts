/**
 * The analytics batching writer (ADR 072): beacons are queued and written in batches; a full queue
 * answers 503 with Retry-After and stores nothing for it; a failed write keeps its events; and a
 * real server process stopped with SIGTERM under load has stored exactly the beacons it acknowledged.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { createEventWriter } from "#api/services/event-writer.ts";
import { createServerApp } from "#api/site.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { analyticsEvents, analyticsRollups, userProfiles, users } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { freePort } from "#tests/support/nginx.ts";
import { serverBundle } from "#tests/support/node-bundle.ts";

const ROOT = join(import.meta.dirname, "../..");
let t: TestApp;
let username: string;
let ip = 0;

function publishedOwner(db: TestApp["deps"]["db"], publishedDir: string, origin: string) {
  const name = `writer_${Math.random().toString(16).slice(2, 10)}`;
  const { userId } = createAccount(db, { email: `${name}@example.com`, username: name, passwordHash: null, emailVerified: true, now: new Date() });
  expect(publishPage(db, userId, { publishedDir, origin, now: new Date() })).toMatchObject({ ok: true });
  db.update(userProfiles).set({ hasPublishedPage: true }).where(eq(userProfiles.userId, userId)).run();
  return name;
}
const beacon = (app: { request: TestApp["app"]["request"] }) =>
  app.request("/api/visitor/track", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": `10.1.${++ip % 250}.${ip % 7}`, "User-Agent": "Mozilla/5.0 (iPhone; Mobile)" },
    body: JSON.stringify({ type: "page_view", username }),
  });
const count = (table: typeof analyticsEvents) => t.deps.db.select().from(table).all().length;

beforeEach(() => {
  t = createTestApp({ TRUST_PROXY: "1" });
  username = publishedOwner(t.deps.db, t.deps.env.PUBLISHED_DIR, t.deps.env.PUBLIC_ORIGIN);
});
afterEach(() => t.close());

describe("the batching writer", () => {
  it("queues beacons and writes them together; a full queue answers 503 with Retry-After", async () => {
    // A writer that waits an hour: only a full batch or an explicit flush writes.
    const events = createEventWriter(t.deps.db, { batchSize: 1000, flushMs: 3_600_000, maxQueue: 3 });
    const app = createServerApp({ ...t.deps, events });
    for (let i = 0; i < 3; i++) expect((await beacon(app)).status).toBe(204);
    expect(events.queued).toBe(3);
    expect(count(analyticsEvents)).toBe(0);
    const full = await beacon(app);
    expect(full.status).toBe(503);
    expect(full.headers.get("retry-after")).toBe("1");
    expect((await full.json()).error.message).toBe("Too many requests. Please try again later.");
    await events.flush();
    expect(count(analyticsEvents)).toBe(3);
    expect(t.deps.db.select().from(analyticsRollups).all().find((r) => r.dimension === "page" && r.grain === "day")?.views).toBe(3);
    // Room again once written.
    expect((await beacon(app)).status).toBe(204);
    await events.close();
    expect(count(analyticsEvents)).toBe(4);
  });

  it("writes a full batch without waiting for the timer", async () => {
    const events = createEventWriter(t.deps.db, { batchSize: 5, flushMs: 3_600_000, maxQueue: 100 });
    const app = createServerApp({ ...t.deps, events });
    for (let i = 0; i < 5; i++) expect((await beacon(app)).status).toBe(204);
    // The timer would wait an hour: only the full batch gets the beacons written.
    // The rows commit before the thread's word that they did reaches this thread: both are waited for.
    await vi.waitFor(
      () => {
        expect(count(analyticsEvents)).toBe(5);
        expect(events.queued).toBe(0);
      },
      { timeout: 20_000, interval: 20 },
    );
    await events.close();
  });

  it("keeps the events of a failed write and writes them on the next attempt, all or nothing", async () => {
    const events = createEventWriter(t.deps.db, { batchSize: 100, flushMs: 3_600_000, maxQueue: 100 });
    const userId = t.deps.db.select().from(userProfiles).where(eq(userProfiles.username, username)).get()!.userId;
    const c = t.deps.db.$client;
    // The third insert of the batch fails, as a full disk would, on the writer thread's connection too.
    c.exec(`CREATE TRIGGER fail_third BEFORE INSERT ON analytics_events WHEN (SELECT count(*) FROM analytics_events) >= 2 BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    for (let i = 0; i < 4; i++) events.enqueue({ userId, kind: "page_view", linkId: null, at: Date.now(), userAgent: "Mozilla/5.0 (iPhone; Mobile)", address: "192.0.2.1" });
    await events.flush();
    expect(events.queued).toBe(4);
    expect(count(analyticsEvents)).toBe(0);
    expect(t.deps.db.select().from(analyticsRollups).all()).toHaveLength(0);
    c.exec("DROP TRIGGER fail_third");
    await events.flush();
    expect(events.queued).toBe(0);
    expect(count(analyticsEvents)).toBe(4);
    await events.close();
  });

  it("leaves out the beacons of an owner who deleted the account before they were written, and writes the rest", async () => {
    const events = createEventWriter(t.deps.db, { batchSize: 100, flushMs: 3_600_000, maxQueue: 100 });
    const userId = t.deps.db.select().from(userProfiles).where(eq(userProfiles.username, username)).get()!.userId;
    const gone = createAccount(t.deps.db, { email: "gone@example.com", username: "gone_owner", passwordHash: null, emailVerified: true, now: new Date() }).userId;
    const at = Date.now();
    for (const owner of [userId, gone, userId]) events.enqueue({ userId: owner, kind: "page_view", linkId: null, at, userAgent: "Mozilla/5.0 (iPhone; Mobile)", address: "192.0.2.1" });
    t.deps.db.delete(users).where(eq(users.id, gone)).run();
    await events.flush();
    expect(events.queued).toBe(0);
    expect(t.deps.db.select().from(analyticsEvents).all().map((e) => e.userId)).toEqual([userId, userId]);
    // Later beacons are not held up behind it.
    events.enqueue({ userId, kind: "page_view", linkId: null, at, userAgent: "Mozilla/5.0 (iPhone; Mobile)", address: "192.0.2.2" });
    await events.flush();
    expect(count(analyticsEvents)).toBe(3);
    await events.close();
  });

  it("writes on a thread of its own: a write lock held by the server's connection holds up no beacon's answer", async () => {
    // Every beacon is a full batch: each is handed over for writing at once.
    const events = createEventWriter(t.deps.db, { batchSize: 1, flushMs: 3_600_000, maxQueue: 100 });
    const app = createServerApp({ ...t.deps, events });
    expect((await beacon(app)).status).toBe(204);
    await events.flush();
    // The server's connection holds the write lock: the writes wait, on their thread, while the
    // beacons are answered (a write on this thread would wait here, then fail).
    t.deps.db.$client.exec("BEGIN IMMEDIATE");
    for (let i = 0; i < 3; i++) expect((await beacon(app)).status).toBe(204);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.queued).toBe(3);
    expect(count(analyticsEvents)).toBe(1);
    t.deps.db.$client.exec("COMMIT");
    await events.flush();
    expect(events.queued).toBe(0);
    expect(count(analyticsEvents)).toBe(4);
    await events.close();
  });

  it("after close, writes each beacon at once", async () => {
    const events = createEventWriter(t.deps.db, { batchSize: 1000, flushMs: 3_600_000, maxQueue: 100 });
    const app = createServerApp({ ...t.deps, events });
    expect((await beacon(app)).status).toBe(204);
    await events.close();
    expect(count(analyticsEvents)).toBe(1);
    expect((await beacon(app)).status).toBe(204);
    expect(events.queued).toBe(0);
    expect(count(analyticsEvents)).toBe(2);
  });
});

describe("a server process stopped under load", () => {
  it("has stored every beacon it acknowledged, and nothing else", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plinth-writer-"));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const data = join(dir, "data");
    mkdirSync(data, { recursive: true });
    const env = {
      ...process.env,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      DATA_DIR: data,
      PUBLISHED_DIR: join(dir, "published"),
      SITE_DIR: join(dir, "no-site"),
      LOG_REQUESTS: "0",
      TRUST_PROXY: "1",
    };
    const setup = openDatabase({ path: join(data, "plinth.db") });
    const name = publishedOwner(setup, env.PUBLISHED_DIR, origin);
    closeDatabase(setup);

    const child = spawn(process.execPath, [await serverBundle()], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += String(d);
        if (out.includes("Plinth is listening")) resolve();
      });
      void exited.then(() => reject(new Error(`the server exited early: ${stderr}`)));
    });

    let acknowledged = 0;
    let sent = 0;
    let stopping = false;
    // Eight clients send beacons back to back; SIGTERM goes out once 400 are acknowledged, and the
    // clients keep sending until the server stops answering.
    const client = async (n: number) => {
      for (let i = 0; ; i++) {
        sent++;
        try {
          const res = await fetch(`${origin}/api/visitor/track`, {
            method: "POST",
            headers: { "Content-Type": "application/json", "X-Forwarded-For": `10.${n}.${Math.floor(i / 250) % 250}.${i % 250}`, "User-Agent": "Mozilla/5.0 (iPhone; Mobile)" },
            body: JSON.stringify({ type: "page_view", username: name }),
          });
          await res.arrayBuffer();
          if (res.status === 204) acknowledged++;
        } catch {
          return; // the server is gone
        }
        if (acknowledged >= 400 && !stopping) {
          stopping = true;
          child.kill("SIGTERM");
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, n) => client(n)));
    expect(await exited).toBe(0);

    const db = openDatabase({ path: join(data, "plinth.db") });
    try {
      const stored = db.select().from(analyticsEvents).all().length;
      expect(acknowledged).toBeGreaterThanOrEqual(400);
      expect(sent).toBeGreaterThan(acknowledged);
      expect(stored).toBe(acknowledged);
      const rolled = db.select().from(analyticsRollups).all().filter((r) => r.dimension === "page" && r.grain === "day");
      expect(rolled.reduce((n, r) => n + r.views, 0)).toBe(acknowledged);
    } finally {
      closeDatabase(db);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
