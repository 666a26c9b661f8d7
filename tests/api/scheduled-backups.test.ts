/**
 * Scheduled backups (ADR 160), driven by the app's injected clock and the job worker's tick: a
 * backup every BACKUP_EVERY into BACKUP_DIR or a real bucket (s3rver), once per period however many
 * workers share the data folder, encrypted with age when configured, verified before older ones are
 * deleted (BACKUP_KEEP), and a failed verification keeps the older ones and is reported. The files
 * are real archives: npm run backup:verify and npm run restore read them back.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateX25519Identity, identityToRecipient } from "age-encryption";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { archiveKind, encryptFile } from "#api/backup/encryption.ts";
import { verifyBackup } from "#api/backup/verify.ts";
import type { AppDeps } from "#api/context.ts";
import { backupHistory, scheduleBackups } from "#api/jobs/backup.ts";
import { jobsFor } from "#api/jobs/runner.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { jobs, uploads } from "#db/schema.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { freePort } from "#tests/support/nginx.ts";
import { npmRun } from "#tests/support/npm-run.ts";
import { createApiOwner } from "#tests/support/owner.ts";
import { startTestBucket, type TestBucket } from "#tests/support/s3.ts";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process.ts";

const ROOT = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "plinth-scheduled-backups-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PASSPHRASE = "correct horse battery staple, twice over";

/** An app whose clock the test moves, with an owner whose page is published. */
async function appAt(start: string, env: Record<string, string>): Promise<{ t: TestApp; clock: { now: Date }; username: string }> {
  const t = createTestApp(env);
  const clock = { now: new Date(start) };
  t.deps.now = () => clock.now;
  const owner = createApiOwner(t, "plus");
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
  return { t, clock, username: owner.username };
}

/** Runs what is due by the app's clock, as the server's worker does. */
const tick = (deps: AppDeps) => jobsFor(deps).tick();

const archivesIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((n) => !n.startsWith(".")).sort() : []);

let errors: MockInstance<typeof console.error>;
let logs: MockInstance<typeof console.log>;
afterEach(() => {
  errors?.mockRestore();
  logs?.mockRestore();
});
const quiet = () => {
  logs = vi.spyOn(console, "log").mockImplementation(() => undefined);
};

