/**
 * One republish worker thread: its own database connection, a share of the pages, progress posted
 * back in batches.
 */
import { parentPort, workerData } from "node:worker_threads";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { ensureSharedAssets } from "./assets.ts";
import { republishOne, type RepublishJob } from "./republish.ts";

const job = workerData as RepublishJob;
const db = openDatabase({ path: job.dbPath, migrate: false });
const now = new Date();
const assets = ensureSharedAssets(job.publishedDir);
let pending = 0;
for (const userId of job.userIds) {
  if (republishOne(db, userId, job.publishedDir, job.origin, now, assets)) pending++;
  if (pending >= 50) {
    parentPort?.postMessage(pending);
    pending = 0;
  }
}
if (pending > 0) parentPort?.postMessage(pending);
closeDatabase(db);
