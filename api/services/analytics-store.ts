/**
 * Writing analytics (ADR 071): raw events and the rollups that reports read, in one transaction, so
 * a report never sees an event without its counts or counts without their event. Bots are stored as
 * raw events only: they are never counted.
 */
import type { Db } from "#db/client.ts";
import type { analyticsEvents, ROLLUP_DIMENSIONS } from "#db/schema.ts";

export type AnalyticsEventInput = Pick<typeof analyticsEvents.$inferInsert, "userId" | "kind" | "linkId" | "referrerDomain" | "device"> & { occurredAt: Date };
export type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];

export const DAY_MS = 86_400_000;
export const QUARTER_MS = 900_000;
export const QUARTERS_PER_DAY = DAY_MS / QUARTER_MS;

/** The rollup keys an event counts under; a bot counts under none. */
export function rollupKeysOf(e: AnalyticsEventInput): [RollupDimension, string][] {
  if (e.device === "bot") return [];
  if (e.kind === "link_click") return [["page", ""], ["link", e.linkId ?? ""]];
  return [["page", ""], ["referrer", e.referrerDomain ?? ""], ["device", e.device ?? "other"]];
}

const statements = new WeakMap<Db, ReturnType<typeof prepare>>();
function prepare(db: Db) {
  const c = db.$client;
  return {
    event: c.prepare(
      "INSERT INTO analytics_events (user_id, kind, link_id, occurred_at, referrer_domain, device) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    rollup: c.prepare(
      `INSERT INTO analytics_rollups (user_id, dimension, grain, bucket, key, views, clicks) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, dimension, grain, bucket, key) DO UPDATE SET views = views + excluded.views, clicks = clicks + excluded.clicks`,
    ),
  };
}

/** Store events and add them to the rollups, all or nothing. */
export function recordEvents(db: Db, events: readonly AnalyticsEventInput[]): void {
  if (events.length === 0) return;
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  const { event, rollup } = s;
  db.$client.transaction(() => {
    const sums = new Map<string, { args: [string, RollupDimension, "day" | "quarter", number, string]; views: number; clicks: number }>();
    for (const e of events) {
      const at = e.occurredAt.getTime();
      event.run(e.userId, e.kind, e.linkId ?? null, at, e.referrerDomain ?? null, e.device ?? "other");
      const view = e.kind === "page_view" ? 1 : 0;
      for (const [dimension, key] of rollupKeysOf(e)) {
        for (const [grain, bucket] of [["day", Math.floor(at / DAY_MS)], ["quarter", Math.floor(at / QUARTER_MS)]] as const) {
          const id = `${e.userId}\u0000${dimension}\u0000${grain}\u0000${bucket}\u0000${key}`;
          const sum = sums.get(id) ?? { args: [e.userId, dimension, grain, bucket, key], views: 0, clicks: 0 };
          sum.views += view;
          sum.clicks += 1 - view;
          sums.set(id, sum);
        }
      }
    }
    for (const r of sums.values()) rollup.run(...r.args, r.views, r.clicks);
  }).immediate();
}
