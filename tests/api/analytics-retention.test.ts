/**
 * Retention (ANALYTICS_RAW_DAYS): raw events older than the setting are deleted, rollups and the
 * reports they feed are kept, and ended days' visitor secrets go too. Time comes from `now`.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseEnv } from "#api/env.server.ts";
import { analyticsReport } from "#api/services/analytics.ts";
import { daySalt, pruneAnalytics, recordEvents } from "#api/services/analytics-store.ts";
import { AnalyticsRangeSchema } from "#core/schemas/analytics.ts";
import { analyticsEvents, analyticsSalts, analyticsVisitors } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

const DAY = 86_400_000;
const now = new Date(Date.UTC(2026, 10, 26, 12));
let t: TestApp;
let owner: ApiOwner;

beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
});
afterEach(() => t.close());

const report = () =>
  analyticsReport(t.deps.db, owner.userId, AnalyticsRangeSchema.parse({ from: new Date(now.getTime() - 200 * DAY).toISOString(), to: now.toISOString() }), { leads: false });

describe("ANALYTICS_RAW_DAYS", () => {
  it("defaults to 90 and refuses what is not a number of days", () => {
    expect(parseEnv({}).ANALYTICS_RAW_DAYS).toBe(90);
    expect(parseEnv({ ANALYTICS_RAW_DAYS: "30" }).ANALYTICS_RAW_DAYS).toBe(30);
    for (const bad of ["0", "-1", "abc", "1.5"]) expect(() => parseEnv({ ANALYTICS_RAW_DAYS: bad }), bad).toThrow();
  });

  it("deletes raw events older than the setting in slices and keeps every rollup", () => {
    const ages = [120, 100, 91, 90.5, 89, 10, 0.5];
    for (const age of ages) {
      recordEvents(t.deps.db, Array.from({ length: 7 }, () => ({ userId: owner.userId, kind: "page_view" as const, device: "mobile" as const, occurredAt: new Date(now.getTime() - age * DAY) })));
    }
    const before = report();
    expect(before.totals.pageViews).toBe(49);
    // Slices of 3 rows: the pass goes on until a slice holds a kept event.
    expect(pruneAnalytics(t.deps.db, now, 90, 3)).toBe(28);
    const left = t.deps.db.select().from(analyticsEvents).all();
    expect(left).toHaveLength(21);
    expect(left.every((e) => e.occurredAt.getTime() >= now.getTime() - 90 * DAY)).toBe(true);
    expect(report()).toEqual(before);
    expect(pruneAnalytics(t.deps.db, now, 90)).toBe(0);
  });

  it("deletes the secrets and visitor hashes of days that have ended", () => {
    const yesterday = new Date(now.getTime() - DAY);
    const salt = daySalt(t.deps.db, yesterday);
    recordEvents(t.deps.db, [{ userId: owner.userId, kind: "page_view", device: "mobile", occurredAt: yesterday, visitorHash: "h" }]);
    expect(t.deps.db.select().from(analyticsSalts).all()).toEqual([{ day: Math.floor(yesterday.getTime() / DAY), salt }]);
    expect(t.deps.db.select().from(analyticsVisitors).all()).toHaveLength(1);
    pruneAnalytics(t.deps.db, now, 90);
    expect(t.deps.db.select().from(analyticsSalts).all()).toHaveLength(0);
    expect(t.deps.db.select().from(analyticsVisitors).all()).toHaveLength(0);
    expect(report().totals.visitors).toBe(1);
  });
});
