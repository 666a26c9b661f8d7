/** The scheduled backup's thread (scheduled.ts): takes and verifies one backup, posts the result. */
import { parentPort, workerData } from "node:worker_threads";
import { takeVerifiedBackup, type ScheduledBackupInput } from "./scheduled.ts";

try {
  parentPort!.postMessage({ ok: await takeVerifiedBackup(workerData as ScheduledBackupInput) });
} catch (err) {
  parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
