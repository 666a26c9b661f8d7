/**
 * The owner's analytics, always filtered by owner and by the chosen range, read from the rollups
 * (ADR 071): the cost grows with the days in the range, never with the events in it. Bots are stored
 * as raw events but never counted. The dashboard, the CSV and the JSON export all come from here.
 */
import { and, asc, count, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import { rangeDays } from "#core/analytics-range.ts";
import { clickThroughRate, type AnalyticsRange } from "#core/schemas/analytics.ts";
import { LINK_TYPE_LABELS, type LinkType } from "#core/link-types.ts";
import { isMediaPath } from "#core/url-rule.ts";
import { referrerSite } from "#core/referrer-sites.ts";
import type { Db } from "#db/client.ts";
import { analyticsRollups, collectedLeads, links, uploads } from "#db/schema.ts";
import { DAY_MS, QUARTER_MS, QUARTERS_PER_DAY, type RollupDimension } from "./analytics-store.ts";

export interface AnalyticsReport {
  /** first and last: the owner's first and last day of the range, both included (core/analytics-range.ts). */
  range: { from: string; to: string; first: string; last: string };
  allTimePageViews: number;
  /** visitors: a visitor counts once per UTC day they viewed the page (ADR 073). */
  totals: { pageViews: number; linkClicks: number; emailLeads: number | null; visitors: number };
  /**
   * Whether the Plus parts (links, sources, campaigns) were computed (ADR 074); without
   * detailed_analytics they are empty lists.
   */
  detailed: boolean;
  /**
   * target: where the link leads, as a reader would say it: its URL, or "Contact Card", "Lead Magnet: guide.pdf", ...
   * daily: the link's clicks on the owner's days that have any, in date order.
   */
  links: { linkId: string; title: string; url: string; target: string; isActive: boolean; clicks: number; ctr: number; daily: { date: string; clicks: number }[] }[];
  /** referrers[].domain is the site (core/referrer-sites.ts): "Instagram", "X", or a host. countries[].country is a code or "Unknown". */
  sources: {
    referrers: { domain: string; views: number }[];
    devices: { device: string; views: number }[];
    countries: { country: string; views: number }[];
  };
  campaigns: { source: string; medium: string; campaign: string; views: number }[];
  daily: { date: string; pageViews: number; linkClicks: number; visitors: number }[];
}

type Part = { grain: "day" | "quarter"; lo: number; hi: number };

/** [fromQ, toQ) in quarter hours as whole UTC days in the middle and quarter hours at the edges. */
export function rollupParts(fromQ: number, toQ: number): Part[] {
  const firstDay = Math.ceil(fromQ / QUARTERS_PER_DAY);
  const endDay = Math.floor(toQ / QUARTERS_PER_DAY);
  if (firstDay >= endDay) return [{ grain: "quarter", lo: fromQ, hi: toQ }];
  return [
    { grain: "quarter", lo: fromQ, hi: firstDay * QUARTERS_PER_DAY },
    { grain: "day", lo: firstDay, hi: endDay },
    { grain: "quarter", lo: endDay * QUARTERS_PER_DAY, hi: toQ },
  ].filter((p): p is Part => p.hi > p.lo);
}

/** One owner's rollup rows of a dimension in a part: one index range. */
const inRollups = (userId: string, dimension: RollupDimension, p: Part) =>
  and(
    eq(analyticsRollups.userId, userId),
    eq(analyticsRollups.dimension, dimension),
    eq(analyticsRollups.grain, p.grain),
    gte(analyticsRollups.bucket, p.lo),
    lt(analyticsRollups.bucket, p.hi),
  );

function sumsOf(db: Db, userId: string, dimension: RollupDimension, parts: Part[]) {
  const sums = new Map<string, { views: number; clicks: number; visitors: number }>();
  for (const p of parts) {
    const rows = db
      .select({
        key: analyticsRollups.key,
        views: sql<number>`sum(${analyticsRollups.views})`,
        clicks: sql<number>`sum(${analyticsRollups.clicks})`,
        visitors: sql<number>`sum(${analyticsRollups.visitors})`,
      })
      .from(analyticsRollups)
      .where(inRollups(userId, dimension, p))
      .groupBy(analyticsRollups.key)
      .all();
    for (const r of rows) {
      const s = sums.get(r.key) ?? { views: 0, clicks: 0, visitors: 0 };
      s.views += r.views;
      s.clicks += r.clicks;
      s.visitors += r.visitors;
      sums.set(r.key, s);
    }
  }
  return sums;
}

const byViews = <T extends { views: number }>(rows: (T & { name: string })[]) =>
  rows.filter((r) => r.views > 0).sort((a, b) => b.views - a.views || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/**
 * Where a link leads, for a report: its address, or what the page does for a link without one. A
 * download names its file: a Paid Download by the name kept with the link, a lead magnet's upload by
 * the name it had on the owner's device (`uploadNames`, by media path; an upload from before names
 * were kept shows just its type, never its stored hash), a file elsewhere by the last part of its URL.
 */
export function linkTarget(l: { url: string; linkType: LinkType; linkSpecificData: Record<string, string> }, uploadNames: ReadonlyMap<string, string> = new Map()): string {
  if (l.url.trim() && !l.url.startsWith("#")) return l.url;
  const label = LINK_TYPE_LABELS[l.linkType];
  const file = fileNameOf(l, uploadNames);
  return file ? `${label}: ${file}` : label;
}

function fileNameOf(l: { linkType: LinkType; linkSpecificData: Record<string, string> }, uploadNames: ReadonlyMap<string, string>): string | undefined {
  if (l.linkType === "paid_download") return l.linkSpecificData.fileName;
  if (l.linkType !== "lead_magnet") return undefined;
  const fileUrl = l.linkSpecificData.fileUrl ?? "";
  return isMediaPath(fileUrl) ? uploadNames.get(fileUrl) : decodeURIComponentSafe(fileUrl.split(/[?#]/)[0]!.split("/").pop() ?? "");
}

/** The names the owner's lead-magnet uploads had on their device, by media path ("/media/ab/….pdf"). */
function uploadNamesOf(db: Db, userId: string): Map<string, string> {
  const rows = db
    .select({ key: uploads.storageKey, name: uploads.originalName })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), eq(uploads.kind, "lead_magnet"), isNotNull(uploads.originalName)))
    .all();
  return new Map(rows.map((r) => [`/${r.key}`, r.name!]));
}
function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * A dimension's counts per key and per day in the owner's time zone: each quarter hour shifted by
 * their offset, then grouped by whole day (an integer, cheaper than a date per row).
 */
function dailyOf(db: Db, userId: string, dimension: RollupDimension, fromQ: number, toQ: number, tz: number) {
  // Integers written into the SQL (a bound JS number is a REAL, which would not divide whole).
  const shift = sql.raw(String(Math.trunc(tz) * 60));
  const localDay = sql<number>`(${analyticsRollups.bucket} * ${sql.raw(String(QUARTER_MS / 1000))} - ${shift}) / 86400`;
  return db
    .select({
      key: analyticsRollups.key,
      day: localDay,
      pageViews: sql<number>`sum(${analyticsRollups.views})`,
      linkClicks: sql<number>`sum(${analyticsRollups.clicks})`,
      visitors: sql<number>`sum(${analyticsRollups.visitors})`,
    })
    .from(analyticsRollups)
    .where(inRollups(userId, dimension, { grain: "quarter", lo: fromQ, hi: toQ }))
    .groupBy(analyticsRollups.key, localDay)
    .orderBy(analyticsRollups.key, localDay)
    .all();
}

/**
 * Each link's clicks per day of the range in the owner's time zone (Plus: the clicks-over-time chart),
 * without reading every quarter hour of every link: a whole local day is its UTC day's count, less the
 * quarter hours before the owner's midnight that day, plus those before it the next day (or the same
 * with the quarter hours after it, whichever are fewer). Partial days at the range's edges, and an
 * offset that is not whole quarter hours, count their quarter hours directly.
 */
function linkDaily(db: Db, userId: string, fromQ: number, toQ: number, tz: number) {
  const perDay = new Map<string, Map<number, number>>();
  const add = (key: string, day: number, n: number) => {
    const days = perDay.get(key) ?? new Map<number, number>();
    days.set(day, (days.get(day) ?? 0) + n);
    perDay.set(key, days);
  };
  const direct = (lo: number, hi: number) => {
    if (hi > lo) for (const r of dailyOf(db, userId, "link", lo, hi, tz)) add(r.key, r.day, r.linkClicks);
  };
  const offset = tz / 15; // the owner's local day L is quarter hours [L * 96 + offset, (L + 1) * 96 + offset)
  const firstDay = Math.ceil((fromQ - offset) / QUARTERS_PER_DAY);
  const endDay = Math.floor((toQ - offset) / QUARTERS_PER_DAY);
  if (!Number.isInteger(offset) || endDay <= firstDay) {
    direct(fromQ, toQ);
  } else {
    const start = firstDay * QUARTERS_PER_DAY + offset;
    const end = endDay * QUARTERS_PER_DAY + offset;
    direct(fromQ, start);
    direct(end, toQ);
    // Local day L starts `head` quarter hours into UTC day L + shift.
    const head = ((offset % QUARTERS_PER_DAY) + QUARTERS_PER_DAY) % QUARTERS_PER_DAY;
    const shift = (offset - head) / QUARTERS_PER_DAY;
    const heads = head <= QUARTERS_PER_DAY / 2;
    // heads: L = day(L + shift) - before(L + shift) + before(L + shift + 1), "before" the quarter hours
    // of a UTC day before `head`; tails: L = after(L + shift) + day(L + shift + 1) - after(L + shift + 1).
    const [lo, hi] = heads ? [0, head] : [head, QUARTERS_PER_DAY];
    const dayOf = heads ? 0 : 1;
    const c = db.$client;
    const days = c.prepare(
      "SELECT key, bucket, clicks FROM analytics_rollups WHERE user_id = ? AND dimension = 'link' AND grain = 'day' AND bucket >= ? AND bucket < ?",
    );
    for (const [key, utc, n] of days.raw().iterate(userId, firstDay + shift + dayOf, endDay + shift + dayOf) as Iterable<[string, number, number]>) {
      add(key, utc - shift - dayOf, n);
    }
    if (hi > lo) {
      // Each UTC day's window of quarter hours, read once: one index range per day.
      const window = c.prepare(
        "SELECT key, clicks FROM analytics_rollups WHERE user_id = ? AND dimension = 'link' AND grain = 'quarter' AND bucket >= ? AND bucket < ?",
      );
      const sign = heads ? 1 : -1;
      for (let day = firstDay; day <= endDay; day++) {
        // The window of UTC day `day + shift` counts against local day `day` and for local day `day - 1`.
        const utc = (day + shift) * QUARTERS_PER_DAY;
        for (const [key, n] of window.raw().iterate(userId, utc + lo, utc + hi) as Iterable<[string, number]>) {
          if (day < endDay) add(key, day, -sign * n);
          if (day > firstDay) add(key, day - 1, sign * n);
        }
      }
    }
  }
  const byLink = new Map<string, { date: string; clicks: number }[]>();
  for (const [key, days] of perDay) {
    const list = [...days].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
    byLink.set(key, list.map(([day, clicks]) => ({ date: dateOf(day), clicks })));
  }
  return byLink;
}

/** The report; `detailed` (Plus, ADR 074) adds links, sources and campaigns, `leads` the e-mail count. */
export function analyticsReport(db: Db, userId: string, r: AnalyticsRange, opts: { leads: boolean; detailed?: boolean }): AnalyticsReport {
  const detailed = opts.detailed ?? true;
  const from = new Date(r.from);
  const to = new Date(r.to);
  // Counted in quarter hours: every time zone's midnight is on one.
  const fromQ = Math.floor(from.getTime() / QUARTER_MS);
  const toQ = Math.floor(to.getTime() / QUARTER_MS);
  const parts = rollupParts(fromQ, toQ);

  const page = sumsOf(db, userId, "page", parts).get("") ?? { views: 0, clicks: 0, visitors: 0 };
  const pageViews = page.views;
  const linkClicks = page.clicks;
  const allTimePageViews =
    db
      .select({ n: sql<number>`coalesce(sum(${analyticsRollups.views}), 0)` })
      .from(analyticsRollups)
      .where(and(eq(analyticsRollups.userId, userId), eq(analyticsRollups.dimension, "page"), eq(analyticsRollups.grain, "day")))
      .get()?.n ?? 0;

  const clicks = detailed ? sumsOf(db, userId, "link", parts) : new Map<string, { clicks: number }>();
  const linkDays = detailed ? linkDaily(db, userId, fromQ, toQ, r.tz) : new Map<string, { date: string; clicks: number }[]>();
  const ownLinks = detailed
    ? db
        .select({ id: links.id, title: links.title, url: links.url, linkType: links.linkType, linkSpecificData: links.linkSpecificData, isActive: links.isActive })
        .from(links)
        .where(eq(links.userId, userId))
        .orderBy(asc(links.orderIndex))
        .all()
    : [];
  const uploadNames = ownLinks.some((l) => l.linkType === "lead_magnet") ? uploadNamesOf(db, userId) : new Map<string, string>();
  const linkRows = ownLinks
    .map((l) => {
      const n = clicks.get(l.id)?.clicks ?? 0;
      return { linkId: l.id, title: l.title, url: l.url, target: linkTarget(l, uploadNames), isActive: l.isActive, clicks: n, ctr: clickThroughRate(n, pageViews), daily: linkDays.get(l.id) ?? [] };
    })
    .sort((a, b) => b.clicks - a.clicks);

  const named = (dimension: RollupDimension, group: (key: string) => string = (k) => k) => {
    const views = new Map<string, number>();
    if (!detailed) return [];
    for (const [key, s] of sumsOf(db, userId, dimension, parts)) views.set(group(key), (views.get(group(key)) ?? 0) + s.views);
    return [...views].map(([name, n]) => ({ name, views: n }));
  };
  // Rows counted before referrers were grouped by site hold hosts: they join their site here.
  const referrers = byViews(named("referrer", (k) => referrerSite(k) || "Direct")).map((x) => ({ domain: x.name, views: x.views }));
  const devices = byViews(named("device")).map((x) => ({ device: x.name, views: x.views }));
  const countries = byViews(named("country", (k) => k || "Unknown")).map((x) => ({ country: x.name, views: x.views }));
  const campaigns = byViews(named("campaign")).map((x) => {
    const [source = "", medium = "", campaign = ""] = JSON.parse(x.name) as string[];
    return { source, medium, campaign, views: x.views };
  });

  const daily = dailyOf(db, userId, "page", fromQ, toQ, r.tz).map(({ day, key: _, ...counts }) => ({ date: dateOf(day), ...counts }));

  const emailLeads = opts.leads
    ? (db
        .select({ n: count() })
        .from(collectedLeads)
        .where(and(eq(collectedLeads.userId, userId), gte(collectedLeads.createdAt, from), lt(collectedLeads.createdAt, to)))
        .get()?.n ?? 0)
    : null;

  return {
    range: { from: from.toISOString(), to: to.toISOString(), ...rangeDays(r) },
    allTimePageViews,
    totals: { pageViews, linkClicks, emailLeads, visitors: page.visitors },
    detailed,
    links: linkRows,
    sources: { referrers, devices, countries },
    campaigns,
    daily,
  };
}
