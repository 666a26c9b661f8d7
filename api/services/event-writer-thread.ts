/**
 * The analytics writer thread (event-writer.ts): writes each batch of beacons in one transaction
 * through its own connection, in order. A failed batch is kept and tried again, before any later one,
 * at the next batch, when asked, or after a pause. What is written is told through shared memory, so
 * the server can wait for it at shutdown.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "#db/client.ts";
import type { Beacon } from "./beacon-events.ts";
import { recordBeacons } from "./beacon-events.ts";
import { FAILURES, WRITTEN, type ToWriterThread } from "./event-writer.ts";
import { log } from "../log.ts";

const { path, shared } = workerData as { path: string; shared: Int32Array };
const db = openDatabase({ path, migrate: false });
const waiting: { seq: number; beacons: Beacon[] }[] = [];
let retry: NodeJS.Timeout | null = null;

function writeWaiting(): void {
  if (retry) clearTimeout(retry);
  retry = null;
  while (waiting.length > 0) {
    const { seq, beacons } = waiting[0]!;
    // A batch handed again after a thread was lost may already be written.
    if (seq > Atomics.load(shared, WRITTEN)) {
      try {
        recordBeacons(db, beacons);
      } catch (err) {
        log().error({ err }, "Analytics write failed; retrying");
        Atomics.add(shared, FAILURES, 1);
        Atomics.notify(shared, WRITTEN);
        retry = setTimeout(writeWaiting, 100);
        return;
      }
      Atomics.store(shared, WRITTEN, seq);
      Atomics.notify(shared, WRITTEN);
    }
    waiting.shift();
  }
}

parentPort!.on("message", (m: ToWriterThread) => {
  if ("seq" in m) waiting.push(m);
  writeWaiting();
});
