/**
 * npm run restore: puts a backup (api/backup/create.ts) back into DATA_DIR (the database and the
 * sold files of DATA_DIR/downloads, ADR 238) and PUBLISHED_DIR and re-renders every published page
 * (ADR 006).
 *
 * Nothing is touched before the whole archive has been read and checked against its manifest, and
 * never while another process has the database open (a running server). The files are then written
 * into staging folders beside their targets, checked again as they are written, the database is
 * migrated there, and each is renamed into place. Folders that already hold data are refused
 * unless `force` is set; what is replaced is then moved aside, never deleted.
 */
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statfsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import type { PublishTarget } from "#renderer/publish-target.ts";
import { fsyncDir } from "#renderer/atomic-write.ts";
import { ENCODINGS } from "#renderer/precompress.ts";
import { republishAll } from "#renderer/republish.ts";
import { DATABASE_FILE, DOWNLOADS_FOLDER, isDownloadKey, knownMigrations, readArchive, type ArchiveRoom, type Manifest } from "./archive.ts";
import { archiveKind, decryptFile, type BackupSecrets } from "./encryption.ts";
import { OperatorError } from "./operator-error.ts";

export interface RestoreOptions {
  archive: string;
  databasePath: string;
  publishedDir: string;
  /** PUBLIC_ORIGIN: the pages are rendered for it, as the server would. */
  origin: string;
  /** Where visitors reach the pages, when not `origin` (a bucket's CDN). */
  pagesOrigin?: string;
  /**
   * The publish target the pages are re-rendered into, made once the database is in place (ADR 135):
   * PUBLISHED_DIR itself when none is given.
   */
  target?: (db: Db) => PublishTarget;
  /**
   * Runs once the uploads are back in the folder, before any page is rendered: with a bucket, they
   * go up first, so no restored page names one the bucket lacks.
   */
  beforePages?: () => Promise<void>;
  /** What decrypts an encrypted archive (ADR 160): its passphrase or age identity. */
  secrets?: BackupSecrets;
  /** Replace data already in the folders (moved aside) instead of refusing. */
  force?: boolean;
  now?: Date;
  /** Threads rendering the pages (default: every core); a verification renders on its own thread (1). */
  threads?: number;
  /** The bytes free on the file system holding a folder (tests make a disk small); statfs by default. */
  freeBytes?: (folder: string) => number;
}

export interface RestoreResult {
  manifest: Manifest;
  /** Pages re-rendered. */
  pages: number;
  /** Where replaced data was moved (with `force`). */
  movedAside: string[];
}

const DATABASE_FILES = ["", "-wal", "-shm"];
/**
 * Loose files restore rewrites at the root of PUBLISHED_DIR, with their compressed copies (ADR 054);
 * every folder not a dot folder is rewritten too.
 */
const PUBLISHED_ROOT_FILES = new Set(["sitemap.xml", "robots.txt"].flatMap((name) => [name, ...ENCODINGS.map((e) => name + e.suffix)]));

export async function restoreBackup(opts: RestoreOptions): Promise<RestoreResult> {
  const archive = resolve(opts.archive);
  const databasePath = resolve(opts.databasePath);
  const dataDir = dirname(databasePath);
  const publishedDir = resolve(opts.publishedDir);
  if (!existsSync(archive)) throw new OperatorError(`There is no backup at ${archive}.`);

  refuseWhileOpen(databasePath);
  const replaced = replacedData(databasePath, publishedDir);
  if (replaced.length && !opts.force) {
    throw new OperatorError(
      `${replaced.join(" and ")}. Restore into empty folders, or add --force to replace what is there (it is moved aside, not deleted).`,
    );
  }
  // An encrypted archive (ADR 160) is decrypted first, beside the database it becomes.
  let source = archive;
  let decrypted: string | undefined;
  try {
    if (archiveKind(archive) !== "plain") {
      mkdirSync(dataDir, { recursive: true });
      decrypted = mkdtempSync(join(dataDir, ".restore-decrypted-"));
      source = join(decrypted, "archive.tar.gz");
      await decryptFile(archive, source, opts.secrets ?? {});
    }
    return await restoreChecked(opts, { archive, source, databasePath, dataDir, publishedDir });
  } finally {
    if (decrypted) rmSync(decrypted, { recursive: true, force: true });
  }
}

