/**
 * npm run publish-target:sync -- to-bucket | to-folder: copies the published folder (PUBLISHED_DIR)
 * into the bucket of the S3_* values, or the bucket into the folder, for moving an install between
 * publish targets (ADR 134). Only what differs is copied, so running it again resumes a run that
 * stopped; nothing is deleted.
 */
import { bucketOf } from "#api/deps.ts";
import { parseEnv } from "#api/env.server.ts";
import { progressBar } from "./lib/progress.ts";
import { syncBucketToFolder, syncFolderToBucket } from "./lib/publish-target-sync.ts";

const direction = process.argv[2];
if (direction !== "to-bucket" && direction !== "to-folder") {
  console.error("Usage: npm run publish-target:sync -- to-bucket | to-folder\n(the bucket is named by PUBLISH_TARGET=s3 and the S3_* values, as for the server)");
  process.exit(2);
}
const bucket = bucketOf(parseEnv());
if (!bucket) {
  console.error("Set PUBLISH_TARGET=s3 and the S3_* values of the bucket to copy to or from.");
  process.exit(2);
}
const { client } = bucket;
const progress = progressBar(direction === "to-bucket" ? "to the bucket" : "to the folder");
const opts = { ...bucket, onProgress: progress.update };
try {
  const result = direction === "to-bucket" ? await syncFolderToBucket(opts) : await syncBucketToFolder(opts);
  progress.stop();
  console.log(`${result.total} file(s): ${result.copied} copied, ${result.unchanged} already the same.`);
} catch (err) {
  progress.stop();
  console.error(`Stopped: ${(err as Error).message}\nRun the same command again to go on from where it stopped.`);
  process.exitCode = 1;
} finally {
  client.destroy();
}
