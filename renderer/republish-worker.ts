/**
 * A republish worker thread. It stays up between jobs (a job is one republish), so a process that
 * republishes again finds it loaded and warmed up. In a job it asks the main thread for batches (one
 * ahead, so it never waits for an answer), reads their pages through a connection of its own,
 * renders them and swaps them in durably under the page lock.
 */
import { parentPort } from "node:worker_threads";
import { openDatabase, type Db } from "#db/client.ts";
import { pageLockOf, streamPublishedBatch } from "./published-pages.ts";
import { stageRenderedBatch, workLoop, type FromWorker, type ToWorker, type WorkerSetup } from "./republish-batch.ts";

const port = parentPort!;
const send = (m: FromWorker) => port.postMessage(m);
const queue: ToWorker[] = [];
let waiting: ((m: ToWorker) => void) | null = null;
port.on("message", (m: ToWorker) => {
  if (waiting) {
    const w = waiting;
    waiting = null;
    w(m);
  } else queue.push(m);
});
const receive = () => queue.shift() ?? new Promise<ToWorker>((resolve) => (waiting = resolve));

// Kept open between jobs, like the thread itself. It writes nothing, but takes the write lock to
// swap pages in (the page lock, ADR 097), which a read-only connection cannot.
let connection: { path: string; db: Db } | undefined;
function connectionTo(path: string): Db {
  if (connection?.path !== path) {
    connection?.db.$client.close();
    connection = { path, db: openDatabase({ path, migrate: false }) };
  }
  return connection.db;
}

for (;;) {
  const m = await receive();
  if (!("job" in m)) continue;
  const setup: WorkerSetup = m.job;
  let finished = false;
  const take = async (): Promise<string[] | null> => {
    if (finished) return null;
    const next = await receive();
    if ("done" in next || !("batch" in next)) {
      finished = true;
      return null;
    }
    send({ want: true });
    return next.batch;
  };
  send({ want: true });
  send({ want: true });
  await workLoop(
    take,
    (batch) => stageRenderedBatch(streamPublishedBatch(connectionTo(setup.database), batch), setup.settings),
    pageLockOf(connectionTo(setup.database), setup.settings),
    (n, swapped) => send({ finished: n, swapped }),
  );
  send({ jobDone: true });
}
