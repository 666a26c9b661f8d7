/**
 * The owner's analytics from analytics_events and collected_leads, always filtered by owner and by
 * the chosen range. Bots are stored (their share is worth knowing) but never counted as visitors.
 */
import { and, asc, count, desc, eq, gte, lt, ne, sql } from "drizzle-orm";
import { clickThroughRate, type AnalyticsRange } from "#core/schemas/analytics.ts";
import type { Db } from "#db/client.ts";
import { analyticsEvents, collectedLeads, links } from "#db/schema.ts";

export interface AnalyticsReport {
  range: { from: string; to: string };
  allTimePageViews: number;
  totals: { pageViews: number; linkClicks: number; emailLeads: number | null };
  links: { linkId: string; title: string; url: string; isActive: boolean; clicks: number; ctr: number }[];
  sources: { referrers: { domain: string; views: number }[]; devices: { device: string; views: number }[] };
  daily: { date: string; pageViews: number; linkClicks: number }[];
}

const humans = ne(analyticsEvents.device, "bot");

export function analyticsReport(db: Db, userId: string, r: AnalyticsRange, opts: { leads: boolean }): AnalyticsReport {
  const from = new Date(r.from);
  const to = new Date(r.to);
  const inRange = and(eq(analyticsEvents.userId, userId), gte(analyticsEvents.occurredAt, from), lt(analyticsEvents.occurredAt, to), humans);

  const byKind = db.select({ kind: analyticsEvents.kind, n: count() }).from(analyticsEvents).where(inRange).groupBy(analyticsEvents.kind).all();
  const pageViews = byKind.find((k) => k.kind === "page_view")?.n ?? 0;
  const linkClicks = byKind.find((k) => k.kind === "link_click")?.n ?? 0;
  const allTimePageViews =
    db.select({ n: count() }).from(analyticsEvents).where(and(eq(analyticsEvents.userId, userId), eq(analyticsEvents.kind, "page_view"), humans)).get()?.n ?? 0;

  const clicks = new Map(
    db
      .select({ linkId: analyticsEvents.linkId, n: count() })
      .from(analyticsEvents)
      .where(and(inRange, eq(analyticsEvents.kind, "link_click")))
      .groupBy(analyticsEvents.linkId)
      .all()
      .map((c) => [c.linkId, c.n]),
  );
  const ownLinks = db
    .select({ id: links.id, title: links.title, url: links.url, isActive: links.isActive })
    .from(links)
    .where(eq(links.userId, userId))
    .orderBy(asc(links.orderIndex))
    .all();
  const linkRows = ownLinks
    .map((l) => {
      const n = clicks.get(l.id) ?? 0;
      return { linkId: l.id, title: l.title, url: l.url, isActive: l.isActive, clicks: n, ctr: clickThroughRate(n, pageViews) };
    })
    .sort((a, b) => b.clicks - a.clicks);

  const views = and(inRange, eq(analyticsEvents.kind, "page_view"));
  const referrers = db
    .select({ domain: analyticsEvents.referrerDomain, n: count() })
    .from(analyticsEvents)
    .where(views)
    .groupBy(analyticsEvents.referrerDomain)
    .orderBy(desc(count()))
    .all()
    .map((x) => ({ domain: x.domain ?? "Direct", views: x.n }));
  const devices = db
    .select({ device: analyticsEvents.device, n: count() })
    .from(analyticsEvents)
    .where(views)
    .groupBy(analyticsEvents.device)
    .orderBy(desc(count()))
    .all()
    .map((x) => ({ device: x.device, views: x.n }));

  // Days in the owner's time zone: shift each event by their offset before taking the date.
  const day = sql<string>`date((${analyticsEvents.occurredAt} - ${r.tz * 60_000}) / 1000, 'unixepoch')`;
  const dailyRows = db
    .select({ date: day, kind: analyticsEvents.kind, n: count() })
    .from(analyticsEvents)
    .where(inRange)
    .groupBy(day, analyticsEvents.kind)
    .orderBy(day)
    .all();
  const daily = new Map<string, { date: string; pageViews: number; linkClicks: number }>();
  for (const row of dailyRows) {
    const d = daily.get(row.date) ?? { date: row.date, pageViews: 0, linkClicks: 0 };
    if (row.kind === "page_view") d.pageViews = row.n;
    else d.linkClicks = row.n;
    daily.set(row.date, d);
  }

  const emailLeads = opts.leads
    ? (db
        .select({ n: count() })
        .from(collectedLeads)
        .where(and(eq(collectedLeads.userId, userId), gte(collectedLeads.createdAt, from), lt(collectedLeads.createdAt, to)))
        .get()?.n ?? 0)
    : null;

  return {
    range: { from: from.toISOString(), to: to.toISOString() },
    allTimePageViews,
    totals: { pageViews, linkClicks, emailLeads },
    links: linkRows,
    sources: { referrers, devices },
    daily: [...daily.values()],
  };
}

export function leadsOf(db: Db, userId: string, r?: { from: Date; to: Date }) {
  const where = r
    ? and(eq(collectedLeads.userId, userId), gte(collectedLeads.createdAt, r.from), lt(collectedLeads.createdAt, r.to))
    : eq(collectedLeads.userId, userId);
  return db
    .select({ id: collectedLeads.id, email: collectedLeads.email, linkTitle: collectedLeads.linkTitle, createdAt: collectedLeads.createdAt })
    .from(collectedLeads)
    .where(where)
    .orderBy(desc(collectedLeads.createdAt))
    .all()
    .map((l) => ({ ...l, createdAt: l.createdAt.toISOString() }));
}
