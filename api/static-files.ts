/**
 * Serving files from a folder: path traversal refused, content types by extension, ETags, cache
 * headers chosen by the caller (content-hashed assets are immutable, HTML revalidates), and a text
 * file's compressed copy, written beside it at build or publish time, to a client that takes its
 * encoding (ADR 054), or the file compressed once and kept in memory when it has no copy (ADR 057);
 * why this is not `serveStatic` of @hono/node-server: ADR 172.
 */
import { closeSync, createReadStream, fstatSync, openSync, statSync } from "node:fs";
import { extname, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { parseAccept } from "hono/utils/accept";
import { ENCODINGS, isCompressible, sameMtime, type Encoding } from "#renderer/precompress.ts";
import { CONTENT_TYPES } from "#renderer/content-types.ts";
import { compressedOnce } from "./compressed-once.ts";

/** The absolute path of `urlPath` inside `root`, or null if it escapes root or is not a file. */
export function fileInside(root: string, urlPath: string): { path: string; size: number; mtimeMs: number } | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const absRoot = resolve(root);
  const path = resolve(absRoot, `.${decoded.startsWith("/") ? "" : "/"}${decoded}`);
  if (path !== absRoot && !path.startsWith(absRoot + sep)) return null;
  try {
    const st = statSync(path);
    if (!st.isFile()) return null;
    return { path, size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return null;
  }
}

/**
 * The encodings an Accept-Encoding header takes, most wanted first and brotli before gzip among
 * equals; an encoding given q=0, or left out, is not taken (`*` stands for those left out).
 */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  if (!header) return [];
  const accepts = parseAccept(header);
  const wildcard = accepts.find((a) => a.type === "*")?.q ?? 0;
  const qOf = (name: string) => accepts.find((a) => a.type.toLowerCase() === name || (name === "gzip" && a.type.toLowerCase() === "x-gzip"))?.q ?? wildcard;
  const ranked = ENCODINGS.map((e) => ({ name: e.name, q: qOf(e.name) })).filter((e) => e.q > 0);
  // A stable sort keeps ENCODINGS' order (brotli first) among equal weights.
  return ranked.sort((a, b) => b.q - a.q).map((e) => e.name);
}

/** An open file and what fstat says of it: the headers and the body come from this one version. */
interface OpenFile {
  fd: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

function openFile(path: string): OpenFile | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  const st = fstatSync(fd);
  if (st.isFile()) return { fd, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
  closeSync(fd);
  return null;
}

/**
 * The compressed copy to send instead of `file`: the first of `encodings` whose copy is a file with
 * the same modification time as `file` (written with it; ADR 054) and smaller than it.
 */
function openCopy(path: string, file: OpenFile, encodings: Encoding[]): (OpenFile & { encoding: Encoding }) | null {
  for (const encoding of encodings) {
    const copy = openFile(path + ENCODINGS.find((e) => e.name === encoding)!.suffix);
    if (copy && sameMtime(file.mtimeMs, copy.mtimeMs) && copy.size < file.size) return { ...copy, encoding };
    if (copy) closeSync(copy.fd);
  }
  return null;
}

/** Smaller text files go as they are: compressing them saves less than a packet. */
const COMPRESS_FROM_BYTES = 1024;

export interface ServeOptions {
  cacheControl: string;
  status?: number;
  headers?: Record<string, string>;
  method?: string;
  ifNoneMatch?: string | undefined;
  /** The request's Accept-Encoding: a text file is sent compressed when it takes brotli or gzip. */
  acceptEncoding?: string | undefined;
}

/**
 * The file at `file.path` as a response. The file is opened before anything is said of it, so its
 * headers (ETag, Content-Length) describe the bytes sent even when a publish swaps a new version
 * in meanwhile. A file gone since it was found is answered 404 without a body. A text file goes
 * compressed to a client that takes brotli or gzip: its copy when one was written with it, otherwise
 * compressed once for this version and kept (api/compressed-once.ts, ADR 057).
 */
export function fileResponse(file: { path: string }, opts: ServeOptions): Response | Promise<Response> {
  const original = openFile(file.path);
  if (!original) return new Response(null, { status: 404 });
  const compressible = isCompressible(file.path);
  const accepted = compressible ? acceptedEncodings(opts.acceptEncoding) : [];
  const copy = accepted.length ? openCopy(file.path, original, accepted) : null;
  if (copy) {
    closeSync(original.fd);
    return respond(file.path, original, copy.encoding, { fd: copy.fd, size: copy.size }, opts);
  }
  if (accepted.length && original.size >= COMPRESS_FROM_BYTES) {
    const encoding = accepted[0]!;
    // A revalidation of what was sent before needs no compressing.
    if (notModified(original, encoding, opts)) return respond(file.path, original, encoding, { fd: original.fd, size: original.size }, opts);
    // The file is read before compressedOnce first waits, so the descriptor can close at once.
    const body = compressedOnce(file.path, original, encoding);
    closeSync(original.fd);
    return body.then((bytes) => respond(file.path, original, encoding, { bytes }, opts));
  }
  return respond(file.path, original, null, { fd: original.fd, size: original.size }, opts, compressible);
}

/** Each encoding is its own representation, with an ETag of its own. */
const etagOf = (original: OpenFile, encoding: Encoding | null) =>
  `W/"${original.size.toString(16)}-${Math.floor(original.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ""}"`;

const notModified = (original: OpenFile, encoding: Encoding, opts: ServeOptions) =>
  (opts.status ?? 200) === 200 && opts.ifNoneMatch === etagOf(original, encoding);

/**
 * The answer for `original` sent as `body`: an open descriptor (the file or its copy) streamed for
 * exactly its size, or bytes in memory. `encoding` is the body's Content-Encoding; a 304 for an
 * encoded representation is answered before anything is compressed.
 */
function respond(
  path: string,
  original: OpenFile,
  encoding: Encoding | null,
  body: { fd: number; size: number } | { bytes: Buffer },
  opts: ServeOptions,
  compressible = true,
): Response {
  const etag = etagOf(original, encoding);
  const headers = new Headers({
    "Content-Type": CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
    "Cache-Control": opts.cacheControl,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    ...opts.headers,
  });
  // What a cache stores for a text file depends on the encodings the request takes.
  if (compressible) headers.set("Vary", "Accept-Encoding");
  if (encoding) headers.set("Content-Encoding", encoding);
  const status = opts.status ?? 200;
  const size = "bytes" in body ? body.bytes.length : body.size;
  const isNotModified = status === 200 && opts.ifNoneMatch === etag;
  if ("fd" in body && (isNotModified || opts.method === "HEAD" || size === 0)) closeSync(body.fd);
  if (isNotModified) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(size));
  if (opts.method === "HEAD" || size === 0) return new Response(opts.method === "HEAD" ? null : "", { status, headers });
  if ("bytes" in body) return new Response(new Uint8Array(body.bytes), { status, headers });
  // Exactly the bytes counted.
  const stream = Readable.toWeb(createReadStream("", { fd: body.fd, start: 0, end: size - 1 })) as ReadableStream;
  return new Response(stream, { status, headers });
}
