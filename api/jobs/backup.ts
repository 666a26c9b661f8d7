/**
 * Scheduled backups on the job queue (ADR 160). Time is cut into periods of BACKUP_EVERY counted
 * from the Unix epoch, so every process computes the same ones; each period has one `backup` job
 * whose once key is the period's start, so however many processes queue it, it is queued once. The
 * process whose worker runs it first claims the period in `backup_runs` (a row with a lease it
 * renews while it works), so a second process that runs the same job meanwhile leaves it alone.
 *
 * The backup is taken and verified off the main thread (api/backup/scheduled.ts), stored in
 * BACKUP_DIR or the bucket, and only then are older ones deleted, keeping BACKUP_KEEP. A backup that
 * fails its verification is stored under a `.failed` name, deletes nothing and is reported on stderr
 * and in `backup_runs`; the next period takes a new one. A backup that could not be taken or stored
 * is retried by the queue.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { and, eq, lt, sql } from "drizzle-orm";
import { transaction, type Db } from "#db/client.ts";
import { backupRuns, jobs } from "#db/schema.ts";
import { bucketClient } from "#renderer/bucket-target.ts";
import { downloadsDir } from "../services/download-files.ts";
import type { ScheduledBackupInput, ScheduledBackupResult } from "../backup/scheduled.ts";
import { backupName, bucketStore, folderStore, parseBackupName, type BackupStore } from "../backup/store.ts";
import type { AppDeps } from "../context.ts";
import { pagesOrigin, type BackupSchedule, type Env } from "../env.server.ts";
import { enqueueJob } from "./queue.ts";
import { runJobs } from "./runner.ts";
import { log } from "../log.ts";

export interface BackupJob {
  /** The period's start (ISO 8601). */
  at: string;
}

/** How long a claim holds without being renewed: a process that died mid-backup frees its period then. */
export const BACKUP_LEASE_MS = 10 * 60_000;
const RENEW_EVERY_MS = 60_000;

export const periodStart = (now: Date, everyMs: number): Date => new Date(Math.floor(now.getTime() / everyMs) * everyMs);
const onceKey = (at: Date) => `backup:${at.toISOString()}`;

/** The store the schedule names: BACKUP_DIR, or the bucket under its prefix. */
export function backupStore(env: Env, schedule: BackupSchedule): BackupStore {
  if (schedule.target.kind === "folder") return folderStore(schedule.target.dir);
  const client = bucketClient({ region: env.S3_REGION!, endpoint: env.S3_ENDPOINT, accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY });
  return bucketStore(client, schedule.target.bucket, schedule.target.prefix);
}

/**
 * Queues the backup of the period now (due at once when it was not taken yet) and of the next one.
 * Idempotent: the server calls it at start, and each backup job calls it first, so the chain goes
 * on whatever becomes of one backup.
 */
export function scheduleBackups(deps: Pick<AppDeps, "db" | "env" | "now">): void {
  const schedule = deps.env.BACKUP;
  if (!schedule) return;
  const now = deps.now();
  const current = periodStart(now, schedule.everyMs);
  const next = new Date(current.getTime() + schedule.everyMs);
  transaction(deps.db, (tx) => {
    for (const at of [current, next]) enqueueJob(tx, { kind: "backup", payload: { at: at.toISOString() } satisfies BackupJob, onceKey: onceKey(at) }, now, at);
    // Done jobs of periods before the last one are never queued again: their keys can go.
    tx.delete(jobs)
      .where(and(eq(jobs.kind, "backup"), eq(jobs.state, "done"), lt(jobs.runAfter, new Date(current.getTime() - schedule.everyMs))))
      .run();
  });
}

/** At the server's start: says where backups go, and queues them. */
export function startBackups(deps: AppDeps): void {
  const schedule = deps.env.BACKUP;
  if (!schedule) return;
  const store = backupStore(deps.env, schedule);
  const hours = schedule.everyMs / 3_600_000;
  log().info(`Backups every ${hours >= 1 ? `${hours} h` : `${schedule.everyMs / 60_000} min`} to ${store.where}, keeping ${schedule.keep}${schedule.encryption ? ", encrypted" : ""}.`);
  if (!schedule.encryption) log().warn("Backups are not encrypted and hold password hashes and two-factor secrets: set BACKUP_PASSPHRASE or BACKUP_AGE_RECIPIENT (ADR 160).");
  scheduleBackups(deps);
  void runJobs(deps);
}

/** Takes the period for this process: true when no one has it, or when its holder's lease ran out. */
function claim(db: Db, at: Date, now: Date): boolean {
  const leaseUntil = new Date(now.getTime() + BACKUP_LEASE_MS);
  return (
    db
      .insert(backupRuns)
      .values({ at, state: "running", leaseUntil, startedAt: now })
      .onConflictDoUpdate({
        target: backupRuns.at,
        set: { leaseUntil, startedAt: now, detail: "" },
        setWhere: and(eq(backupRuns.state, "running"), lt(backupRuns.leaseUntil, now)),
      })
      .run().changes === 1
  );
}

