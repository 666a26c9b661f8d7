/**
 * Crash-safe file replacement: write a temporary file beside the target, fsync it, rename it over
 * the target, fsync the directory. A crash at any instant leaves the old file or the new one, never
 * a mix. stageFiles and commitStaged do the same for many files at once, made durable together by
 * one round of parallel fsyncs, and GroupCommit commits a stream of batches with one syncfs per
 * round, which is what makes bulk republishing fast (ADR 025, ADR 029, ADR 086).
 *
 * A file written with `recycle` (a page's index.html) keeps the file it replaces as a spare, and a
 * later write fills that spare instead of creating a file: on the file systems Plinth runs on,
 * creating a file and freeing the one it replaces cost more than writing the page (ADR 028). A spare
 * is filled only when it has been out of service for SPARE_REST_MS and has no other name.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fstatSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  futimesSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import type { SyncFileSystem } from "./fs-sync.ts";
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

/**
 * How long a replaced file rests as a spare before it is filled again. A reader that opened it while
 * it was the page (a static server still sending it to a slow client) has long finished by then.
 */
export const SPARE_REST_MS = 10_000;
// Tests that publish many times a second set PLINTH_SPARE_REST_MS=0 to exercise the spare path.
const restMs = () => {
  const v = process.env.PLINTH_SPARE_REST_MS;
  return v === undefined ? SPARE_REST_MS : Number(v);
};
const sparePath = (path: string) => join(dirname(path), `.spare-${basename(path)}`);

/**
 * Take the file's spare for writing: rename it to a temporary name (only one writer can), then check
 * it is the file that was looked at, has rested long enough, and has no other name (a name left by
 * an interrupted write would make it shared). Null when there is no usable spare.
 */
function claimSpare(path: string): { fd: number; tmp: string; size: number } | null {
  const spare = sparePath(path);
  let seen;
  try {
    seen = lstatSync(spare);
  } catch {
    return null;
  }
  // ctime has a finer grain than Date.now(): a spare renamed this millisecond can look younger than 0.
  const rest = restMs();
  if (!seen.isFile() || (rest > 0 && Date.now() - seen.ctimeMs < rest)) return null;
  const tmp = tmpName(dirname(path));
  try {
    renameSync(spare, tmp);
  } catch {
    return null;
  }
  const fd = openSync(tmp, "r+");
  const st = fstatSync(fd);
  if (st.ino === seen.ino && st.nlink === 1) return { fd, tmp, size: st.size };
  closeSync(fd);
  unlinkSync(tmp);
  return null;
}

/** Where `recycle` writes start: the spare when there is a usable one, else a new temporary file. */
function openForWrite(path: string, recycle: boolean): { fd: number; tmp: string; oldSize: number } {
  const spare = recycle ? claimSpare(path) : null;
  return spare ? { fd: spare.fd, tmp: spare.tmp, oldSize: spare.size } : { ...openTemp(path), oldSize: 0 };
}

/**
 * Rename the written temporary file over the target. With `recycle`, the file it replaces is kept
 * under a second name first and becomes the spare once the new file is in place.
 */
