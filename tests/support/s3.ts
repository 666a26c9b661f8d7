/**
 * A real S3-protocol server (s3rver) on a free port, storing objects in a temporary folder, with one
 * bucket and an S3Client for it: for the tests of the bucket publish target. Call the returned stop()
 * after the file's tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

export async function startTestBucket(bucket = "pages"): Promise<TestBucket> {
  const dir = mkdtempSync(join(tmpdir(), "plinth-s3-"));
  const port = await freePort();
  const server = new S3rver({ address: "127.0.0.1", port, silent: true, directory: dir });
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
