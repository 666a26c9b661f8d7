/**
 * A real S3-protocol server (s3rver) on a free port, storing objects in a temporary folder, with one
 * bucket and an S3Client for it: for the tests of the bucket publish target. Call the returned stop()
 * after the file's tests.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buffer } from "node:stream/consumers";
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { freePort } from "./nginx.ts";

/** s3rver's fixed credentials: it checks signatures against them. */
const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
const REGION = "us-east-1";

export interface TestBucket {
  /** The server's origin, e.g. http://127.0.0.1:41083 (S3_ENDPOINT). */
  endpoint: string;
  bucket: string;
  region: string;
  client: S3Client;
  /** The variables that select this bucket as the publish target (credentials through the SDK's env names). */
  env(prefix?: string): Record<string, string>;
  /** Every key in the bucket under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** One object's body and headers, or null when there is none. */
  object(key: string): Promise<StoredObject | null>;
  stop(): Promise<void>;
}

export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
  contentEncoding: string | undefined;
}

/** The part of s3rver's filesystem store that a PUT goes through. */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: { bucket: string; key: string; content: Buffer | NodeJS.ReadableStream; metadata: unknown }): Promise<{ size: number; md5: string }>;
}

/**
 * S3 stores an object only once its whole body has arrived, and a reader gets the old object or the
 * new one, never a part (the guarantee a page object relies on, ADR 130). s3rver streams a PUT's body
 * straight into the object's file, so a client killed mid-upload, or a read during a write, sees a
 * part of it. Its store here takes the whole body first, then swaps the file in with a rename.
 */
function storeWholeObjects(server: S3rver): void {
  const store = (server as unknown as { store: FilesystemStore }).store;
  store.putObject = async (object) => {
    // Rejects, and stores nothing, when the client goes away before the body's end.
    const content = Buffer.isBuffer(object.content) ? object.content : await buffer(object.content);
    const path = store.getResourcePath(object.bucket, object.key, "object");
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${randomUUID()}.tmp`;
    writeFileSync(temporary, content);
    renameSync(temporary, path);
    const md5 = createHash("md5").update(content).digest("hex");
    await store.putMetadata(object.bucket, object.key, object.metadata, md5);
    return { size: content.length, md5 };
  };
}

export async function startTestBucket(bucket = "pages"): Promise<TestBucket> {
  const dir = mkdtempSync(join(tmpdir(), "plinth-s3-"));
  const port = await freePort();
  const server = new S3rver({ address: "127.0.0.1", port, silent: true, directory: dir });
  storeWholeObjects(server);
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: REGION, forcePathStyle: true, credentials: CREDENTIALS });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    region: REGION,
    client,
    env: (prefix = "") => ({
      PUBLISH_TARGET: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: REGION,
      S3_PREFIX: prefix,
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      PUBLIC_PAGES_ORIGIN: "https://pages.plinth.test",
    }),
    async keys(prefix = "") {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    async object(key) {
      try {
        const o = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return {
          body: Buffer.from(await o.Body!.transformToByteArray()),
          contentType: o.ContentType,
          cacheControl: o.CacheControl,
          contentEncoding: o.ContentEncoding,
        };
      } catch (err) {
        if ((err as { name?: string }).name === "NoSuchKey") return null;
        throw err;
      }
    },
    async stop() {
      client.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
