/**
 * Where published pages are stored (ADR 129): the local folder PUBLISHED_DIR (the default), or an
 * S3-compatible bucket (bucket-target.ts). Publish, rollback, re-renders and suspensions work under
 * the page lock and inside a database transaction, which is synchronous; so they write through a
 * TargetWriter, also synchronous, made for the one step: the folder's writer swaps files in at once,
 * as it always has, and a bucket's writer keeps the objects, which its finish() puts once the
 * transaction has committed (throughTarget).
 */
import { existsSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { replaceFilesSync, type PendingWrite } from "./atomic-write.ts";
import { ENCODINGS, removeCompressedCopies } from "./precompress.ts";

export interface PublishTarget {
  readonly kind: "folder" | "bucket";
  /** A writer for one step of the pipeline (one publish, one suspension). */
  writer(): TargetWriter;
  /**
   * Pages the folder's bulk re-render swapped in itself, outside a writer (republish.ts, ADR 135):
   * a target that follows page changes (the CDN purge) hears of them here.
   */
  pagesWritten?(usernames: string[]): void;
}

export interface TargetWriter {
  /**
   * Whether the page is stored as its last recorded version. The folder checks the file; a bucket
   * answers false, so a publish puts the page again, which also repairs a put that failed after its
   * version was recorded.
   */
  hasPage(username: string): boolean;
  /** A page's writes (pageWrites: its own files, then index.html; paths under PUBLISHED_DIR). */
  writePage(username: string, writes: PendingWrite[]): void;
  /** The unavailable page in place of the page, whose own files (QR code, contact cards) go (ADR 108). */
  writeUnavailablePage(username: string, html: string, now: Date): void;
  /** The page's index.html goes: a suspended page restored that was never published. */
  removePage(username: string): void;
  /** Every file of the page (its folder, its keys): an account deleted. */
  removeAllOf(username: string): void;
  /**
   * Files just written to the folder that visitors read beside the pages (sitemap.xml, robots.txt,
   * media): the folder holds them already; a bucket puts them too, and should it refuse them,
   * removes them from the folder, so the next step that needs one writes it again.
   */
  putFiles(paths: string[]): void;
  /** Files just removed from the folder (media nothing uses): a bucket deletes its copies too. */
  removeFiles(paths: string[]): void;
  /** What is left once the database has committed: nothing for the folder, the puts for a bucket. */
  finish(): Promise<void>;
}

/** A target that could not take a step's writes (a bucket that cannot be reached or refuses them). */
export class TargetWriteError extends Error {
  constructor(cause: unknown) {
    super(`The publish target refused the writes: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`, { cause });
    this.name = "TargetWriteError";
  }
}

/** A page's own files beside index.html (QR code, contact cards) and their compressed copies. */
export const PAGE_OWN_FILE = /^(qr-[0-9a-z]+\.svg|contact-[0-9a-z]+\.vcf)(\.br|\.gz)?$/;

/**
 * Beside a suspended page's unavailable page in the folder: while it is there, a static host can
 * answer 410 as the server does (docs/nginx.conf tests for it at each request; ADR 161). It is not
 * a dot file, so it travels with the page to whatever host the folder is synced to.
 */
export const SUSPENDED_MARKER = "suspended";
const SUSPENDED_MARKER_TEXT = "This page is suspended (ADR 108): a static host answers 410 while this file is here.\n";

/** The local folder, written as it always was: each file atomically and durably, at once. */
export function folderTarget(publishedDir: string): PublishTarget {
  const writer: TargetWriter = {
    hasPage: (username) => existsSync(join(publishedDir, username, "index.html")),
    writePage(username, writes) {
      // A page has no compressed copies (ADR 121); copies an older version left are removed before
      // the swap, so a static host that sends them without comparing times never sends an older page.
      removeCompressedCopies(join(publishedDir, username, "index.html"));
      // A page written is a page not suspended (a lifted suspension re-renders it through here).
      rmSync(join(publishedDir, username, SUSPENDED_MARKER), { force: true });
      replaceFilesSync(writes);
    },
    writeUnavailablePage(username, html, now) {
      const dir = join(publishedDir, username);
      const page = join(dir, "index.html");
      removeCompressedCopies(page);
      // The unavailable page first: in between, a static host shows it with 200, never the page with 410.
      replaceFilesSync([
        { path: page, content: html, mtime: now },
        { path: join(dir, SUSPENDED_MARKER), content: SUSPENDED_MARKER_TEXT, mtime: now },
      ]);
      for (const name of readdirSync(dir)) if (PAGE_OWN_FILE.test(name)) unlinkSync(join(dir, name));
    },
    removePage(username) {
      const page = join(publishedDir, username, "index.html");
      for (const path of [join(publishedDir, username, SUSPENDED_MARKER), page, ...ENCODINGS.map((e) => page + e.suffix)]) if (existsSync(path)) unlinkSync(path);
    },
    removeAllOf(username) {
      rmSync(join(publishedDir, username), { recursive: true, force: true });
    },
    putFiles: () => {},
    removeFiles: () => {},
    finish: () => Promise.resolve(),
  };
  return { kind: "folder", writer: () => writer };
}

/**
 * Run one synchronous step of the pipeline with a writer of `target`, then finish its writes. A
 * step that throws finishes nothing: a bucket is put to only after its transaction committed.
 */
export async function throughTarget<T>(target: PublishTarget, step: (writer: TargetWriter) => T): Promise<T> {
  const writer = target.writer();
  const result = step(writer);
  await writer.finish();
  return result;
}
