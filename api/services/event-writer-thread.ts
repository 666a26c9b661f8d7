/**
 * The analytics writer thread (event-writer.ts): writes each batch of beacons in one transaction
 * through its own connection, in order, and says so. A failed batch is kept and tried again, before
 * any later one, at the next batch, when asked, or after a pause.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "#db/client.ts";
import { recordBeacons, type CheckedBeacon } from "./beacon-events.ts";
import type { FromWriterThread, ToWriterThread } from "./event-writer.ts";
import { log } from "../log.ts";

const db = openDatabase({ path: (workerData as { path: string }).path, migrate: false });
const port = parentPort!;
const waiting: { seq: number; beacons: CheckedBeacon[] }[] = [];
let retry: NodeJS.Timeout | null = null;
/** The last ask to try again now: a failure answers it, and every ask before it. */
let asked = 0;

function writeWaiting(): void {
  if (retry) clearTimeout(retry);
  retry = null;
  while (waiting.length > 0) {
    const { seq, beacons } = waiting[0]!;
    try {
      recordBeacons(db, beacons);
    } catch (err) {
      log().error({ err }, "Analytics write failed; retrying");
      port.postMessage({ failed: seq, retry: asked } satisfies FromWriterThread);
      retry = setTimeout(writeWaiting, 100);
      return;
    }
    waiting.shift();
    port.postMessage({ written: seq } satisfies FromWriterThread);
  }
}

port.on("message", (m: ToWriterThread) => {
  if ("seq" in m) waiting.push(m);
  else asked = m.retry;
  writeWaiting();
});