/** How the server runs the backup's work; tests pass their own clock through deps and this through runBackupJob. */
export type TakeBackup = (input: ScheduledBackupInput) => Promise<ScheduledBackupResult>;

/**
 * The backup's own modules (the archive, age, the verification) load with the first backup, not with
 * every process (ADR 253).
 */
const takeOffThread: TakeBackup = async (input) => (await import("../backup/scheduled.ts")).takeVerifiedBackupOffThread(input);

/** The `backup` job. */
export async function runBackupJob(deps: AppDeps, job: BackupJob, take: TakeBackup = takeOffThread): Promise<void> {
  const schedule = deps.env.BACKUP;
  if (!schedule) return;
  scheduleBackups(deps);
  const at = new Date(job.at);
  const now = deps.now();
  // A period that ended while no server ran: the backup of the period now stands for it.
  if (now.getTime() >= at.getTime() + schedule.everyMs) return;
  if (!claim(deps.db, at, now)) return;
  const renew = setInterval(() => {
    deps.db.update(backupRuns).set({ leaseUntil: new Date(deps.now().getTime() + BACKUP_LEASE_MS) }).where(and(eq(backupRuns.at, at), eq(backupRuns.state, "running"))).run();
  }, RENEW_EVERY_MS);
  renew.unref();
  // The plain archive and the verification's restore hold what the database holds: beside it.
  const workDir = mkdtempSync(join(deps.env.DATA_DIR, ".backup-"));
  const store = backupStore(deps.env, schedule);
  try {
    const result = await take({
      databasePath: deps.env.DATABASE_PATH,
      publishedDir: deps.env.PUBLISHED_DIR,
      siteDir: deps.env.SITE_DIR,
      downloadsDir: downloadsDir(deps.env.DATA_DIR),
      workDir,
      encryption: schedule.encryption,
      origin: deps.env.PUBLIC_ORIGIN,
      pagesOrigin: pagesOrigin(deps.env),
      at: at.toISOString(),
    });
    const failed = result.report.problems.length > 0;
    const name = backupName(at, { failed, encrypted: result.encrypted });
    await store.put(result.file, name);
    const { reportLines } = await import("../backup/verify.ts");
    const lines = reportLines({ ...result.report, archive: `${store.where}${store.where.endsWith("/") ? "" : "/"}${name}` });
    for (const key of result.missingMedia) lines.splice(1, 0, `Warning: ${key} is named in the database but was not in PUBLISHED_DIR; the backup does not hold it.`);
    deps.db
      .update(backupRuns)
      .set({ state: failed ? "failed" : "verified", name, bytes: result.bytes, detail: lines.join("\n"), finishedAt: deps.now() })
      .where(eq(backupRuns.at, at))
      .run();
    if (failed) {
      log().error({ found: lines }, `Scheduled backup ${name} FAILED its verification; no older backup was deleted.`);
      return;
    }
    const deleted = await keepNewest(store, schedule.keep);
    pruneRuns(deps.db, deleted.oldestKept);
    log().info(`Scheduled backup ${name} stored in ${store.where} and verified${deleted.names.length ? `; deleted ${deleted.names.join(", ")}` : ""}.`);
  } catch (err) {
    // Not taken or not stored: the period is freed for the queue's retry.
    deps.db.delete(backupRuns).where(eq(backupRuns.at, at)).run();
    throw err;
  } finally {
    clearInterval(renew);
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * Deletes scheduled backups beyond the newest `keep` verified ones, and failed ones older than the
 * oldest kept (a newer verified backup stands for them). Other files are left alone.
 */
async function keepNewest(store: BackupStore, keep: number): Promise<{ names: string[]; oldestKept: Date | null }> {
  const found = (await store.list()).flatMap((name) => {
    const parsed = parseBackupName(name);
    return parsed ? [{ name, ...parsed }] : [];
  });
  const good = found.filter((b) => !b.failed).sort((a, b) => b.at.getTime() - a.at.getTime());
  const kept = good.slice(0, keep);
  const oldestKept = kept.at(-1)?.at ?? null;
  const doomed = [...good.slice(keep), ...found.filter((b) => b.failed && oldestKept !== null && b.at < oldestKept)];
  for (const b of doomed) await store.remove(b.name);
  return { names: doomed.map((b) => b.name).sort(), oldestKept };
}

/** The record keeps the periods of the backups still stored. */
function pruneRuns(db: Db, oldestKept: Date | null): void {
  if (oldestKept) db.delete(backupRuns).where(lt(backupRuns.at, oldestKept)).run();
}

/** The last scheduled backups as `backup_runs` records them, newest first (for the operator, and tests). */
export function backupHistory(db: Db) {
  return db.select().from(backupRuns).orderBy(sql`${backupRuns.at} DESC`).all();
}
