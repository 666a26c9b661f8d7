/**
 * Writing analytics (ADR 071): raw events and the rollups that reports read, in one transaction, so
 * a report never sees an event without its counts or counts without their event. Bots are stored as
 * raw events only: they are never counted.
 */
import { hash, randomBytes } from "node:crypto";
import { referrerSite } from "#core/referrer-sites.ts";
import type { Db } from "#db/client.ts";
import type { analyticsEvents, ROLLUP_DIMENSIONS } from "#db/schema.ts";
import { log } from "../log.ts";

export type AnalyticsEventInput = Pick<
  typeof analyticsEvents.$inferInsert,
  "userId" | "kind" | "linkId" | "referrerDomain" | "device" | "country" | "utmSource" | "utmMedium" | "utmCampaign"
> & {
  occurredAt: Date;
  /** The visitor's hash for the day (visitorHash); never stored with the event. */
  visitorHash?: string | null;
};
export type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];

export const DAY_MS = 86_400_000;
export const QUARTER_MS = 900_000;
export const QUARTERS_PER_DAY = DAY_MS / QUARTER_MS;

/** A campaign's rollup key: its three values, any of them empty. */
export const campaignKey = (e: Pick<AnalyticsEventInput, "utmSource" | "utmMedium" | "utmCampaign">) =>
  JSON.stringify([e.utmSource ?? "", e.utmMedium ?? "", e.utmCampaign ?? ""]);

/** The rollup keys an event counts under; a bot counts under none. */
export function rollupKeysOf(e: AnalyticsEventInput): [RollupDimension, string][] {
  if (e.device === "bot") return [];
  if (e.kind === "link_click") return [["page", ""], ["link", e.linkId ?? ""]];
  const keys: [RollupDimension, string][] = [
    ["page", ""],
    ["referrer", referrerSite(e.referrerDomain)],
    ["device", e.device ?? "other"],
    ["country", e.country ?? ""],
  ];
  if (e.utmSource || e.utmMedium || e.utmCampaign) keys.push(["campaign", campaignKey(e)]);
  return keys;
}

const salts = new WeakMap<Db, { day: number; salt: string }>();

/**
 * The day's secret (ADR 073), kept in the database so a restart keeps counting today's visitors
 * once. The first call of a new UTC day deletes every earlier day's secret and visitor hashes.
 */
export function daySalt(db: Db, now: Date): string {
  const day = Math.floor(now.getTime() / DAY_MS);
  const hit = salts.get(db);
  if (hit?.day === day) return hit.salt;
  const c = db.$client;
  const salt = c
    .transaction(() => {
      c.prepare("DELETE FROM analytics_salts WHERE day < ?").run(day);
      c.prepare("DELETE FROM analytics_visitors WHERE day < ?").run(day);
      c.prepare("INSERT OR IGNORE INTO analytics_salts (day, salt) VALUES (?, ?)").run(day, randomBytes(32).toString("hex"));
      return (c.prepare("SELECT salt FROM analytics_salts WHERE day = ?").get(day) as { salt: string }).salt;
    })
    .immediate();
  salts.set(db, { day, salt });
  return salt;
}

/** A visitor of a page today, without cookies and without keeping the address. */
export function visitorHash(db: Db, v: { userId: string; address: string; userAgent: string; now: Date }): string {
  return hash("sha256", `${daySalt(db, v.now)}\n${v.address}\n${v.userAgent}\n${v.userId}`, "hex");
}

const statements = new WeakMap<Db, ReturnType<typeof prepare>>();
function prepare(db: Db) {
  const c = db.$client;
  return {
    event: c.prepare(
      `INSERT INTO analytics_events (user_id, kind, link_id, occurred_at, referrer_domain, device, country, utm_source, utm_medium, utm_campaign)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    visitor: c.prepare("INSERT OR IGNORE INTO analytics_visitors (day, hash) VALUES (?, ?)"),
    rollup: c.prepare(
      `INSERT INTO analytics_rollups (user_id, dimension, grain, bucket, key, views, clicks, visitors) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, dimension, grain, bucket, key)
       DO UPDATE SET views = views + excluded.views, clicks = clicks + excluded.clicks, visitors = visitors + excluded.visitors`,
    ),
  };
}

/** Store events and add them to the rollups, all or nothing. */
export function recordEvents(db: Db, events: readonly AnalyticsEventInput[]): void {
  if (events.length === 0) return;
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  const { event, rollup, visitor } = s;
  db.$client.transaction(() => {
    const sums = new Map<string, { args: [string, RollupDimension, "day" | "quarter", number, string]; views: number; clicks: number; visitors: number }>();
    for (const e of events) {
      const at = e.occurredAt.getTime();
      const day = Math.floor(at / DAY_MS);
      event.run(e.userId, e.kind, e.linkId ?? null, at, e.referrerDomain ?? null, e.device ?? "other", e.country ?? null, e.utmSource ?? null, e.utmMedium ?? null, e.utmCampaign ?? null);
      const view = e.kind === "page_view" ? 1 : 0;
      // The visitor's first counted view of the day on this page.
      const keys = rollupKeysOf(e);
      const firstVisit = view && keys.length > 0 && e.visitorHash ? visitor.run(day, e.visitorHash).changes : 0;
      for (const [dimension, key] of keys) {
        for (const [grain, bucket] of [["day", day], ["quarter", Math.floor(at / QUARTER_MS)]] as const) {
          const id = `${e.userId}\u0000${dimension}\u0000${grain}\u0000${bucket}\u0000${key}`;
          const sum = sums.get(id) ?? { args: [e.userId, dimension, grain, bucket, key], views: 0, clicks: 0, visitors: 0 };
          sum.views += view;
          sum.clicks += 1 - view;
          if (dimension === "page") sum.visitors += firstVisit;
          sums.set(id, sum);
        }
      }
    }
    for (const r of sums.values()) rollup.run(...r.args, r.views, r.clicks, r.visitors);
  }).immediate();
}

/**
 * Retention: raw events older than `rawDays` days go, in slices so no single transaction holds the
 * writer for long; rollups stay. Also deletes visitor secrets and hashes of days that have ended.
 * Returns the number of raw events deleted.
 */
export function pruneAnalytics(db: Db, now: Date, rawDays: number, slice = 5_000): number {
  const c = db.$client;
  const before = now.getTime() - rawDays * DAY_MS;
  const today = Math.floor(now.getTime() / DAY_MS);
  c.prepare("DELETE FROM analytics_salts WHERE day < ?").run(today);
  c.prepare("DELETE FROM analytics_visitors WHERE day < ?").run(today);
  // Events are written in time order, so the oldest ids are the oldest events: each slice reads
  // only the next `slice` rows, and a slice that is not all old ends the pass.
  const del = c.prepare("DELETE FROM analytics_events WHERE id IN (SELECT id FROM analytics_events ORDER BY id LIMIT ?) AND occurred_at < ?");
  let total = 0;
  for (;;) {
    const n = del.run(slice, before).changes;
    total += n;
    if (n < slice) return total;
  }
}

/** Prune now and every hour; the returned function stops it. */
export function startAnalyticsRetention(db: Db, rawDays: number, now: () => Date = () => new Date()): () => void {
  const run = () => {
    try {
      pruneAnalytics(db, now(), rawDays);
    } catch (err) {
      log().error({ err }, "Analytics retention failed");
    }
  };
  const first = setTimeout(run, 1_000);
  const every = setInterval(run, 3_600_000);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
