/**
 * Analytics reports on a thread of their own (ADR 116, ADR 170): the thread reads through its own connection,
 * so a 90-day report of a busy page never holds up other requests, beacons or owners. Started on the
 * first report and unreferenced, so it never keeps a process alive; a database without a file (an
 * in-memory one) is read in place.
 */
import { Worker } from "node:worker_threads";
import type { AnalyticsRange } from "#core/schemas/analytics.ts";
import { databaseFile, type Db } from "#db/client.ts";
import { analyticsReport, type AnalyticsReport } from "./analytics.ts";

export type ReportOptions = Parameters<typeof analyticsReport>[3];
export type ReportRequest = { id: number; userId: string; range: AnalyticsRange; opts: ReportOptions };
export type ReportAnswer = { id: number; report: AnalyticsReport } | { id: number; error: string };

export interface ReportThread {
  report(userId: string, range: AnalyticsRange, opts: ReportOptions): Promise<AnalyticsReport>;
  close(): void;
}

// The thread's entry registers tsx, as the republish workers do (renderer/republish.ts).
const entry = new URL("./report-thread-worker.mjs", import.meta.url);

type Pending = Map<number, { resolve: (r: AnalyticsReport) => void; reject: (e: Error) => void }>;

export function createReportThread(db: Db): ReportThread {
  const path = databaseFile(db);
  let current: { worker: Worker; pending: Pending } | null = null;
  let nextId = 0;

  const start = (file: string) => {
    const worker = new Worker(entry, { execArgv: [], workerData: { path: file } });
    const pending: Pending = new Map();
    const thread = { worker, pending };
    // A thread that fails takes only its own reports with it; the next report starts another.
    const fail = (err: Error) => {
      for (const p of pending.values()) p.reject(err);
      pending.clear();
      if (current === thread) current = null;
    };
    worker.unref();
    worker.on("message", (m: ReportAnswer) => {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if ("report" in m) p?.resolve(m.report);
      else p?.reject(new Error(m.error));
    });
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the report thread exited with ${code}`)));
    return thread;
  };

  return {
    report(userId, range, opts) {
      if (!path) return Promise.resolve(analyticsReport(db, userId, range, opts));
      const { worker, pending } = (current ??= start(path));
      const id = ++nextId;
      const answer = new Promise<AnalyticsReport>((resolve, reject) => pending.set(id, { resolve, reject }));
      worker.postMessage({ id, userId, range, opts } satisfies ReportRequest);
      return answer;
    },
    close() {
      const stopping = current;
      current = null;
      void stopping?.worker.terminate();
    },
  };
}
