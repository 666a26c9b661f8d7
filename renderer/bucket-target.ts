/**
 * An S3-compatible bucket as the publish target (ADR 129, 130). Keys mirror the folder's paths under
 * S3_PREFIX ("alice/index.html", "alice/qr-….svg", "_p/visitor.….js"), and each object carries the
 * headers a static host would send for the file: a visitor's CDN needs nothing else to serve it.
 * A page object is replaced by one PUT, so a reader gets the old page or the new one, never a mix.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { extname, join, relative, sep } from "node:path";
import { CONTENT_TYPES, IMMUTABLE, REVALIDATE } from "./content-types.ts";
import { ENCODINGS, isCompressible } from "./precompress.ts";
import { PAGE_OWN_FILE, TargetWriteError, type PublishTarget, type TargetWriter } from "./publish-target.ts";

/** Shared assets, media, and a page's own QR code and contact cards are named by their content. */
const CONTENT_NAMED = /^(_p\/.+|media\/.+|[a-z0-9_-]{3,30}\/(qr-[0-9a-z]+\.svg|contact-[0-9a-z]+\.vcf)(\.br|\.gz)?)$/;

export interface ObjectHeaders {
  ContentType: string;
  CacheControl: string;
  ContentEncoding?: string;
}

/**
 * The headers of the object at `path` (relative to the prefix, as in the folder): a compressed copy
 * ("….js.br") is the type of its file with the copy's Content-Encoding.
 */
export function objectHeaders(path: string): ObjectHeaders {
  const encoding = ENCODINGS.find((e) => path.endsWith(e.suffix) && isCompressible(path.slice(0, -e.suffix.length)));
  const file = encoding ? path.slice(0, -encoding.suffix.length) : path;
  return {
    ContentType: CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
    CacheControl: CONTENT_NAMED.test(path) ? IMMUTABLE : REVALIDATE,
    ...(encoding ? { ContentEncoding: encoding.name } : {}),
  };
}

export interface BucketConfig {
  client: S3Client;
  bucket: string;
  /** Put before every key: "" or a folder such as "pages/" (env's S3_PREFIX, ending with a slash). */
  prefix: string;
  /** The folder the pipeline names its files under: a write's path relative to it is its key. */
  publishedDir: string;
}

const require = createRequire(import.meta.url);
/**
 * The S3 SDK, loaded the first time a bucket is used: a process that publishes to the folder never
 * loads it (ADR 253).
 */
export const s3Sdk = (): typeof import("@aws-sdk/client-s3") => require("@aws-sdk/client-s3");

/**
 * The client for a bucket. Credentials are the access key given, or else found the SDK's usual way
 * (the environment, shared credential files, an instance or container role).
 */
export function bucketClient(opts: { region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string }): S3Client {
  const credentials = opts.accessKeyId && opts.secretAccessKey ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } } : {};
  // Endpoints other than Amazon's (MinIO, Ceph, R2, B2) take bucket names in the path.
  return new (s3Sdk().S3Client)({ region: opts.region, ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}), ...credentials });
}

const isPage = (path: string) => path.endsWith("/index.html");

