/**
 * Mirrors the published folder into a bucket, or a bucket into the folder, for moving an install
 * from one publish target to the other (`npm run publish-target:sync`, ADR 134). Each file is
 * compared with its copy by size and MD5 (a single-PUT object's ETag) and copied only when they
 * differ, so a run that stopped halfway is resumed by running it again. Page files (index.html) go
 * after every other file, so a page never names a file the other side does not hold yet. Nothing is
 * deleted on either side.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import { writeFileAtomic } from "#renderer/atomic-write.ts";
import { listObjects, objectHeaders, s3Sdk } from "#renderer/bucket-target.ts";
import { pool } from "#renderer/pool.ts";

export interface SyncOptions {
  client: S3Client;
  bucket: string;
  /** "" or "name/", as the server's S3_PREFIX. */
  prefix: string;
  publishedDir: string;
  /** Told after each file, copied or found the same. */
  onProgress?: (done: number, total: number) => void;
}

export interface SyncResult {
  total: number;
  copied: number;
  unchanged: number;
}

/** Requests at once: enough to hide a bucket's latency, few enough for any provider's rate limits. */
const CONCURRENCY = 8;

/**
 * What a bucket key may be as a path under the folder: the folder's own names (usernames, content
 * names, `_p/…`, `media/…`), never a way out of it.
 */
const SAFE_PATH = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/;
export const isSafePath = (path: string): boolean => SAFE_PATH.test(path);

const md5 = (body: Uint8Array) => createHash("md5").update(body).digest("hex");
const isPage = (path: string) => path === "index.html" || path.endsWith("/index.html");
/** Pages have no compressed copies (ADR 121): those an older release left are not worth moving. */
const isStalePageCopy = (path: string) => /(^|\/)index\.html\.(br|gz)$/.test(path);

/**
 * Every file under the folder as a path relative to it, "/"-separated; hidden files and folders
 * (temporary files, what a restore moved aside) left out.
 */
function folderFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)).split(sep).join("/"))
    .filter((path) => !path.split("/").some((part) => part.startsWith(".")) && !isStalePageCopy(path));
}

/** Every object under the prefix, by its path under the prefix, with its size and ETag. */
async function bucketObjects(opts: SyncOptions): Promise<Map<string, { size: number; etag: string }>> {
  const objects = await listObjects(opts.client, opts.bucket, opts.prefix);
  return new Map(objects.filter((o) => !o.key.endsWith("/")).map((o) => [o.key.slice(opts.prefix.length), o]));
}

/** Every other file first, then the pages that name them. */
async function inOrder(paths: string[], copy: (path: string) => Promise<void>): Promise<void> {
  await pool(paths.filter((p) => !isPage(p)), CONCURRENCY, copy);
  await pool(paths.filter(isPage), CONCURRENCY, copy);
}

/** The folder into the bucket, each object with the headers a static host would send (ADR 130). */
export async function syncFolderToBucket(opts: SyncOptions): Promise<SyncResult> {
  const files = folderFiles(opts.publishedDir).sort();
  const stored = await bucketObjects(opts);
  const result: SyncResult = { total: files.length, copied: 0, unchanged: 0 };
  const tick = () => opts.onProgress?.(result.copied + result.unchanged, result.total);
  await inOrder(files, async (path) => {
    const body = readFileSync(join(opts.publishedDir, path));
    const there = stored.get(path);
    if (there && there.size === body.length && there.etag === md5(body)) {
      result.unchanged++;
    } else {
      await opts.client.send(new (s3Sdk().PutObjectCommand)({ Bucket: opts.bucket, Key: opts.prefix + path, Body: body, ...objectHeaders(path) }));
      result.copied++;
    }
    tick();
  });
  return result;
}

/** The bucket into the folder, each file written atomically; a key that is not a safe path is refused before anything is copied. */
export async function syncBucketToFolder(opts: SyncOptions): Promise<SyncResult> {
  const objects = await bucketObjects(opts);
  const paths = [...objects.keys()].filter((path) => !isStalePageCopy(path)).sort();
  const unsafe = paths.filter((path) => !isSafePath(path));
  if (unsafe.length) throw new Error(`The bucket holds keys that are not paths under the published folder, so nothing was copied: ${unsafe.slice(0, 5).join(", ")}`);
  const root = resolve(opts.publishedDir);
  const result: SyncResult = { total: paths.length, copied: 0, unchanged: 0 };
  const tick = () => opts.onProgress?.(result.copied + result.unchanged, result.total);
  await inOrder(paths, async (path) => {
    const file = join(root, path);
    const object = objects.get(path)!;
    if (existsSync(file) && statSync(file).size === object.size && md5(readFileSync(file)) === object.etag) {
      result.unchanged++;
    } else {
      const got = await opts.client.send(new (s3Sdk().GetObjectCommand)({ Bucket: opts.bucket, Key: opts.prefix + path }));
      writeFileAtomic(file, await got.Body!.transformToByteArray());
      result.copied++;
    }
    tick();
  });
  return result;
}
