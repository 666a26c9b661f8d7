/**
 * Reports run on a thread of their own with a read-only connection (issue 21): the thread answers
 * exactly the report analyticsReport makes in place, sees what the server's connection committed,
 * cannot write, and a thread that fails takes only its own reports with it.
 */
import { isMainThread } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { analyticsReport } from "#api/services/analytics.ts";
import { recordEvents } from "#api/services/analytics-store.ts";
import { createReportThread, type ReportThread } from "#api/services/report-thread.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
let thread: ReportThread;
const at = Date.UTC(2026, 2, 10, 12);
const range = { from: new Date(at - 7 * 86_400_000).toISOString(), to: new Date(at + 86_400_000).toISOString(), tz: 0 };
const view = (referrerDomain: string) => ({ userId: owner.userId, kind: "page_view" as const, device: "mobile" as const, referrerDomain, occurredAt: new Date(at) });

beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
  thread = createReportThread(t.deps.db);
});
afterEach(() => {
  thread.close();
  t.close();
});

describe("the report thread", () => {
  it("answers the report made in place, with what the server committed just before", async () => {
    recordEvents(t.deps.db, [view("instagram.com"), view("instagram.com"), view("news.example")]);
    const report = await thread.report(owner.userId, range, { leads: true });
    expect(isMainThread).toBe(true);
    expect(report).toEqual(analyticsReport(t.deps.db, owner.userId, range, { leads: true }));
    expect(report.totals.pageViews).toBe(3);
    recordEvents(t.deps.db, [view("news.example")]);
    expect((await thread.report(owner.userId, range, { leads: true })).totals.pageViews).toBe(4);
  });

  it("reads an in-memory database in place", async () => {
    const memory = openDatabase({ path: ":memory:" });
    try {
      const inPlace = createReportThread(memory);
      expect((await inPlace.report(owner.userId, range, { leads: false })).totals.pageViews).toBe(0);
      inPlace.close();
    } finally {
      closeDatabase(memory);
    }
  });

  it("rejects the reports of a thread that stops, and starts a new thread for the next one", async () => {
    recordEvents(t.deps.db, [view("instagram.com")]);
    const pending = thread.report(owner.userId, range, { leads: false });
    thread.close();
    await expect(pending).rejects.toThrow(/exited/);
    expect((await thread.report(owner.userId, range, { leads: false })).totals.pageViews).toBe(1);
  });
});
