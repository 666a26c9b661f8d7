/** The report thread (report-thread.ts): one read connection, one report at a time. */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "#db/client.ts";
import { analyticsReport } from "./analytics.ts";
import type { ReportAnswer, ReportRequest } from "./report-thread.ts";

const db = openDatabase({ path: (workerData as { path: string }).path, migrate: false });
db.$client.pragma("query_only = ON");
const port = parentPort!;
port.on("message", (m: ReportRequest) => {
  let answer: ReportAnswer;
  try {
    answer = { id: m.id, report: analyticsReport(db, m.userId, m.range, m.opts) };
  } catch (err) {
    answer = { id: m.id, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(answer);
});
