/**
 * Serving files from a folder: path traversal refused, content types by extension, ETags, and
 * cache headers chosen by the caller (content-hashed assets are immutable, HTML revalidates).
 */
import { createReadStream, statSync } from "node:fs";
import { extname, resolve, sep } from "node:path";
import { Readable } from "node:stream";

export const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".vcf": "text/vcard; charset=utf-8",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".epub": "application/epub+zip",
  ".mp3": "audio/mpeg",
};

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

export interface ServeOptions {
  cacheControl: string;
  status?: number;
  headers?: Record<string, string>;
  method?: string;
  ifNoneMatch?: string | undefined;
}

export function fileResponse(file: { path: string; size: number; mtimeMs: number }, opts: ServeOptions): Response {
  const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`;
  const headers = new Headers({
    "Content-Type": CONTENT_TYPES[extname(file.path).toLowerCase()] ?? "application/octet-stream",
    "Cache-Control": opts.cacheControl,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    ...opts.headers,
  });
  const status = opts.status ?? 200;
  if (status === 200 && opts.ifNoneMatch === etag) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(file.size));
  if (opts.method === "HEAD") return new Response(null, { status, headers });
  const body = Readable.toWeb(createReadStream(file.path)) as ReadableStream;
  return new Response(body, { status, headers });
}