function swapIn(tmp: string, path: string, recycle: boolean): void {
  let keep: string | null = null;
  if (recycle) {
    keep = tmpName(dirname(path));
    try {
      linkSync(path, keep);
    } catch {
      // No file yet, or a file system without hard links: nothing to keep.
      keep = null;
    }
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    for (const f of [tmp, keep]) if (f) tryUnlink(f);
    throw err;
  }
  if (!keep) return;
  try {
    renameSync(keep, sparePath(path));
  } catch {
    tryUnlink(keep);
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
  /** The file's modification time: the instant the content was rendered for (the scheduler reads it). */
  mtime?: Date;
  /** Keep the replaced file as a spare and fill a rested spare instead of creating a file. */
  recycle?: boolean;
}

export function writeFileAtomic(path: string, content: string | Uint8Array, opts: WriteOptions = {}): void {
  const t = stageFile({ path, content, mtime: opts.mtime, recycle: opts.recycle });
  try {
    fsyncSync(t.fd);
  } catch (err) {
    discardStaged([t]);
    throw err;
  }
  closeSync(t.fd);
  swapIn(t.tmp, path, t.recycle);
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
  recycle: boolean;
}

/**
 * Write one file's bytes to a temporary file beside it; nothing is replaced yet. Called as soon as
 * the bytes exist, so a page's HTML is garbage as soon as it is written (bulk republish renders a
 * page and stages it before rendering the next).
 */
export function stageFile(w: PendingWrite): StagedFile {
  const recycle = w.recycle ?? false;
  const { fd, tmp, oldSize } = openForWrite(w.path, recycle);
  const staged = { fd, tmp, path: w.path, recycle };
  try {
    const length = writeAll(fd, w.content);
    // A filled spare keeps whatever of its old content lies beyond the new.
    if (length < oldSize) ftruncateSync(fd, length);
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

/** Rename staged files over their targets in order; if one fails, the rest are removed and it throws. */
function swapAll(staged: StagedFile[]): void {
  for (let i = 0; i < staged.length; i++) {
    const t = staged[i]!;
    try {
      swapIn(t.tmp, t.path, t.recycle);
    } catch (err) {
      for (const rest of staged.slice(i + 1)) tryUnlink(rest.tmp);
      throw err;
    }
  }
}

/**
 * Swap staged files in, each atomically and durably, and a crash at any instant leaves each file old
 * or new, never a mix. First every staged file is fsynced, all at once on libuv's thread pool (the
 * journal commits them together). Then each is renamed in the order given (a page's own files before
 * its index.html). Last their directories are fsynced at once, which makes the renames durable.
 * Renaming and closing stay synchronous: a thread-pool round trip each would cost more than the call.
 * A stream of batches on a file system with syncfs goes through GroupCommit instead.
 */
export async function commitStaged(staged: StagedFile[]): Promise<void> {
  if (staged.length === 0) return;
  try {
    await Promise.all(staged.map((t) => fsyncAsync(t.fd)));
  } catch (err) {
    discardStaged(staged);
    throw err;
  }
  for (const t of staged) closeSync(t.fd);
  swapAll(staged);
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
 * Group commit of a stream of staged batches on one file system (ADR 086): one syncfs per round
 * instead of two per batch. A round closes the batches staged since the last one, syncs the file
 * system, which makes durable both their data and the renames of the round before, reports those
 * earlier batches durable, and renames the new ones. So every file is renamed only once its data is
 * durable, and reported only once its rename is: a crash leaves each file old or new, as with
 * commitStaged. Batches staged while a round syncs wait for the next round, which takes them all at
 * once: the slower the disk, the more each round commits.
 */
export class GroupCommit {
  private staged: { files: StagedFile[]; durable: () => void }[] = [];
  private renamed: (() => void)[] = [];
  /** Batches added and not yet durable. */
  private pending = 0;
  private round: Promise<void> | null = null;
  private failure: unknown = null;
  private roomWaiters: (() => void)[] = [];

  /** `maxPending`: batches that may be staged and not yet durable before add() waits for room. */
  constructor(
    private readonly fsSync: { sync: SyncFileSystem; path: string },
    private readonly maxPending = 4,
  ) {}

  /**
   * Queue a staged batch; `durable` is called once all its files are in place and durable. Resolves
   * as soon as there is room for another batch, not when this one is durable. Rejects, with the
   * batch discarded, once a round has failed.
   */
  async add(files: StagedFile[], durable: () => void): Promise<void> {
    if (this.failure !== null) {
      discardStaged(files);
      throw this.failure;
    }
    // Closed at once: syncfs needs no open file, and a long queue would otherwise hold hundreds.
    for (const t of files) closeSync(t.fd);
    this.staged.push({ files, durable });
    this.pending += 1;
    this.round ??= this.rounds();
    while (this.pending > this.maxPending && this.failure === null) await new Promise<void>((r) => this.roomWaiters.push(r));
    if (this.failure !== null) throw this.failure;
  }

  /** Resolves when every batch added is durable; rejects if a round failed. */
  async drain(): Promise<void> {
    while (this.round) await this.round;
    if (this.failure !== null) throw this.failure;
  }

  private async rounds(): Promise<void> {
    try {
      while (this.staged.length > 0 || this.renamed.length > 0) {
        const data = this.staged.splice(0);
        const renamed = this.renamed.splice(0);
        try {
          await this.fsSync.sync(this.fsSync.path);
        } catch (err) {
          // Nothing of `data` was renamed: its files are removed and the targets keep their old content.
          for (const b of [...data, ...this.staged.splice(0)]) for (const t of b.files) tryUnlink(t.tmp);
          throw err;
        }
        for (const done of renamed) done();
        this.pending -= renamed.length;
        for (let i = 0; i < data.length; i++) {
          try {
            swapAll(data[i]!.files);
          } catch (err) {
            for (const b of [...data.slice(i + 1), ...this.staged.splice(0)]) for (const t of b.files) tryUnlink(t.tmp);
            throw err;
          }
          this.renamed.push(data[i]!.durable);
        }
        for (const wake of this.roomWaiters.splice(0)) wake();
      }
    } catch (err) {
      this.failure = err;
      for (const wake of this.roomWaiters.splice(0)) wake();
    } finally {
      this.round = null;
    }
  }
}

/** Replace many files, each atomically and durably: stage them all, then commit them together. */
export async function replaceFilesDurably(writes: PendingWrite[]): Promise<void> {
  return commitStaged(stageFiles(writes));
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
  swapAll(staged);
  for (const d of new Set(staged.map((t) => dirname(t.path)))) fsyncDir(d);
}