/** The restore once the archive is plain (`source`); messages name the archive as given. */
async function restoreChecked(
  opts: RestoreOptions,
  { archive, source, databasePath, dataDir, publishedDir }: { archive: string; source: string; databasePath: string; dataDir: string; publishedDir: string },
): Promise<RestoreResult> {
  const room = roomFor(dataDir, publishedDir, opts.freeBytes ?? freeBytesOf);
  const manifest = await readArchive(source, undefined, room, archive);
  if (!knownMigrations().some((m) => m.tag === manifest.migration)) {
    throw new OperatorError(
      `${archive} holds a database at migration ${manifest.migration}, which this Plinth does not know; restore it with Plinth ${manifest.plinthVersion} or later.`,
    );
  }

  mkdirSync(dataDir, { recursive: true });
  mkdirSync(publishedDir, { recursive: true });
  const stagedData = mkdtempSync(join(dataDir, ".restore-"));
  const stagedPublished = mkdtempSync(join(publishedDir, ".restore-"));
  const movedAside: string[] = [];
  try {
    await readArchive(source, (file) => {
      const path = join(file.path === DATABASE_FILE || isDownloadKey(file.path) ? stagedData : stagedPublished, file.path);
      mkdirSync(dirname(path), { recursive: true });
      return createWriteStream(path, { flags: "wx", flush: true });
    }, room, archive);
    // A backup of an older Plinth is brought up to this one's schema before it goes into place.
    const staged = join(stagedData, DATABASE_FILE);
    closeDatabase(openDatabase({ path: staged }));

    refuseWhileOpen(databasePath);
    if (opts.force) movedAside.push(...moveAside(databasePath, publishedDir, opts.now ?? new Date()));
    renameSync(staged, databasePath);
    if (existsSync(join(stagedData, DOWNLOADS_FOLDER))) renameSync(join(stagedData, DOWNLOADS_FOLDER), join(dataDir, DOWNLOADS_FOLDER));
    fsyncDir(dataDir);
    if (existsSync(join(stagedPublished, "media"))) renameSync(join(stagedPublished, "media"), join(publishedDir, "media"));
    fsyncDir(publishedDir);
  } finally {
    rmSync(stagedData, { recursive: true, force: true });
    rmSync(stagedPublished, { recursive: true, force: true });
  }

  await opts.beforePages?.();
  const db = openDatabase({ path: databasePath });
  try {
    const pages = await republishAll(db, { publishedDir, origin: opts.origin, pagesOrigin: opts.pagesOrigin, target: opts.target?.(db), threads: opts.threads });
    return { manifest, pages, movedAside };
  } finally {
    closeDatabase(db);
  }
}

/** The folder itself, or its nearest parent that exists (where it will be made). */
function existingAncestor(folder: string): string {
  let at = folder;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

function freeBytesOf(folder: string): number {
  const fs = statfsSync(folder);
  return fs.bavail * fs.bsize;
}

/** What the archive may write into each folder, and into both when they share one file system. */
function roomFor(dataDir: string, publishedDir: string, freeBytes: (folder: string) => number): ArchiveRoom {
  const data = existingAncestor(dataDir);
  const published = existingAncestor(publishedDir);
  const databaseBytes = freeBytes(data);
  const mediaBytes = freeBytes(published);
  const shared = statSync(data).dev === statSync(published).dev;
  return { databaseBytes, mediaBytes, totalBytes: shared ? Math.min(databaseBytes, mediaBytes) : databaseBytes + mediaBytes };
}

/**
 * A server keeps its connection open, and in WAL mode every open connection holds a shared lock on
 * the database file. A connection in exclusive locking mode takes an exclusive lock at its first
 * read and fails at once (timeout 0) while any other process holds one: the database is in use.
 */
export function databaseInUse(path: string): boolean {
  if (!existsSync(path)) return false;
  const probe = new Database(path, { fileMustExist: true, timeout: 0 });
  try {
    probe.pragma("locking_mode = EXCLUSIVE");
    probe.prepare("SELECT count(*) FROM sqlite_master").get();
    return false;
  } catch (err) {
    if ((err as { code?: string }).code === "SQLITE_BUSY") return true;
    // Not a database (or a damaged one): no server has it open as its database.
    return false;
  } finally {
    probe.close();
  }
}

function refuseWhileOpen(databasePath: string): void {
  if (databaseInUse(databasePath)) {
    throw new OperatorError(`${databasePath} is open in another process (a running Plinth server?). Stop the server, then restore.`);
  }
}

/** Each target that already holds what restore writes, described for the refusal; empty when none does. */
function replacedData(databasePath: string, publishedDir: string): string[] {
  const out: string[] = [];
  if (DATABASE_FILES.some((suffix) => existsSync(databasePath + suffix))) out.push(`DATA_DIR already holds a database (${databasePath})`);
  else if (soldFiles(dirname(databasePath))) out.push(`DATA_DIR already holds sold files (${join(dirname(databasePath), DOWNLOADS_FOLDER)})`);
  if (publishedEntries(publishedDir).length) out.push(`PUBLISHED_DIR already holds pages or media (${publishedDir})`);
  return out;
}

/** Whether DATA_DIR/downloads holds anything. */
function soldFiles(dataDir: string): boolean {
  const dir = join(dataDir, DOWNLOADS_FOLDER);
  return existsSync(dir) && readdirSync(dir).length > 0;
}

/** What restore rewrites in PUBLISHED_DIR: every folder (pages, shared assets, media) and the SEO files. Dot entries are never served. */
function publishedEntries(publishedDir: string): string[] {
  if (!existsSync(publishedDir)) return [];
  return readdirSync(publishedDir, { withFileTypes: true })
    .filter((e) => !e.name.startsWith(".") && (e.isDirectory() || PUBLISHED_ROOT_FILES.has(e.name)))
    .map((e) => e.name);
}

/** Moves the database into DATA_DIR/replaced-<time>/ and what restore rewrites in PUBLISHED_DIR into PUBLISHED_DIR/.replaced-<time>/. */
function moveAside(databasePath: string, publishedDir: string, now: Date): string[] {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const moved: string[] = [];
  const move = (from: string, folder: string) => {
    mkdirSync(folder, { recursive: true });
    renameSync(from, join(folder, basename(from)));
    if (!moved.includes(folder)) moved.push(folder);
  };
  const dataAside = join(dirname(databasePath), `replaced-${stamp}`);
  for (const suffix of DATABASE_FILES) if (existsSync(databasePath + suffix)) move(databasePath + suffix, dataAside);
  if (existsSync(join(dirname(databasePath), DOWNLOADS_FOLDER))) move(join(dirname(databasePath), DOWNLOADS_FOLDER), dataAside);
  const publishedAside = join(publishedDir, `.replaced-${stamp}`);
  for (const name of publishedEntries(publishedDir)) move(join(publishedDir, name), publishedAside);
  return moved;
}
