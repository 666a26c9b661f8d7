/**
 * Many server processes on one DATA_DIR (ADR 180): four real servers, started together on a new
 * database, share 1,000 queued mail jobs, and the outbox holds exactly 1,000 e-mails, none twice.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { enqueueJob } from "#api/jobs/queue.ts";
import { closeDatabase, openDatabase, transaction, type Db } from "#db/client.ts";
import { jobs } from "#db/schema.ts";
import { parseEml } from "#tests/support/mail.ts";
import { startSharedServers, type SharedServer } from "#tests/support/shared-data-servers.ts";
import { count, eq } from "drizzle-orm";

let dir: string;
let servers: SharedServer[] = [];
let db: Db | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "plinth-procs-"));
});
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  servers = [];
  if (db) closeDatabase(db);
  db = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function until(done: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("four server processes on one DATA_DIR", () => {
  it("send each of 1,000 queued e-mails exactly once", async () => {
    // Started together on an empty folder: one migrates the new database, the others find it done.
    servers = await startSharedServers(dir, 4, { BILLING_SWEEP_MS: "100" });
    db = openDatabase({ path: join(dir, "data", "plinth.db") });
    const at = new Date();
    transaction(db, (tx) => {
      for (let i = 0; i < 1000; i++) enqueueJob(tx, { kind: "mail", payload: { to: `reader${i}@example.com`, subject: `Letter ${i}`, text: `Letter number ${i}.` } }, at);
    });
    const left = () => db!.select({ n: count() }).from(jobs).where(eq(jobs.kind, "mail")).get()!.n;
    await until(() => left() === 0, () => `${left()} mail jobs left`);

    const outbox = join(dir, "data", "outbox");
    const files = readdirSync(outbox).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1000);
    const recipients = files.map((f) => parseEml(readFileSync(join(outbox, f), "utf8")).to);
    expect(new Set(recipients).size).toBe(1000);
    expect(new Set(recipients)).toEqual(new Set(Array.from({ length: 1000 }, (_, i) => `reader${i}@example.com`)));
    // Every process saw the same queue; the work went to more than one of them.
    const sent = servers.map((s) => (s.output().match(/"msg":"mail sent"/g) ?? []).length);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(sent.filter((n) => n > 0).length).toBeGreaterThan(1);
    for (const s of servers) expect(s.output()).not.toMatch(/Job failed|Jobs failed|SQLITE_BUSY/);
  }, 180_000);
});
