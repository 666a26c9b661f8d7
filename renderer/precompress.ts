/**
 * Compressed copies of text files, written beside them ("visitor.*.js.br", "sitemap.xml.gz") so the
 * server and any static host send brotli or gzip without compressing on each request (ADR 054).
 * A copy carries the modification time of the file it was made from, to the millisecond; the
 * server sends a copy only while the two times are equal, so a copy left behind by an older
 * version of the file, or written by a publish that never swapped its page in, is never sent.
 */
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { extname } from "node:path";
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from "node:zlib";
import { promisify } from "node:util";
import { replaceFilesSync, type PendingWrite } from "./atomic-write.ts";

/** Types worth compressing: text, whatever its name (a page, a stylesheet, a QR code, a contact card). */
const COMPRESSIBLE = new Set([".html", ".css", ".js", ".mjs", ".svg", ".json", ".webmanifest", ".xml", ".txt", ".vcf"]);

export const isCompressible = (path: string): boolean => COMPRESSIBLE.has(extname(path).toLowerCase());

/**
 * Whether a copy's modification time is its file's. Times are set through a double of seconds, which
 * can land a few nanoseconds apart from the time they were read as; a millisecond is far below any
 * two versions of one file.
 */
export const sameMtime = (fileMs: number, copyMs: number): boolean => Math.abs(fileMs - copyMs) < 1;

/** The encodings, best first, as Content-Encoding names them, and the suffix of their copies. */
export const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;
export type Encoding = (typeof ENCODINGS)[number]["name"];

/**
 * How hard to compress (ADR 054). A build compresses a few dozen files once, at the best ratio. The
 * server compresses a page once per version when it is first asked for (ADR 121), and the sitemap
 * as it is written: brotli 5 and gzip 6 cost about 1.6 ms on a 23 KB page, within 10-15% of the
 * best ratio.
 */
export type Effort = "build" | "quick";
const LEVELS: Record<Effort, { br: number; gzip: number }> = { build: { br: 11, gzip: 9 }, quick: { br: 5, gzip: 6 } };

const brotliOptions = (effort: Effort, size: number) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: LEVELS[effort].br,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});

const byteLength = (content: string | Uint8Array) => (typeof content === "string" ? Buffer.byteLength(content) : content.length);

/** The content in each encoding, in the order of ENCODINGS. */
export function compressSync(content: string | Uint8Array, effort: Effort): Buffer[] {
  return [brotliCompressSync(content, brotliOptions(effort, byteLength(content))), gzipSync(content, { level: LEVELS[effort].gzip })];
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The same on libuv's thread pool, for a build that compresses many files at once. */
export function compress(content: Uint8Array, effort: Effort): Promise<Buffer[]> {
  return Promise.all([brotliAsync(content, brotliOptions(effort, content.length)), gzipAsync(content, { level: LEVELS[effort].gzip })]);
}

/**
 * The writes that put `w` in place with its compressed copies: the copies first, each a new file
 * swapped in whole, then the file itself, all stamped with one modification time. A reader who
 * finds the new copies before the file is swapped in sees times that differ and gets the file
 * itself; a crash between the two leaves copies that are never sent.
 */
export function withCompressedCopies(w: PendingWrite, effort: Effort = "quick"): PendingWrite[] {
  if (!isCompressible(w.path)) return [w];
  const mtime = w.mtime ?? new Date();
  const copies = compressSync(w.content, effort);
  return [...ENCODINGS.map((e, i) => ({ path: w.path + e.suffix, content: copies[i]!, mtime })), { ...w, mtime }];
}

/** Replace one file and its compressed copies, each atomically and durably, the copies first. */
export function writeWithCompressedCopies(path: string, content: string | Uint8Array, effort: Effort = "quick"): void {
  replaceFilesSync(withCompressedCopies({ path, content }, effort));
}

/**
 * Remove a file's compressed copies, for a write that replaces the file without them (a page,
 * ADR 121): done before the file is swapped, so a static host that sends a copy without
 * comparing times (nginx's gzip_static) never sends one older than the file.
 */
export function removeCompressedCopies(path: string): void {
  for (const e of ENCODINGS) rmSync(path + e.suffix, { force: true });
}

/** Whether every compressed copy of a text file is on disk (files of other types have none). */
export const hasCompressedCopies = (path: string): boolean => !isCompressible(path) || ENCODINGS.every((e) => existsSync(path + e.suffix));

/**
 * Write the compressed copies of a file that has none, stamped with its modification time: for a
 * file that is written once and kept (a shared asset named by its content) and was written before
 * copies were made.
 */
export function addCompressedCopies(path: string, effort: Effort): void {
  const mtime = statSync(path).mtime;
  const copies = compressSync(readFileSync(path), effort);
  replaceFilesSync(ENCODINGS.map((e, i) => ({ path: path + e.suffix, content: copies[i]!, mtime })));
}