/** Every object whose key starts with `prefix`, page by page: its key, size and ETag (quotes removed). */
export async function listObjects(client: S3Client, bucket: string, prefix: string): Promise<{ key: string; size: number; etag: string }[]> {
  const found: { key: string; size: number; etag: string }[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new (s3Sdk().ListObjectsV2Command)({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key) found.push({ key: o.Key, size: o.Size ?? -1, etag: (o.ETag ?? "").replaceAll('"', "") });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return found;
}

type Step = { put: { path: string; body: string | Uint8Array } } | { removeOwnFiles: string } | { removeAllOf: string } | { remove: string };

export function bucketTarget(config: BucketConfig): PublishTarget {
  const { client, bucket, prefix, publishedDir } = config;
  const keyOf = (path: string) => {
    const rel = relative(publishedDir, path).split(sep).join("/");
    if (rel.startsWith("../") || rel === ".." || rel.startsWith("/")) throw new Error(`Not under the published folder: ${path}`);
    return rel;
  };
  const put = (path: string, body: string | Uint8Array) =>
    client.send(new (s3Sdk().PutObjectCommand)({ Bucket: bucket, Key: prefix + path, Body: body, ...objectHeaders(path) }));
  const removeKeys = async (paths: string[]) => {
    // One request deletes at most 1,000 keys.
    for (let i = 0; i < paths.length; i += 1000) {
      const chunk = paths.slice(i, i + 1000).map((p) => ({ Key: prefix + p }));
      const out = await client.send(new (s3Sdk().DeleteObjectsCommand)({ Bucket: bucket, Delete: { Objects: chunk, Quiet: true } }));
      if (out.Errors?.length) throw new Error(`Could not delete ${out.Errors.map((e) => `${e.Key}: ${e.Code}`).join(", ")}`);
    }
  };
  /** The keys under `folder` ("alice/", "_p/"), without the prefix. */
  const keysUnder = async (folder: string) => (await listObjects(client, bucket, prefix + folder)).map((o) => o.key.slice(prefix.length));
  /** The page's keys whose name under the page `keep` accepts. */
  const pageKeys = async (username: string, keep: (name: string) => boolean) =>
    (await keysUnder(`${username}/`)).filter((key) => keep(key.slice(username.length + 1)));

  /**
   * The shared assets (ADR 022) the folder holds under _p/ and the bucket does not yet, compressed
   * copies included: named by their content, so a key that exists is right. Once per process, before
   * the first page that names them.
   */
  const putSharedAssets = async () => {
    const folder = join(publishedDir, "_p");
    if (!existsSync(folder)) return;
    const stored = new Set(await keysUnder("_p/"));
    const local = readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && !d.name.startsWith("."))
      .map((d) => keyOf(join(d.parentPath, d.name)));
    await Promise.all(local.filter((key) => !stored.has(key)).map((key) => put(key, readFileSync(join(publishedDir, key)))));
  };
  let sharedAssets: Promise<void> | undefined;
  const ensureSharedAssets = () =>
    (sharedAssets ??= putSharedAssets().catch((err: unknown) => {
      sharedAssets = undefined;
      throw err;
    }));

  /**
   * A step's puts and deletes in order: a page's own files go up together, then its index.html,
   * which names them; what the page no longer uses goes after it is live.
   */
  const run = async (steps: Step[]) => {
    if (steps.some((step) => "put" in step)) await ensureSharedAssets();
    let batch: Promise<unknown>[] = [];
    for (const step of steps) {
      if ("put" in step && !isPage(step.put.path)) {
        batch.push(put(step.put.path, step.put.body));
        continue;
      }
      await Promise.all(batch);
      batch = [];
      if ("put" in step) await put(step.put.path, step.put.body);
      else if ("removeOwnFiles" in step) await removeKeys(await pageKeys(step.removeOwnFiles, (name) => PAGE_OWN_FILE.test(name)));
      else if ("removeAllOf" in step) await removeKeys(await pageKeys(step.removeAllOf, () => true));
      else await removeKeys([step.remove]);
    }
    await Promise.all(batch);
  };

  return {
    kind: "bucket",
    writer(): TargetWriter {
      const steps: Step[] = [];
      /** Files of the folder given to putFiles: removed again if the bucket does not take them. */
      const mirrored: string[] = [];
      return {
        hasPage: () => false,
        writePage(_username, writes) {
          for (const w of writes) steps.push({ put: { path: keyOf(w.path), body: w.content } });
        },
        writeUnavailablePage(username, html) {
          steps.push({ put: { path: `${username}/index.html`, body: html } }, { removeOwnFiles: username });
        },
        removePage(username) {
          steps.push({ remove: `${username}/index.html` });
        },
        removeAllOf(username) {
          steps.push({ removeAllOf: username });
        },
        putFiles(paths) {
          for (const path of paths) steps.push({ put: { path: keyOf(path), body: readFileSync(path) } });
          mirrored.push(...paths);
        },
        removeFiles(paths) {
          for (const path of paths) steps.push({ remove: keyOf(path) });
        },
        async finish() {
          try {
            await run(steps);
          } catch (err) {
            // The folder keeps only what the bucket has too: the next step that needs such a file
            // (the sitemap at the next publish, an upload tried again) finds it missing and puts it.
            for (const path of mirrored) rmSync(path, { force: true });
            throw new TargetWriteError(err);
          }
        },
      };
    },
  };
}
