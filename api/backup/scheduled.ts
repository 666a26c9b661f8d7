/**
 * One scheduled backup's work (ADR 160), off the server's main thread: the archive is taken as
 * `npm run backup` takes it, encrypted when the configuration says so, then verified as
 * `npm run backup:verify` verifies a file, on exactly the bytes that will be stored. With an age
 * recipient the server cannot read what it wrote, so the archive is also encrypted for a key made
 * for this one check and forgotten after it.
 */
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { BackupSchedule } from "../env.server.ts";
import { createBackup } from "./create.ts";
import { encryptFile, type BackupSecrets } from "./encryption.ts";
import { verifyBackup, type VerifyReport } from "./verify.ts";

export interface ScheduledBackupInput {
  databasePath: string;
  publishedDir: string;
  siteDir: string;
  /** DATA_DIR/downloads: the sold files go into the archive too (ADR 238). */
  downloadsDir?: string;
  /** A private folder for the archive and the verification's restore (under DATA_DIR). */
  workDir: string;
  encryption: BackupSchedule["encryption"];
  origin: string;
  pagesOrigin?: string;
  /** The period's instant, recorded in the manifest. */
  at: string;
}

export interface ScheduledBackupResult {
  /** The archive to store, in workDir. */
  file: string;
  bytes: number;
  encrypted: boolean;
  report: VerifyReport;
  /** Uploads the database names that were not on disk when the backup was taken. */
  missingMedia: string[];
}

export async function takeVerifiedBackup(input: ScheduledBackupInput): Promise<ScheduledBackupResult> {
  const plain = join(input.workDir, "archive.tar.gz");
  const taken = await createBackup({ databasePath: input.databasePath, publishedDir: input.publishedDir, downloadsDir: input.downloadsDir, siteDir: input.siteDir, out: plain, now: new Date(input.at) });
  let file = plain;
  let secrets: BackupSecrets = {};
  if (input.encryption) {
    file = `${plain}.age`;
    const ephemeral = await encryptFile(plain, file, input.encryption, { alsoEphemeral: true });
    rmSync(plain);
    secrets = "passphrase" in input.encryption ? { passphrases: [input.encryption.passphrase] } : { identities: [ephemeral!] };
  }
  const report = await verifyBackup({ archive: file, origin: input.origin, pagesOrigin: input.pagesOrigin, secrets, workDir: input.workDir });
  return { file, bytes: statSync(file).size, encrypted: input.encryption !== null, report, missingMedia: taken.missingMedia };
}

/** The worker thread's entry, which loads its TypeScript through tsx like the server. */
const workerUrl = new URL("./scheduled-worker.mjs", import.meta.url);

/** `takeVerifiedBackup` on a worker thread of its own, so the server's requests are not held up. */
export function takeVerifiedBackupOffThread(input: ScheduledBackupInput): Promise<ScheduledBackupResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: input, execArgv: [] });
    let settled = false;
    worker.once("message", (m: { ok: ScheduledBackupResult } | { error: string }) => {
      settled = true;
      if ("ok" in m) resolve(m.ok);
      else reject(new Error(m.error));
    });
    worker.once("error", (err) => {
      settled = true;
      reject(err);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`the backup thread exited with ${code}`));
    });
  });
}
