/**
 * A republish worker thread: asks the main thread for batches (one ahead, so it never waits for an
 * answer while the main thread renders), renders them or, for the benchmark's baseline, takes the
 * files as given, and writes them durably. No database: the main thread reads it.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { PendingWrite } from "./atomic-write.ts";
import { stageGivenBatch, stageRenderedBatch, workLoop, type FromWorker, type PageToRender, type ToWorker, type WorkerSetup } from "./republish-batch.ts";

const setup = workerData as WorkerSetup;
const port = parentPort!;
const send = (m: FromWorker) => port.postMessage(m);
const queue: ToWorker[] = [];
let waiting: ((m: ToWorker) => void) | null = null;
port.on("message", (m: ToWorker) => {
  if (waiting) {
    waiting(m);
    waiting = null;
  } else queue.push(m);
});

let finished = false;
async function take(): Promise<(PageToRender | PendingWrite)[] | null> {
  if (finished) return null;
  const m = queue.shift() ?? (await new Promise<ToWorker>((resolve) => (waiting = resolve)));
  if ("done" in m) {
    finished = true;
    return null;
  }
  send({ want: true });
  return m.batch;
}

send({ want: true });
send({ want: true });
await workLoop(
  take,
  (batch) => (setup.kind === "render" ? stageRenderedBatch(batch as PageToRender[], setup.settings) : stageGivenBatch(batch as PendingWrite[])),
  (n) => send({ finished: n }),
);
port.close();
