/**
 * The analytics batching writer (ADR 072, ADR 170): a checked beacon is queued, and the queue is
 * handed to the writer thread (event-writer-thread.ts) every `flushMs` milliseconds or every
 * `batchSize` beacons, whichever comes first. The thread derives each event (device, country,
 * campaign, visitor) and writes a batch in one transaction through its own connection: the write
 * costs about a third of a beacon, and on the request thread it held beacons under the pace of the
 * health route. Nothing waits for the thread synchronously: `flush()` and `close()` resolve once it
 * says it has written. A full queue refuses (the route answers 503 with Retry-After) rather than
 * dropping silently; a failed write keeps its beacons and is retried; after `close()`, each beacon is
 * written at once in place, so no acknowledged beacon is lost on a clean shutdown. A thread that stops
 * is replaced and given what it had not written. A database without a file (an in-memory one) is
 * written in place.
 */
import { Worker } from "node:worker_threads";
import { databaseFile, type Db } from "#db/client.ts";
import { recordBeacons, type CheckedBeacon } from "./beacon-events.ts";
import { log } from "../log.ts";
import { beaconsQueued, beaconsRefused, beaconsWritten } from "../metrics.ts";

export interface EventWriterOptions {
  /** Beacons per transaction, and the queue length that starts a write without waiting. */
  batchSize?: number;
  /** The longest a beacon waits in the queue, in milliseconds. */
  flushMs?: number;
  /** Beacons queued or being written beyond which a beacon is refused. */
  maxQueue?: number;
}

export interface EventWriter {
  /** Queue a beacon; false when the queue is full (nothing was queued). */
  enqueue(b: CheckedBeacon): boolean;
  /** Hand everything queued to the thread now; resolves once it is written, or a write failed. */
  flush(): Promise<void>;
  /** Flush and end the thread; from then on each beacon is written at once, in place (shutdown). */
  close(): Promise<void>;
  /** Beacons not written yet. */
  readonly queued: number;
}

/**
 * Between the writer and its thread: batches numbered from 1, and what became of them, in order. A
 * flush asks the thread to try a failed batch again now (numbered too); a failure says which of
 * those asks it answers.
 */
export type ToWriterThread = { seq: number; beacons: CheckedBeacon[] } | { retry: number };
export type FromWriterThread = { written: number } | { failed: number; retry: number };

export const EVENT_WRITER_DEFAULTS = { batchSize: 500, flushMs: 20, maxQueue: 20_000 } as const;
/** The longest close() waits for the thread (a disk that refuses every write). */
const CLOSE_WAIT_MS = 30_000;

// The thread's entry registers tsx, as the republish workers do (renderer/republish.ts).
const entry = new URL("./event-writer-thread.mjs", import.meta.url);

export function createEventWriter(db: Db, opts: EventWriterOptions = {}): EventWriter {
  const { batchSize, flushMs, maxQueue } = { ...EVENT_WRITER_DEFAULTS, ...opts };
  const path = databaseFile(db);
  let queue: CheckedBeacon[] = [];
  let timer: NodeJS.Timeout | null = null;
  let soon: NodeJS.Immediate | null = null;
  let closed = path === null;
  // Batches handed to the thread and not yet written, kept to hand again to a new thread.
  const inFlight = new Map<number, CheckedBeacon[]>();
  let inFlightBeacons = 0;
  let seq = 0;
  // flush() calls waiting for the thread's word on batch `upTo`, or on a write tried after ask `retry`.
  let waiting: { upTo: number; retry: number; settle: () => void }[] = [];
  let retries = 0;
  let worker: Worker | null = null;

  /** Settles the waits the thread has answered: those written, or those a failed write answers. */
  const wake = (failedAfter: number) => {
    const written = inFlight.size === 0 ? seq : Math.min(...inFlight.keys()) - 1;
    const done = waiting.filter((w) => w.upTo <= written || w.retry <= failedAfter);
    waiting = waiting.filter((w) => !done.includes(w));
    for (const w of done) w.settle();
  };
  const thread = (): Worker => {
    if (worker) return worker;
    const w = new Worker(entry, { execArgv: [], workerData: { path } });
    w.unref();
    w.on("message", (m: FromWriterThread) => {
      if ("written" in m) {
        const batch = inFlight.get(m.written);
        if (batch && inFlight.delete(m.written)) {
          inFlightBeacons -= batch.length;
          beaconsWritten.inc(batch.length);
        }
        wake(0);
      } else wake(m.retry);
    });
    const lost = (err: unknown) => {
      if (worker !== w) return;
      log().error({ err }, "The analytics writer thread stopped; starting another");
      worker = null;
      // What it had not written goes to the next thread, in order.
      if (inFlight.size > 0) {
        const next = thread();
        for (const [n, beacons] of inFlight) next.postMessage({ seq: n, beacons } satisfies ToWriterThread);
      }
    };
    w.on("error", lost);
    w.on("exit", (code) => lost(new Error(`exit code ${code}`)));
    return (worker = w);
  };
  const handOver = () => {
    if (timer) clearTimeout(timer);
    if (soon) clearImmediate(soon);
    timer = null;
    soon = null;
    while (queue.length > 0) {
      const beacons = queue.slice(0, batchSize);
      queue = queue.slice(beacons.length);
      inFlight.set(++seq, beacons);
      inFlightBeacons += beacons.length;
      thread().postMessage({ seq, beacons } satisfies ToWriterThread);
    }
  };
  const flush = () => {
    handOver();
    if (inFlight.size === 0) return Promise.resolve();
    // A batch that failed before is tried again now.
    const retry = ++retries;
    worker?.postMessage({ retry } satisfies ToWriterThread);
    return new Promise<void>((settle) => waiting.push({ upTo: seq, retry, settle }));
  };

  return {
    enqueue(b) {
      if (closed) {
        recordBeacons(db, [b]);
        beaconsQueued.inc();
        beaconsWritten.inc();
        return true;
      }
      if (queue.length + inFlightBeacons >= maxQueue) {
        beaconsRefused.inc({ reason: "full" });
        return false;
      }
      queue.push(b);
      beaconsQueued.inc();
      if (queue.length >= batchSize) soon ??= setImmediate(handOver);
      else timer ??= setTimeout(handOver, flushMs);
      return true;
    },
    flush,
    async close() {
      if (closed) return;
      closed = true;
      handOver();
      const until = Date.now() + CLOSE_WAIT_MS;
      // A failed write is retried until the thread writes it, or the time is up.
      while (inFlight.size > 0 && Date.now() < until) await Promise.race([flush(), new Promise((r) => setTimeout(r, 100))]);
      const w = worker;
      worker = null;
      await w?.terminate();
      // Only when the disk refuses every write: say what is lost rather than write it twice.
      if (inFlightBeacons > 0) log().error({ lost: inFlightBeacons }, `Analytics: ${inFlightBeacons} events could not be written before shutdown`);
    },
    get queued() {
      return queue.length + inFlightBeacons;
    },
  };
}
