/**
 * Crash-safe file replacement: write a temporary file beside the target, fsync it, rename it over
 * the target, fsync the directory. A crash at any instant leaves the old file or the new one, never
 * a mix. replaceFilesDurably does the same for many files at once with one round of parallel
 * fsyncs, which is what makes bulk republishing fast (ADR 025).
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsync, fsyncSync, futimesSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
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

const tmpName = (dir: string) => join(dir, `.tmp-${randomBytes(6).toString("hex")}`);

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

function writeAll(fd: number, content: string | Uint8Array): void {
  if (typeof content === "string") {
    // A string is written as it is: encoding it into a Buffer first allocates memory outside the
    // heap for every page, and that allocation is what sets off garbage collections in bulk republish.
    const written = writeSync(fd, content);
    if (written === Buffer.byteLength(content)) return;
    content = Buffer.from(content).subarray(written);
  }
  let off = 0;
  while (off < content.length) off += writeSync(fd, content, off, content.length - off);
}

export interface WriteOptions {
  /** The file's modification time: the instant the content was rendered for (the scheduler reads it). */
  mtime?: Date;
}

export function writeFileAtomic(path: string, content: string | Uint8Array, opts: WriteOptions = {}): void {
  const dir = dirname(path);
  const { fd, tmp } = openTemp(path);
  try {
    writeAll(fd, content);
    if (opts.mtime) futimesSync(fd, opts.mtime, opts.mtime);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, path);
  fsyncDir(dir);
}

/** Whether a per-page file on disk already holds what `file` would write. */
export function fileIsCurrent(path: string, file: PageFile): boolean {
  if (!file.immutable && !file.unchangedIf) return false;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return false;
  }
  try {
    if (file.immutable) return true;
    const head = Buffer.alloc(4096);
    const n = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).toString("utf8").includes(file.unchangedIf!);
  } finally {
    closeSync(fd);
  }
}

export function contentOf(file: PageFile): string | Uint8Array {
  return typeof file.content === "function" ? file.content() : file.content;
}

export interface PendingWrite {
  path: string;
  content: string | Uint8Array;
  mtime?: Date;
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
  try {
    writeAll(fd, w.content);
    if (w.mtime) futimesSync(fd, w.mtime, w.mtime);
  } catch (err) {
    discardStaged([{ fd, tmp, path: w.path }]);
    throw err;
  }
  return { fd, tmp, path: w.path };
}

/** Close and remove temporary files that will not be committed. */
export function discardStaged(staged: StagedFile[]): void {
  for (const t of staged) {
    try {
      closeSync(t.fd);
    } catch {
      // Already closed.
    }
    try {
      unlinkSync(t.tmp);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Swap staged files in, each atomically and durably: all are fsynced at once on libuv's thread pool
 * (the journal commits them together), then each is renamed in the order given (a page's own files
 * before its index.html), then the directories are fsynced at once. A crash at any instant leaves
 * each file old or new, never a mix. Renaming and closing stay synchronous: a thread-pool round trip
 * each would cost more than the call.
 */
export async function commitStaged(staged: StagedFile[]): Promise<void> {
  try {
    await Promise.all(staged.map((t) => fsyncAsync(t.fd)));
  } catch (err) {
    discardStaged(staged);
    throw err;
  }
  for (let i = 0; i < staged.length; i++) {
    const t = staged[i]!;
    closeSync(t.fd);
    try {
      renameSync(t.tmp, t.path);
    } catch (err) {
      try {
        unlinkSync(t.tmp);
      } catch {
        // Already gone.
      }
      discardStaged(staged.slice(i + 1));
      throw err;
    }
  }
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

/** Replace many files, each atomically and durably: stage them all, then commit them together. */
export function replaceFilesDurably(writes: PendingWrite[]): Promise<void> {
  const staged: StagedFile[] = [];
  try {
    for (const w of writes) staged.push(stageFile(w));
  } catch (err) {
    discardStaged(staged);
    return Promise.reject(err);
  }
  return commitStaged(staged);
}
