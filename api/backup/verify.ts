/**
 * Verifying a backup (ADR 160), what `npm run backup:verify` and every scheduled backup do: the
 * archive (decrypted first when it is encrypted) is restored into a temporary folder exactly as
 * `npm run restore` would restore it (manifest, sizes and checksums, the migration, every page
 * re-rendered), then SQLite checks the restored database (`PRAGMA integrity_check`, foreign keys)
 * and every published page is looked for where the render put it. The report says what was found;
 * `problems` is empty when the backup can be restored. Nothing outside the temporary folder is read
 * or written but the archive, and the folder is removed at the end.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { RepublishError } from "#renderer/republish.ts";
import { SUSPENDED_MARKER } from "#renderer/publish-target.ts";
import { UNAVAILABLE_HTML } from "#renderer/suspension.ts";
import { DATABASE_FILE, DOWNLOADS_FOLDER } from "./archive.ts";
import { archiveKind, type BackupSecrets } from "./encryption.ts";
import { OperatorError } from "./operator-error.ts";
import { restoreBackup } from "./restore.ts";

export interface VerifyReport {
  archive: string;
  /** How the archive was stored: plain, or encrypted with a passphrase or for a recipient. */
  encryption: "plain" | "passphrase" | "recipient";
  bytes: number;
  /** From the manifest, once it was read. */
  createdAt?: string;
  plinthVersion?: string;
  migration?: string;
  /** `PRAGMA integrity_check`'s answer: ["ok"] for a sound database. */
  integrity: string[];
  foreignKeyErrors: number;
  accounts: number;
  publishedPages: number;
  suspendedPages: number;
  /** Uploads the database lists, and those of them the archive did not hold. */
  uploads: number;
  missingUploads: string[];
  /** Files sold as paid downloads the database lists, and those of them the archive did not hold (ADR 238). */
  downloads: number;
  missingDownloads: string[];
  /** Pages the restore rendered, and the published pages that have no page file after it. */
  rendered: number;
  unrendered: string[];
  /** What is wrong; empty when the backup restores whole. */
  problems: string[];
}

export interface VerifyOptions {
  archive: string;
  /** PUBLIC_ORIGIN: pages are rendered for it, as a restore would. */
  origin: string;
  pagesOrigin?: string;
  secrets?: BackupSecrets;
  /** Where the temporary folder is made (default: the system's); it holds the decrypted database. */
  workDir?: string;
}

