/**
 * The analytics batching writer (ADR 072): a beacon is validated, then queued; the queue is written
 * in one transaction every few milliseconds or every `batchSize` events, whichever comes first. A
 * full queue refuses (the route answers 503 with Retry-After) rather than dropping silently; a
 * failed write keeps its events queued for the next attempt; `close()` writes everything queued and
 * from then on writes each event at once, so no acknowledged event is lost on a clean shutdown.
 */
import type { Db } from "#db/client.ts";
import { recordEvents, type AnalyticsEventInput } from "./analytics-store.ts";

export interface EventWriterOptions {
  /** Events per transaction, and the queue length that starts a write without waiting. */
  batchSize?: number;
  /** The longest an event waits in the queue, in milliseconds. */
  flushMs?: number;
  /** Queued events beyond which a beacon is refused. */
  maxQueue?: number;
}

export interface EventWriter {
  /** Queue an event; false when the queue is full (nothing was queued). */
  enqueue(e: AnalyticsEventInput): boolean;
  /** Write everything queued now. */
  flush(): void;
  /** Flush and write every later event at once (shutdown). */
  close(): void;
  readonly queued: number;
}

export const EVENT_WRITER_DEFAULTS = { batchSize: 500, flushMs: 20, maxQueue: 20_000 } as const;

export function createEventWriter(db: Db, opts: EventWriterOptions = {}): EventWriter {
  const { batchSize, flushMs, maxQueue } = { ...EVENT_WRITER_DEFAULTS, ...opts };
  let queue: AnalyticsEventInput[] = [];
  let timer: NodeJS.Timeout | null = null;
  let soon: NodeJS.Immediate | null = null;
  let closed = false;

  const cancel = () => {
    if (timer) clearTimeout(timer);
    if (soon) clearImmediate(soon);
    timer = null;
    soon = null;
  };
  const flush = () => {
    cancel();
    while (queue.length > 0) {
      const batch = queue.slice(0, batchSize);
      try {
        recordEvents(db, batch);
      } catch (err) {
        // Kept for the next attempt; the queue's bound turns a lasting failure into 503s.
        console.error("Analytics write failed; retrying", err);
        if (!closed) timer = setTimeout(flush, Math.max(flushMs, 100));
        return;
      }
      queue = queue.slice(batch.length);
    }
  };

  return {
    enqueue(e) {
      if (closed) {
        recordEvents(db, [e]);
        return true;
      }
      if (queue.length >= maxQueue) return false;
      queue.push(e);
      if (queue.length >= batchSize) soon ??= setImmediate(flush);
      else timer ??= setTimeout(flush, flushMs);
      return true;
    },
    flush,
    close() {
      closed = true;
      flush();
    },
    get queued() {
      return queue.length;
    },
  };
}
