/**
 * npm run backup: one archive (api/backup/archive.ts) with a consistent snapshot of the
 * database, every uploaded file and every file sold as a paid download (DATA_DIR/downloads, ADR
 * 238), taken while the server runs and takes writes (ADR 006). Sold files are written before their
 * row and removed only after it, like media, so they are collected the same way.
 *
 * The database is copied with SQLite's online backup API in one step, which reads it inside one
 * read transaction: the copy holds every transaction committed before that step began, WAL
 * included, and nothing of a later one; writers are not blocked meanwhile. Media files are
 * immutable (a new upload gets a new random name, written before the row that uses it; a file goes
 * only after its row), so they are hard-linked into a staging folder before and after the snapshot:
 * a file a row of the snapshot names was written before the snapshot, so the first pass finds it,
 * or the second if it is newer than the first (unless it was replaced and swept in between: the
 * snapshot is then taken again).
 */
import { chmodSync, copyFileSync, createWriteStream, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import Database from "better-sqlite3";
import { create as createTar } from "tar";
import pkg from "../../package.json" with { type: "json" };
import { isMediaKey } from "#api/storage/media.ts";
import { fsyncDir } from "#renderer/atomic-write.ts";
import { DATABASE_FILE, DOWNLOADS_FOLDER, FORMAT, isDownloadKey, FORMAT_VERSION, knownMigrations, MANIFEST_FILE, sha256OfFile, type Manifest } from "./archive.ts";
import { encryptFile, type BackupEncryption } from "./encryption.ts";
import { OperatorError } from "./operator-error.ts";

/** Pages per backup step: all of them, so the copy is made inside one read transaction. */
const ALL_PAGES = 0x7fffffff;
/** Snapshots taken at most while uploads are being swept under the backup's feet. */
const MAX_SNAPSHOTS = 5;

export interface BackupOptions {
  databasePath: string;
  publishedDir: string;
  /** DATA_DIR/downloads: the files paid downloads sell (api/services/download-files.ts); none when not given. */
  downloadsDir?: string;
  /** SITE_DIR: served to anyone like PUBLISHED_DIR, so no backup goes under it either. */
  siteDir?: string;
  /** The archive to write; it must not exist yet. */
  out: string;
  now?: Date;
  /** Encrypt the archive (ADR 160): written to `out` only once encrypted. */
  encryption?: BackupEncryption | null;
  /**
   * Where the snapshot and the archive are put together before `out` is written (default: beside
   * `out`). With encryption, a private folder on the machine (DATA_DIR), so no plain copy reaches
   * the place the backup goes.
   */
  stagingDir?: string;
  /** Called after each database snapshot, before media are collected again (tests change the data there). */
  onSnapshot?: (attempt: number) => void | Promise<void>;
}

export interface BackupResult {
  out: string;
  bytes: number;
  manifest: Manifest;
  /** Media keys the snapshot's uploads (and downloads/ keys its sold files) name that were not on disk (removed by hand, or a bucket's). */
  missingMedia: string[];
}

export async function createBackup(opts: BackupOptions): Promise<BackupResult> {
  const out = resolve(opts.out);
  const publishedDir = resolve(opts.publishedDir);
  // The archive holds password hashes and two-factor secrets: never where the server serves files,
  // however the path reaches there (compared after every symbolic link is followed; again once the
  // folder is made, in case a link only resolves then).
  const refuseServed = () => {
    const real = realPathOf(out);
    for (const [name, dir] of [["PUBLISHED_DIR", publishedDir], ["SITE_DIR", opts.siteDir]] as const) {
      if (dir === undefined) continue;
      const served = realPathOf(resolve(dir));
      if (real === served || real.startsWith(served + sep)) {
        throw new OperatorError(`${out} is inside ${name} (${served}), where anyone could download it: write the backup somewhere else.`);
      }
    }
  };
  refuseServed();
  if (existsSync(out)) throw new OperatorError(`${out} already exists: name a new file.`);
  if (!existsSync(opts.databasePath)) throw new OperatorError(`There is no database at ${opts.databasePath}: check DATA_DIR.`);
  mkdirSync(dirname(out), { recursive: true });
  refuseServed();
  const staging = mkdtempSync(join(opts.stagingDir ?? dirname(out), ".plinth-backup-"));
  try {
    const mediaDir = join(publishedDir, "media");
    const media = new Set<string>();
    const { migration, missing } = await snapshotWithMedia(opts.databasePath, mediaDir, opts.downloadsDir, staging, media, opts.onSnapshot);

    const paths = [DATABASE_FILE, ...[...media].sort()];
    const downloads = paths.filter((p) => p.startsWith(`${DOWNLOADS_FOLDER}/`)).length;
    const files = [];
    for (const path of paths) files.push({ path, bytes: statSync(join(staging, path)).size, sha256: await sha256OfFile(join(staging, path)) });
    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: (opts.now ?? new Date()).toISOString(),
      plinthVersion: pkg.version,
      migration,
      counts: { media: media.size - downloads, downloads },
      files,
    };
    writeFileSync(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);

    // Owner-only: the archive holds password hashes and sessions.
    const partial = join(staging, "archive.partial");
    await pipeline(createTar({ gzip: true, cwd: staging, portable: true }, [MANIFEST_FILE, ...paths]), createWriteStream(partial, { flags: "wx", mode: 0o600, flush: true }));
    chmodSync(partial, 0o600);
    let made = partial;
    if (opts.encryption) {
      made = `${partial}.age`;
      await encryptFile(partial, made, opts.encryption);
    }
    moveInto(made, out);
    fsyncDir(dirname(out));
    return { out, bytes: statSync(out).size, manifest, missingMedia: missing };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Renames `from` to `out`, or across file systems copies it beside `out` under a dot name first, so `out` appears whole. */
function moveInto(from: string, out: string): void {
  try {
    renameSync(from, out);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
    const partial = join(dirname(out), `.${basename(out)}.partial`);
    try {
      copyFileSync(from, partial);
      chmodSync(partial, 0o600);
      renameSync(partial, out);
    } finally {
      rmSync(partial, { force: true });
    }
  }
}

/** The path with every symbolic link of its existing part followed; the part not yet made is kept as written. */
function realPathOf(path: string): string {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const rest = relative(existing, path);
  const base = realpathSync(existing);
  return rest ? join(base, rest) : base;
}

/**
 * Snapshots the database between two passes over the media folder. Should a file the snapshot names
 * be swept between the passes (replaced and removed by its owner meanwhile), the next snapshot no
 * longer names it: snapshots are retaken until the missing files are only those that were missing
 * before, if any.
 */
async function snapshotWithMedia(
  databasePath: string,
  mediaDir: string,
  downloadsDir: string | undefined,
  staging: string,
  media: Set<string>,
  onSnapshot: BackupOptions["onSnapshot"],
): Promise<{ migration: string; missing: string[] }> {
  let missing: string[] = [];
  const collect = () => {
    linkMedia(mediaDir, staging, media);
    if (downloadsDir) linkDownloads(downloadsDir, staging, media);
  };
  for (let attempt = 1; ; attempt++) {
    collect();
    const { migration, uploadKeys } = await snapshotDatabase(databasePath, join(staging, DATABASE_FILE), downloadsDir !== undefined);
    await onSnapshot?.(attempt);
    collect();
    const gone = uploadKeys.filter((k) => !media.has(k));
    const settled = gone.every((k) => missing.includes(k));
    missing = gone;
    if (settled || attempt === MAX_SNAPSHOTS) return { migration, missing };
  }
}

interface Snapshot {
  migration: string;
  uploadKeys: string[];
}

/**
 * Copies the database to target and reads the copy's last migration and the media its uploads
 * name. The copy is switched to a rollback journal, so the archived file is complete on its own
 * (a WAL database would want its -wal beside it).
 */
async function snapshotDatabase(source: string, target: string, withDownloads: boolean): Promise<Snapshot> {
  rmSync(target, { force: true });
  const live = new Database(source, { readonly: true, fileMustExist: true });
  try {
    live.pragma("busy_timeout = 5000");
    await live.backup(target, { progress: () => ALL_PAGES });
  } finally {
    live.close();
  }
  const db = new Database(target, { fileMustExist: true });
  try {
    db.pragma("journal_mode = DELETE");
    const at = db.prepare("SELECT max(created_at) FROM __drizzle_migrations").pluck().get();
    const migration = knownMigrations().find((m) => m.when === Number(at))?.tag;
    if (!migration) throw new OperatorError("The database is at a migration this copy of Plinth does not know: run the backup with the Plinth version the server runs.");
    const uploadKeys = db.prepare("SELECT storage_key FROM uploads").pluck().all() as string[];
    // A database from before paid downloads has no such table.
    const sold = withDownloads && db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'download_files'").get();
    if (sold) for (const key of db.prepare("SELECT storage_key FROM download_files").pluck().all() as string[]) uploadKeys.push(`${DOWNLOADS_FOLDER}/${key}`);
    return { migration, uploadKeys };
  } finally {
    db.close();
  }
}

/** Hard-links (or, across file systems, copies) each media file not yet staged into staging/media. */
function linkMedia(mediaDir: string, staging: string, staged: Set<string>): void {
  if (!existsSync(mediaDir)) return;
  for (const folder of readdirSync(mediaDir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const name of readdirSync(join(mediaDir, folder.name))) {
      const key = `media/${folder.name}/${name}`;
      // Temporary files of a write under way are dot files, which are no keys.
      if (!isMediaKey(key) || staged.has(key)) continue;
      stageFile(join(mediaDir, folder.name, name), staging, key, staged);
    }
  }
}

/** The same for the sold files of DATA_DIR/downloads, as downloads/<name> (a write under way ends in .tmp, no key). */
function linkDownloads(downloadsDir: string, staging: string, staged: Set<string>): void {
  if (!existsSync(downloadsDir)) return;
  for (const name of readdirSync(downloadsDir)) {
    const key = `${DOWNLOADS_FOLDER}/${name}`;
    if (!isDownloadKey(key) || staged.has(key)) continue;
    stageFile(join(downloadsDir, name), staging, key, staged);
  }
}

function stageFile(from: string, staging: string, key: string, staged: Set<string>): void {
  const to = join(staging, key);
  mkdirSync(dirname(to), { recursive: true });
  try {
    try {
      linkSync(from, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw err;
      copyFileSync(from, to);
    }
  } catch (err) {
    // Removed since the folder was listed (its row went first): nothing to keep.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  staged.add(key);
}
