/**
 * Crash-safe file replacement: write a new temporary file beside the target, fsync it, rename it over
 * the target, fsync the directory. A crash at any instant leaves the old file or the new one, never
 * a mix, and no file is ever rewritten in place: a reader that holds the old file open (a static
 * server still sending it, rsync, a backup) keeps reading the old bytes (ADR 097). stageFiles,
 * syncStaged, swapStaged and syncFoldersOf do the same for many files at once, fsynced in parallel on
 * Node's thread pool.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsync,
  fsyncSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { PageFile } from "./types.ts";

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** mkdir -p that also makes the new directories' entries durable. */
export function ensureDirDurably(dir: string): void {
  const first = mkdirSync(dir, { recursive: true });
  if (!first) return;
  // Every directory from the first one created down to `dir` is a new entry in its parent.
  const created: string[] = [];
  for (let d = dir; d.length >= first.length; d = dirname(d)) created.unshift(d);
  for (const d of created) fsyncDir(dirname(d));
}

// Unique per process and thread without asking for random bytes on every file: a random prefix
// drawn once, then a counter.
const tmpPrefix = `.tmp-${randomBytes(6).toString("hex")}-`;
let tmpCounter = 0;
const tmpName = (dir: string) => join(dir, `${tmpPrefix}${(tmpCounter++).toString(36)}`);

/** A new temporary file beside `path`, its folders created when missing (asked only then). */
function openTemp(path: string): { fd: number; tmp: string } {
  const dir = dirname(path);
  const tmp = tmpName(dir);
  try {
    return { fd: openSync(tmp, "w", 0o644), tmp };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  ensureDirDurably(dir);
  return { fd: openSync(tmp, "w", 0o644), tmp };
}

/** Writes everything from the start of the file and returns the number of bytes written. */
function writeAll(fd: number, content: string | Uint8Array): number {
  if (typeof content === "string") {
    // A string is written as it is: encoding it into a Buffer first allocates memory outside the
    // heap for every page, and that allocation is what sets off garbage collections in bulk republish.
    const length = Buffer.byteLength(content);
    const written = writeSync(fd, content, 0);
    if (written === length) return length;
    const rest = Buffer.from(content).subarray(written);
    for (let off = 0; off < rest.length; ) off += writeSync(fd, rest, off, rest.length - off, written + off);
    return length;
  }
  for (let off = 0; off < content.length; ) off += writeSync(fd, content, off, content.length - off, off);
  return content.length;
}

/** Rename the written temporary file over the target; on failure the temporary file is removed. */
function swapIn(tmp: string, path: string): void {
  try {
    renameSync(tmp, path);
  } catch (err) {
    tryUnlink(tmp);
    throw err;
  }
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

export interface WriteOptions {
  /** The file's modification time: the instant the content was rendered for (its Last-Modified; compressed copies share it). */
  mtime?: Date;
}

export function writeFileAtomic(path: string, content: string | Uint8Array, opts: WriteOptions = {}): void {
  const t = stageFile({ path, content, mtime: opts.mtime });
  try {
    fsyncSync(t.fd);
  } catch (err) {
    discardStaged([t]);
    throw err;
  }
  closeSync(t.fd);
  swapIn(t.tmp, path);
  fsyncDir(dirname(path));
}

/**
 * Whether a per-page file on disk already holds what `file` would write: a file named by its content
 * that exists does (it was swapped in whole). One lstat, as bulk republish asks it of every page.
 */
export function fileIsCurrent(path: string, file: PageFile): boolean {
  return file.immutable === true && lstatSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

export function contentOf(file: PageFile): string | Uint8Array {
  return typeof file.content === "function" ? file.content() : file.content;
}

export interface PendingWrite extends WriteOptions {
  path: string;
  content: string | Uint8Array;
}

const fsyncAsync = (fd: number) => new Promise<void>((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));

/** A file written to its temporary name and not yet fsynced or renamed over its target. */
export interface StagedFile {
  fd: number;
  tmp: string;
  path: string;
}

/**
 * Write one file's bytes to a temporary file beside it; nothing is replaced yet. Called as soon as
 * the bytes exist, so a page's HTML is garbage as soon as it is written (bulk republish renders a
 * page and stages it before rendering the next).
 */
export function stageFile(w: PendingWrite): StagedFile {
  const { fd, tmp } = openTemp(w.path);
  const staged = { fd, tmp, path: w.path };
  try {
    writeAll(fd, w.content);
    if (w.mtime) futimesSync(fd, w.mtime, w.mtime);
  } catch (err) {
    discardStaged([staged]);
    throw err;
  }
  return staged;
}

/**
 * Stage each write in turn (a generator may render each file's bytes just before it is staged).
 * If one fails, the files already staged are removed.
 */
export function stageFiles(writes: Iterable<PendingWrite>): StagedFile[] {
  const staged: StagedFile[] = [];
  try {
    for (const w of writes) staged.push(stageFile(w));
  } catch (err) {
    discardStaged(staged);
    throw err;
  }
  return staged;
}

/** Close and remove temporary files that will not be committed. */
export function discardStaged(staged: StagedFile[]): void {
  for (const t of staged) {
    try {
      closeSync(t.fd);
    } catch {
      // Already closed.
    }
    tryUnlink(t.tmp);
  }
}

/**
 * Rename staged files over their targets in order; if one fails, the rest are removed and it throws.
 * Synchronous: a thread-pool round trip per rename would cost more than the call.
 */
export function swapStaged(staged: StagedFile[]): void {
  for (let i = 0; i < staged.length; i++) {
    const t = staged[i]!;
    try {
      swapIn(t.tmp, t.path);
    } catch (err) {
      for (const rest of staged.slice(i + 1)) tryUnlink(rest.tmp);
      throw err;
    }
  }
}

/** Fsync staged files all at once on libuv's thread pool and close them; on failure they are removed. */
export async function syncStaged(staged: StagedFile[]): Promise<void> {
  try {
    await Promise.all(staged.map((t) => fsyncAsync(t.fd)));
  } catch (err) {
    discardStaged(staged);
    throw err;
  }
  for (const t of staged) closeSync(t.fd);
}

/** Fsync the folders of swapped files, at once, which makes their renames durable. */
export async function syncFoldersOf(staged: StagedFile[]): Promise<void> {
  const dirs = [...new Set(staged.map((t) => dirname(t.path)))];
  await Promise.all(
    dirs.map(async (d) => {
      const fd = openSync(d, "r");
      try {
        await fsyncAsync(fd);
      } finally {
        closeSync(fd);
      }
    }),
  );
}

/**
 * The same on this thread, for a page's few files (a publish): each file is fsynced, then all are
 * renamed in the order given, then each folder is fsynced once, instead of a folder fsync per file.
 */
export function replaceFilesSync(writes: PendingWrite[]): void {
  const staged = stageFiles(writes);
  try {
    for (const t of staged) fsyncSync(t.fd);
  } catch (err) {
    discardStaged(staged);
    throw err;
  }
  for (const t of staged) closeSync(t.fd);
  swapStaged(staged);
  for (const d of new Set(staged.map((t) => dirname(t.path)))) fsyncDir(d);
}