describe("scheduled backups into BACKUP_DIR", () => {
  it("takes one backup per period by the clock, verified, and keeps BACKUP_KEEP of them", async () => {
    quiet();
    const backups = join(dir, "folder", "backups");
    const { t, clock, username } = await appAt("2026-11-28T07:10:00Z", { BACKUP_EVERY: "6h", BACKUP_DIR: backups, BACKUP_KEEP: "2" });
    try {
      scheduleBackups(t.deps);
      await tick(t.deps);
      expect(archivesIn(backups)).toEqual(["plinth-2026-11-28T06-00-00Z.tar.gz"]);
      const file = join(backups, "plinth-2026-11-28T06-00-00Z.tar.gz");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(archiveKind(file)).toBe("plain");
      const [run] = backupHistory(t.deps.db);
      expect(run).toMatchObject({ at: new Date("2026-11-28T06:00:00Z"), state: "verified", name: "plinth-2026-11-28T06-00-00Z.tar.gz" });
      expect(run!.detail).toContain("Database integrity: ok");
      expect(run!.detail).toContain("1 published page(s)");
      expect(logs.mock.calls.flat().join("\n")).toContain(`Scheduled backup plinth-2026-11-28T06-00-00Z.tar.gz stored in ${backups} and verified.`);

      // The same period again (a restart, another tick): nothing new.
      scheduleBackups(t.deps);
      await tick(t.deps);
      expect(archivesIn(backups)).toHaveLength(1);
      // The next period's job waits for its instant.
      clock.now = new Date("2026-11-28T11:59:59Z");
      await tick(t.deps);
      expect(archivesIn(backups)).toHaveLength(1);

      clock.now = new Date("2026-11-28T12:00:00Z");
      await tick(t.deps);
      clock.now = new Date("2026-11-28T18:00:05Z");
      await tick(t.deps);
      // Three taken, two kept: the oldest went once the third was verified.
      expect(archivesIn(backups)).toEqual(["plinth-2026-11-28T12-00-00Z.tar.gz", "plinth-2026-11-28T18-00-00Z.tar.gz"]);
      expect(logs.mock.calls.flat().join("\n")).toContain("deleted plinth-2026-11-28T06-00-00Z.tar.gz");
      expect(backupHistory(t.deps.db).map((r) => [r.at.toISOString(), r.state])).toEqual([
        ["2026-11-28T18:00:00.000Z", "verified"],
        ["2026-11-28T12:00:00.000Z", "verified"],
      ]);

      // A server down for a day: the periods it missed are not made up one by one; the one now is taken.
      clock.now = new Date("2026-11-30T01:00:00Z");
      scheduleBackups(t.deps);
      await tick(t.deps);
      expect(archivesIn(backups)).toEqual(["plinth-2026-11-28T18-00-00Z.tar.gz", "plinth-2026-11-30T00-00-00Z.tar.gz"]);

      // The operator's command reads the file as it is.
      const verified = await npmRun("backup:verify", [join(backups, "plinth-2026-11-30T00-00-00Z.tar.gz")], { ...process.env, NODE_ENV: "test", PUBLIC_ORIGIN: TEST_ORIGIN });
      expect(verified.stderr).toBe("");
      expect(verified.code).toBe(0);
      expect(verified.stdout).toContain("not encrypted");
      expect(verified.stdout).toContain("Database integrity: ok; foreign keys: ok.");
      expect(verified.stdout).toMatch(/\d+ account\(s\), 1 published page\(s\) and 0 suspended/);
      expect(verified.stdout).toContain("every published page has its file");
      expect(verified.stdout).toContain("The backup is verified: it restores whole.");
      expect(username).toMatch(/^owner_/);
    } finally {
      t.close();
    }
  }, 180_000);

  it("is taken once when two workers on one data folder run the period's job at the same time", async () => {
    quiet();
    const backups = join(dir, "two", "backups");
    const { t, clock } = await appAt("2026-11-28T07:10:00Z", { BACKUP_EVERY: "6h", BACKUP_DIR: backups });
    // A second process: its own connection and worker over the same database file.
    const db2 = openDatabase({ path: t.deps.env.DATABASE_PATH });
    const other: AppDeps = { ...t.deps, db: db2, now: () => clock.now };
    try {
      scheduleBackups(t.deps);
      scheduleBackups(other);
      expect(t.deps.db.select().from(jobs).where(eq(jobs.kind, "backup")).all()).toHaveLength(2); // this period and the next, once each
      await Promise.all([tick(t.deps), tick(other)]);
      expect(archivesIn(backups)).toEqual(["plinth-2026-11-28T06-00-00Z.tar.gz"]);
      expect(backupHistory(t.deps.db)).toHaveLength(1);
      expect(logs.mock.calls.flat().filter((l) => String(l).startsWith("Scheduled backup"))).toHaveLength(1);
    } finally {
      closeDatabase(db2);
      t.close();
    }
  }, 120_000);

  it("keeps the older backups when a new one fails its verification, reports it, and deletes nothing until one passes", async () => {
    quiet();
    const backups = join(dir, "failing", "backups");
    const { t, clock } = await appAt("2026-11-28T07:10:00Z", { BACKUP_EVERY: "6h", BACKUP_DIR: backups, BACKUP_KEEP: "1" });
    try {
      scheduleBackups(t.deps);
      await tick(t.deps);
      expect(archivesIn(backups)).toEqual(["plinth-2026-11-28T06-00-00Z.tar.gz"]);

      // An upload the database names whose file is gone from PUBLISHED_DIR: the backup cannot hold it.
      const owner = createApiOwner(t, "plus");
      const key = "media/ab/abcdefabcdefabcdefabcdef.jpg";
      t.deps.db.insert(uploads).values({ id: newId(), userId: owner.userId, kind: "profile_picture", storageKey: key, contentType: "image/jpeg", bytes: 10 }).run();
      errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
      clock.now = new Date("2026-11-28T12:00:00Z");
      await tick(t.deps);
      expect(archivesIn(backups)).toEqual(["plinth-2026-11-28T06-00-00Z.tar.gz", "plinth-2026-11-28T12-00-00Z.failed.tar.gz"]);
      const reported = errors.mock.calls.map((c) => c.join(" ")).join("\n");
      expect(reported).toContain("Scheduled backup plinth-2026-11-28T12-00-00Z.failed.tar.gz FAILED its verification; no older backup was deleted.");
      expect(reported).toContain(`Problem: 1 upload(s) the database lists are not in the archive (${key}).`);
      expect(backupHistory(t.deps.db)[0]).toMatchObject({ state: "failed", name: "plinth-2026-11-28T12-00-00Z.failed.tar.gz" });

      // Fixed: the next backup passes, and only then do the older ones go.
      t.deps.db.delete(uploads).where(eq(uploads.storageKey, key)).run();
      clock.now = new Date("2026-11-28T18:00:00Z");
      await tick(t.deps);
      expect(archivesIn(backups)).toEqual(["plinth-2026-11-28T18-00-00Z.tar.gz"]);
    } finally {
      t.close();
    }
  }, 180_000);

  it("encrypts for an age recipient; only its identity reads the file, through backup:verify and restore", async () => {
    quiet();
    const backups = join(dir, "recipient", "backups");
    const identity = await generateX25519Identity();
    const recipient = await identityToRecipient(identity);
    const { t } = await appAt("2026-11-28T07:10:00Z", { BACKUP_EVERY: "1d", BACKUP_DIR: backups, BACKUP_AGE_RECIPIENT: recipient });
    try {
      scheduleBackups(t.deps);
      await tick(t.deps);
      expect(archivesIn(backups)).toEqual(["plinth-2026-11-28T00-00-00Z.tar.gz.age"]);
      const file = join(backups, "plinth-2026-11-28T00-00-00Z.tar.gz.age");
      expect(archiveKind(file)).toBe("recipient");
      expect(readFileSync(file).subarray(0, 200).toString("latin1")).toContain("age-encryption.org/v1\n-> X25519 ");
      expect(backupHistory(t.deps.db)[0]).toMatchObject({ state: "verified" });

      const idFile = join(dir, "recipient", "key.txt");
      writeFileSync(idFile, `# created: 2026-11-28\n# public key: ${recipient}\n${identity}\n`, { mode: 0o600 });
      const env = { ...process.env, NODE_ENV: "test", PUBLIC_ORIGIN: TEST_ORIGIN };
      const verified = await npmRun("backup:verify", [file], { ...env, BACKUP_AGE_IDENTITY_FILE: idFile });
      expect(verified.code).toBe(0);
      expect(verified.stdout).toContain("encrypted for an age recipient");
      expect(verified.stdout).toContain("The backup is verified: it restores whole.");
      // Without the identity and without a terminal to ask in, it says what to set.
      const refused = await npmRun("backup:verify", [file], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("is encrypted for an age recipient: set BACKUP_AGE_IDENTITY_FILE to the file holding its identity, or run the command in a terminal to be asked for it.");

      const target = { DATA_DIR: join(dir, "recipient", "restored", "data"), PUBLISHED_DIR: join(dir, "recipient", "restored", "published") };
      const restored = await npmRun("restore", [file], { ...env, ...target, BACKUP_AGE_IDENTITY_FILE: idFile });
      expect(restored.stderr).toBe("");
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(/re-rendered 1 page\(s\)/);
      // Nothing decrypted is left beside the restored database.
      expect(readdirSync(target.DATA_DIR).filter((n) => n.startsWith("."))).toEqual([]);
    } finally {
      t.close();
    }
  }, 400_000);
});

describe("two server processes on one data folder", () => {
  it("take each period's backup once between them", async () => {
    // The data folder of an app with a published page, then two real servers on it.
    const { t } = await appAt(new Date().toISOString(), {});
    const backups = join(dir, "processes", "backups");
    const env = {
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      LOG_REQUESTS: "0",
      PUBLIC_ORIGIN: TEST_ORIGIN,
      DATA_DIR: t.deps.env.DATA_DIR,
      PUBLISHED_DIR: t.deps.env.PUBLISHED_DIR,
      SITE_DIR: t.deps.env.SITE_DIR,
      BACKUP_EVERY: "1d",
      BACKUP_DIR: backups,
    };
    const servers: ServerProcess[] = [];
    try {
      servers.push(...(await Promise.all([startServerProcess({ ...env, PORT: String(await freePort()) }), startServerProcess({ ...env, PORT: String(await freePort()) })])));
      // Until a backup is verified and its job is done, read through the database both servers write.
      const settled = () =>
        backupHistory(t.deps.db).some((r) => r.state === "verified") &&
        t.deps.db.select().from(jobs).where(eq(jobs.kind, "backup")).all().some((j) => j.state === "done");
      for (let i = 0; i < 600 && !settled(); i++) await new Promise((r) => setTimeout(r, 250));
      expect(settled()).toBe(true);
      const runs = backupHistory(t.deps.db);
      // One archive per period (a test that runs across midnight UTC sees two periods), each taken by one server.
      expect(archivesIn(backups)).toEqual(runs.map((r) => r.name).sort());
      const stored = servers.flatMap((s) => s.output().split("\n")).filter((l) => l.startsWith("Scheduled backup "));
      expect(stored).toHaveLength(runs.length);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      t.close();
    }
  }, 300_000);
});

describe("npm run backup with a passphrase", () => {
  it("writes the archive encrypted, with no plain copy beside it", async () => {
    const { t } = await appAt("2026-11-28T07:10:00Z", {});
    try {
      const out = join(dir, "by-hand", "nightly.tar.gz.age");
      const env = { ...process.env, NODE_ENV: "test", PUBLIC_ORIGIN: TEST_ORIGIN, DATA_DIR: t.deps.env.DATA_DIR, PUBLISHED_DIR: t.deps.env.PUBLISHED_DIR, BACKUP_PASSPHRASE: PASSPHRASE };
      const made = await npmRun("backup", [out], env);
      expect(made.stderr).toBe("");
      expect(made.code).toBe(0);
      expect(made.stdout).toContain(`to ${out} encrypted with BACKUP_PASSPHRASE`);
      expect(archiveKind(out)).toBe("passphrase");
      expect(statSync(out).mode & 0o777).toBe(0o600);
      expect(readdirSync(join(dir, "by-hand"))).toEqual(["nightly.tar.gz.age"]);
      expect(readdirSync(t.deps.env.DATA_DIR).filter((n) => n.startsWith(".plinth-backup-"))).toEqual([]);
      const report = await verifyBackup({ archive: out, origin: TEST_ORIGIN, secrets: { passphrases: [PASSPHRASE] } });
      expect(report.problems).toEqual([]);
      expect(report.publishedPages).toBe(1);
    } finally {
      t.close();
    }
  }, 180_000);
});

describe("scheduled backups into a bucket", () => {
  let bucket: TestBucket;
  beforeAll(async () => {
    bucket = await startTestBucket("plinth-backups-test");
  });
  afterAll(() => bucket?.stop());

  it("puts each period's backup, encrypted with the passphrase, under the prefix, and keeps BACKUP_KEEP", async () => {
    quiet();
    const s3 = bucket.env();
    const { t, clock } = await appAt("2026-11-28T07:10:00Z", {
      BACKUP_EVERY: "6h",
      BACKUP_TARGET: "s3",
      BACKUP_KEEP: "1",
      BACKUP_PASSPHRASE: PASSPHRASE,
      S3_BUCKET: s3.S3_BUCKET!,
      S3_ENDPOINT: s3.S3_ENDPOINT!,
      S3_REGION: s3.S3_REGION!,
      AWS_ACCESS_KEY_ID: s3.AWS_ACCESS_KEY_ID!,
      AWS_SECRET_ACCESS_KEY: s3.AWS_SECRET_ACCESS_KEY!,
    });
    try {
      scheduleBackups(t.deps);
      await tick(t.deps);
      expect(await bucket.keys()).toEqual(["plinth-backups/plinth-2026-11-28T06-00-00Z.tar.gz.age"]);
      clock.now = new Date("2026-11-28T12:00:00Z");
      await tick(t.deps);
      expect(await bucket.keys()).toEqual(["plinth-backups/plinth-2026-11-28T12-00-00Z.tar.gz.age"]);
      // No plain copy or work folder is left in DATA_DIR.
      expect(readdirSync(t.deps.env.DATA_DIR).filter((n) => n.startsWith(".backup-"))).toEqual([]);

      const downloaded = join(dir, "bucket", "plinth-2026-11-28T12-00-00Z.tar.gz.age");
      mkdirSync(join(dir, "bucket"), { recursive: true });
      writeFileSync(downloaded, (await bucket.object("plinth-backups/plinth-2026-11-28T12-00-00Z.tar.gz.age"))!.body);
      expect(archiveKind(downloaded)).toBe("passphrase");
      const good = await verifyBackup({ archive: downloaded, origin: TEST_ORIGIN, secrets: { passphrases: [PASSPHRASE] } });
      expect(good.problems).toEqual([]);
      expect(good).toMatchObject({ encryption: "passphrase", integrity: ["ok"], publishedPages: 1 });
      const wrong = await verifyBackup({ archive: downloaded, origin: TEST_ORIGIN, secrets: { passphrases: ["not the passphrase at all"] } });
      expect(wrong.problems).toEqual([expect.stringContaining("cannot be decrypted with the passphrase given")]);

      const env = { ...process.env, NODE_ENV: "test", PUBLIC_ORIGIN: TEST_ORIGIN, DATA_DIR: join(dir, "bucket", "data"), PUBLISHED_DIR: join(dir, "bucket", "published") };
      const refused = await npmRun("restore", [downloaded], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("is encrypted with a passphrase: set BACKUP_PASSPHRASE, or run the command in a terminal to be asked for it.");
      expect(existsSync(join(env.DATA_DIR, "plinth.db"))).toBe(false);
      const restored = await npmRun("restore", [downloaded], { ...env, BACKUP_PASSPHRASE: PASSPHRASE });
      expect(restored.stderr).toBe("");
      expect(restored.code).toBe(0);
    } finally {
      t.close();
    }
  }, 400_000);
});

describe("the passphrase prompt", () => {
  it("asks in a terminal without echoing what is typed", async () => {
    const file = join(dir, "prompt.tar.gz.age");
    writeFileSync(`${file}.plain`, "x");
    await encryptFile(`${file}.plain`, file, { passphrase: PASSPHRASE });
    const ask = join(dir, "ask.mts");
    writeFileSync(ask, `import { secretsFor } from ${JSON.stringify(join(ROOT, "scripts/lib/backup-secrets.ts"))};\nconsole.log("got", JSON.stringify(await secretsFor(process.argv[2])));\n`);
    // A real terminal (util-linux's script gives the command one); the passphrase is typed once the question shows.
    const child = spawn("script", ["-qec", `npx tsx ${ask} ${file}`, "/dev/null"], { cwd: ROOT, env: { ...process.env, BACKUP_PASSPHRASE: "" }, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let typed = false;
    child.stdout.on("data", (d) => {
      out += String(d);
      if (!typed && out.includes("Passphrase for")) {
        typed = true;
        child.stdin.write(`${PASSPHRASE}\r`);
      }
    });
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    expect(out).toContain(`Passphrase for ${file}: `);
    expect(out).toContain(`got {"passphrases":[${JSON.stringify(PASSPHRASE)}]}`);
    // What was typed was not echoed.
    expect(out.split("got ")[0]).not.toContain(PASSPHRASE);
  }, 60_000);
});
