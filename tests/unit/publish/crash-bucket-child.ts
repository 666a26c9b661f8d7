/**
 * Child process of the bucket crash test: publishes one page to a bucket over and over, alternating
 * two drafts, until it is killed. Arguments: dbPath publishedDir userId nowIso nameA nameB first
 * (0 or 1: which draft goes first) endpoint bucket.
 */
import { eq } from "drizzle-orm";
import { openDatabase } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { bucketClient, bucketTarget } from "#renderer/bucket-target.ts";
import { throughTarget } from "#renderer/publish-target.ts";
import { publishPage } from "#renderer/publish.ts";

const [dbPath, publishedDir, userId, nowIso, nameA, nameB, first, endpoint, bucket] = process.argv.slice(2) as [string, string, string, string, string, string, string, string, string];
const db = openDatabase({ path: dbPath, migrate: false });
const now = new Date(nowIso);
const client = bucketClient({ region: "us-east-1", endpoint, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" });
const target = bucketTarget({ client, bucket, prefix: "", publishedDir });
for (let i = Number(first); ; i++) {
  db.update(userProfiles).set({ displayName: i % 2 === 0 ? nameA : nameB }).where(eq(userProfiles.userId, userId)).run();
  await throughTarget(target, (writer) => publishPage(db, userId, { publishedDir, origin: "http://localhost:4321", now, writer }));
  if (i === Number(first)) process.stdout.write("ready\n");
}