export async function verifyBackup(opts: VerifyOptions): Promise<VerifyReport> {
  if (!existsSync(opts.archive)) throw new OperatorError(`There is no backup at ${opts.archive}.`);
  const report: VerifyReport = {
    archive: opts.archive,
    encryption: archiveKind(opts.archive),
    bytes: statSync(opts.archive).size,
    integrity: [],
    foreignKeyErrors: 0,
    accounts: 0,
    publishedPages: 0,
    suspendedPages: 0,
    uploads: 0,
    missingUploads: [],
    downloads: 0,
    missingDownloads: [],
    rendered: 0,
    unrendered: [],
    problems: [],
  };
  const work = mkdtempSync(join(opts.workDir ?? tmpdir(), ".plinth-verify-"));
  try {
    const dataDir = join(work, "data");
    const databasePath = join(dataDir, DATABASE_FILE);
    const publishedDir = join(work, "published");
    try {
      const restored = await restoreBackup({ archive: opts.archive, secrets: opts.secrets, databasePath, publishedDir, origin: opts.origin, pagesOrigin: opts.pagesOrigin, threads: 1 });
      report.rendered = restored.pages;
      Object.assign(report, { createdAt: restored.manifest.createdAt, plinthVersion: restored.manifest.plinthVersion, migration: restored.manifest.migration });
    } catch (err) {
      if (!(err instanceof OperatorError) && !(err instanceof RepublishError)) throw err;
      report.problems.push(err.message);
      // A database already in place (the pages failed to render) is still checked below.
      if (!existsSync(databasePath)) return report;
    }
    inspect(report, databasePath, publishedDir, dataDir);
    return report;
  } catch (err) {
    if (err instanceof OperatorError) {
      report.problems.push(err.message);
      return report;
    }
    throw err;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Reads the restored database and folder into the report. */
function inspect(report: VerifyReport, databasePath: string, publishedDir: string, dataDir: string): void {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    report.integrity = (db.pragma("integrity_check") as Record<string, unknown>[]).map((row) => String(Object.values(row)[0]));
    if (report.integrity.join() !== "ok") report.problems.push(`SQLite's integrity check found: ${report.integrity.slice(0, 5).join("; ")}`);
    report.foreignKeyErrors = (db.pragma("foreign_key_check") as unknown[]).length;
    if (report.foreignKeyErrors) report.problems.push(`${report.foreignKeyErrors} row(s) point at rows that are not there (foreign_key_check).`);
    report.accounts = db.prepare("SELECT count(*) FROM users").pluck().get() as number;
    const pages = db.prepare("SELECT username, page_suspended_at IS NOT NULL AS suspended FROM user_profiles WHERE has_published_page = 1").all() as { username: string; suspended: number }[];
    const uploads = db.prepare("SELECT storage_key FROM uploads").pluck().all() as string[];
    report.uploads = uploads.length;
    report.missingUploads = uploads.filter((key) => !existsSync(join(publishedDir, key)));
    if (report.missingUploads.length) report.problems.push(`${report.missingUploads.length} upload(s) the database lists are not in the archive (${report.missingUploads.slice(0, 5).join(", ")}).`);
    const sold = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'download_files'").get() ? (db.prepare("SELECT storage_key FROM download_files").pluck().all() as string[]) : [];
    report.downloads = sold.length;
    report.missingDownloads = sold.filter((key) => !existsSync(join(dataDir, DOWNLOADS_FOLDER, key)));
    if (report.missingDownloads.length) report.problems.push(`${report.missingDownloads.length} sold file(s) the database lists are not in the archive (${report.missingDownloads.slice(0, 5).join(", ")}).`);
    for (const { username, suspended } of pages) {
      const page = join(publishedDir, username, "index.html");
      if (suspended) {
        report.suspendedPages++;
        // A suspended page is its unavailable page, and its marker for a static host (ADR 161).
        if (!existsSync(page) || readFileSync(page, "utf8") !== UNAVAILABLE_HTML || !existsSync(join(publishedDir, username, SUSPENDED_MARKER))) report.unrendered.push(username);
        continue;
      }
      report.publishedPages++;
      if (!existsSync(page) || !readFileSync(page, "utf8").includes("<!doctype html>")) report.unrendered.push(username);
    }
    if (report.unrendered.length) report.problems.push(`${report.unrendered.length} published page(s) were not rendered: ${report.unrendered.slice(0, 10).join(", ")}.`);
  } finally {
    db.close();
  }
}

/** The report as lines for an operator: what the archive holds, then each problem, or that it restores whole. */
export function reportLines(report: VerifyReport): string[] {
  const how = report.encryption === "plain" ? "not encrypted" : report.encryption === "passphrase" ? "encrypted with a passphrase" : "encrypted for an age recipient";
  const lines = [`${report.archive}: ${(report.bytes / 1e6).toFixed(1)} MB, ${how}.`];
  if (report.createdAt) lines.push(`Taken ${report.createdAt} by Plinth ${report.plinthVersion}, database at migration ${report.migration}.`);
  if (report.integrity.length) lines.push(`Database integrity: ${report.integrity.join() === "ok" ? "ok" : "damaged"}; foreign keys: ${report.foreignKeyErrors === 0 ? "ok" : `${report.foreignKeyErrors} broken`}.`);
  if (report.integrity.length) {
    lines.push(`${report.accounts} account(s), ${report.publishedPages} published page(s) and ${report.suspendedPages} suspended, ${report.uploads} upload(s) (${report.uploads - report.missingUploads.length} in the archive), ${report.downloads} sold file(s) (${report.downloads - report.missingDownloads.length} in the archive).`);
    lines.push(`Rendered ${report.rendered} page(s) for the check; ${report.unrendered.length === 0 ? "every published page has its file" : `${report.unrendered.length} have none`}.`);
  }
  for (const problem of report.problems) lines.push(`Problem: ${problem}`);
  lines.push(report.problems.length === 0 ? "The backup is verified: it restores whole." : `The backup FAILED its verification (${report.problems.length} problem(s)).`);
  return lines;
}
