/**
 * The analytics batching writer (ADR 072, ADR 116): a beacon is checked, then queued; the queue is
 * handed to the writer thread every `flushMs` milliseconds or every `batchSize` beacons, whichever
 * comes first. The thread derives each event (device, country, campaign, visitor) and writes a batch
 * in one transaction through its own connection, so no request waits on analytics writes. A full
 * queue refuses (the route answers 503 with Retry-After) rather than dropping silently; a failed
 * write keeps its beacons and is retried; `close()` waits until everything queued is written, ends
 * the thread, and from then on writes each beacon at once in place, so no acknowledged beacon is lost
 * on a clean shutdown. A thread that stops is replaced and given what it had not written. A database
 * without a file (an in-memory one) is written in place.
 */
import { Worker } from "node:worker_threads";
import { databaseFile, type Db } from "#db/client.ts";
import { recordBeacons, type Beacon } from "./beacon-events.ts";
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
  enqueue(b: Beacon): boolean;
  /** Write everything queued now, and wait until it is written or the write failed. */
  flush(): void;
  /** Flush, end the thread, and write every later beacon at once (shutdown). */
  close(): void;
  /** Beacons not written yet. */
  readonly queued: number;
}

/** Between the writer and its thread: batches, numbered from 1. */
export type ToWriterThread = { seq: number; beacons: Beacon[] } | { retry: true };

/** Shared with the thread: [0] the last batch written, [1] how many writes failed. */
export const WRITTEN = 0;
export const FAILURES = 1;

export const EVENT_WRITER_DEFAULTS = { batchSize: 500, flushMs: 20, maxQueue: 20_000 } as const;
/** The longest flush() and close() wait for the thread (which may still be starting on a busy machine). */
const SETTLE_MS = 30_000;

// The thread's entry registers tsx, as the republish workers do (renderer/republish.ts).
const entry = new URL("./event-writer-thread.mjs", import.meta.url);

export function createEventWriter(db: Db, opts: EventWriterOptions = {}): EventWriter {
  const { batchSize, flushMs, maxQueue } = { ...EVENT_WRITER_DEFAULTS, ...opts };
  const path = databaseFile(db);
  let queue: Beacon[] = [];
  let timer: NodeJS.Timeout | null = null;
  let soon: NodeJS.Immediate | null = null;
  let closed = path === null;
  // Batches handed to the thread and not yet written, kept to hand again to a new thread.
  const inFlight = new Map<number, Beacon[]>();
  let inFlightBeacons = 0;
  let seq = 0;
  const shared = new Int32Array(new SharedArrayBuffer(8));
  let worker: Worker | null = null;

  const forgetWritten = () => {
    const written = Atomics.load(shared, WRITTEN);
    for (const [n, batch] of inFlight) {
      if (n > written) break;
      inFlight.delete(n);
      inFlightBeacons -= batch.length;
      beaconsWritten.inc(batch.length);
    }
  };
  const thread = () => {
    if (worker) return worker;
    const w = new Worker(entry, { execArgv: [], workerData: { path, shared } });
    w.unref();
    const lost = (err: unknown) => {
      if (worker !== w) return;
      log().error({ err }, "The analytics writer thread stopped; starting another");
      worker = null;
      // What it had not written goes to the next thread, in order.
      forgetWritten();
      if (inFlight.size > 0) {
        const next = thread();
        for (const [n, beacons] of inFlight) next.postMessage({ seq: n, beacons } satisfies ToWriterThread);
      }
    };
    w.on("error", lost);
    w.on("exit", (code) => lost(new Error(`exit code ${code}`)));
    worker = w;
    return w;
  };
  const cancel = () => {
    if (timer) clearTimeout(timer);
    if (soon) clearImmediate(soon);
    timer = null;
    soon = null;
  };
  const handOver = () => {
    cancel();
    while (queue.length > 0) {
      const beacons = queue.slice(0, batchSize);
      queue = queue.slice(beacons.length);
      inFlight.set(++seq, beacons);
      inFlightBeacons += beacons.length;
      thread().postMessage({ seq, beacons } satisfies ToWriterThread);
    }
  };
  /** Hand everything over and wait until the thread has written it, or a write failed. */
  const settle = () => {
    handOver();
    forgetWritten();
    if (inFlight.size === 0) return;
    const failures = Atomics.load(shared, FAILURES);
    worker?.postMessage({ retry: true } satisfies ToWriterThread);
    const until = Date.now() + SETTLE_MS;
    while (Atomics.load(shared, WRITTEN) < seq && Atomics.load(shared, FAILURES) === failures && Date.now() < until) {
      Atomics.wait(shared, WRITTEN, Atomics.load(shared, WRITTEN), 50);
    }
    forgetWritten();
  };

  return {
    enqueue(b) {
      if (closed) {
        recordBeacons(db, [b]);
        beaconsQueued.inc();
        beaconsWritten.inc();
        return true;
      }
      forgetWritten();
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
    flush: settle,
    close() {
      if (closed) return;
      settle();
      closed = true;
      const w = worker;
      worker = null;
      void w?.terminate();
      // Only when the disk refuses every write: the thread may still be retrying, so say what is lost
      // rather than write it twice.
      if (inFlightBeacons > 0) log().error({ lost: inFlightBeacons }, `Analytics: ${inFlightBeacons} events could not be written before shutdown`);
    },
    get queued() {
      forgetWritten();
      return queue.length + inFlightBeacons;
    },
  };
}
