/**
 * The rollup-based report (ADR 071) against a recount of the raw events, for generated events across
 * time-zone day boundaries, whole-hour and half- and quarter-hour offsets, and ranges of any length.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "#db/ids.ts";
import { links } from "#db/schema.ts";
import { analyticsReport } from "#api/services/analytics.ts";
import { recordEvents, type AnalyticsEventInput } from "#api/services/analytics-store.ts";
import { AnalyticsRangeSchema } from "#core/schemas/analytics.ts";
import { referrerSite } from "#core/referrer-sites.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

const DAY = 86_400_000;
let t: TestApp;
let owner: ApiOwner;
let other: ApiOwner;
const start = Date.UTC(2026, 9, 20); // 20 October 2026
let linkIds: string[];

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number) {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

/** The report as counting raw rows would give it: what the rollups must always equal. */
function recount(userId: string, from: number, to: number, tz: number) {
  const c = t.deps.db.$client;
  const where = "user_id = ? AND occurred_at >= ? AND occurred_at < ? AND device <> 'bot'";
  const args = [userId, from, to];
  const n = (extra: string) => (c.prepare(`SELECT count(*) n FROM analytics_events WHERE ${where} AND ${extra}`).get(...args) as { n: number }).n;
  const groups = (col: string, extra: string) =>
    Object.fromEntries(
      (c.prepare(`SELECT coalesce(${col}, '') k, count(*) n FROM analytics_events WHERE ${where} AND ${extra} GROUP BY k`).all(...args) as { k: string; n: number }[]).map((r) => [r.k, r.n]),
    );
  const bySite: Record<string, number> = {};
  for (const [host, k] of Object.entries(groups("referrer_domain", "kind = 'page_view'"))) bySite[referrerSite(host)] = (bySite[referrerSite(host)] ?? 0) + k;
  // The generator sends one visitor per (visitor, UTC day) as its first view: visitors are those views.
  const daily = c
    .prepare(
      `SELECT date((occurred_at - ?) / 1000, 'unixepoch') date, sum(kind = 'page_view') pageViews, sum(kind = 'link_click') linkClicks,
              sum(kind = 'page_view' AND utm_medium = 'first') visitors
       FROM analytics_events WHERE ${where} GROUP BY date ORDER BY date`,
    )
    .all(tz * 60_000, ...args);
  const linkDaily: Record<string, { date: string; clicks: number }[]> = {};
  const perLink = c
    .prepare(
      `SELECT link_id lid, date((occurred_at - ?) / 1000, 'unixepoch') day, count(*) clicks
       FROM analytics_events WHERE ${where} AND kind = 'link_click' GROUP BY lid, day ORDER BY lid, day`,
    )
    .all(tz * 60_000, ...args) as { lid: string; day: string; clicks: number }[];
  for (const r of perLink) (linkDaily[r.lid] ??= []).push({ date: r.day, clicks: r.clicks });
  return {
    pageViews: n("kind = 'page_view'"),
    linkClicks: n("kind = 'link_click'"),
    links: groups("link_id", "kind = 'link_click'"),
    referrers: bySite,
    devices: groups("device", "kind = 'page_view'"),
    countries: groups("country", "kind = 'page_view'"),
    campaigns: groups("utm_source || '/' || utm_medium || '/' || utm_campaign", "kind = 'page_view' AND utm_campaign IS NOT NULL"),
    visitors: n("kind = 'page_view' AND utm_medium = 'first'"),
    daily,
    linkDaily,
  };
}

beforeAll(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
  other = createApiOwner(t, "trial");
  linkIds = ["a", "b", "c"].map((title, i) => {
    const id = newId();
    t.deps.db.insert(links).values({ id, userId: owner.userId, title, url: `https://example.com/${title}`, orderIndex: i }).run();
    return id;
  });
  const random = rng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const batch: AnalyticsEventInput[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < 6000; i++) {
    // Any minute of twelve days, with clusters just before and after UTC midnights.
    const at = i % 5 === 0 ? start + Math.floor(random() * 12) * DAY + Math.floor((random() - 0.5) * 4 * 3_600_000) : start + Math.floor(random() * 12 * DAY);
    const click = random() < 0.3;
    const device = pick(["mobile", "mobile", "desktop", "tablet", "other", "bot"] as const);
    const userId = i % 11 === 0 ? other.userId : owner.userId;
    // Twenty visitors reload the page; the recount knows each one's first view of a UTC day by its medium.
    const visitor = `v${Math.floor(random() * 20)}`;
    const first = !click && device !== "bot" && !seen.has(`${userId}/${visitor}/${Math.floor(at / DAY)}`);
    if (first) seen.add(`${userId}/${visitor}/${Math.floor(at / DAY)}`);
    const tagged = !click && random() < 0.4;
    batch.push({
      userId,
      kind: click ? "link_click" : "page_view",
      linkId: click ? pick([...linkIds, "deleted-link"]) : null,
      occurredAt: new Date(at),
      referrerDomain: pick([null, "instagram.com", "l.instagram.com", "www.instagram.com", "t.co", "news.example"]),
      device,
      country: pick([null, "DE", "JP", "IN"]),
      utmSource: tagged || first ? "newsletter" : null,
      utmMedium: first ? "first" : tagged ? "email" : null,
      utmCampaign: tagged || first ? pick(["spring", "launch"]) : null,
      visitorHash: click ? null : `${userId}/${visitor}/${Math.floor(at / DAY)}`,
    });
    if (batch.length === 500) recordEvents(t.deps.db, batch.splice(0));
  }
  recordEvents(t.deps.db, batch);
});
afterAll(() => t.close());

describe("reports from rollups", () => {
  // Offsets as Date#getTimezoneOffset gives them: UTC-10, UTC-5, UTC, UTC+1, UTC+5:30, UTC+5:45, UTC+9:30, UTC+14.
  const offsets = [600, 300, 0, -60, -330, -345, -570, -840];
  // [first local day offset from `start`, days]: one day, a weekend, a week, and the whole span.
  const ranges = [[0, 1], [3, 2], [1, 7], [-1, 14], [5, 1]] as const;
  for (const tz of offsets) {
    it(`equal a recount of the raw events for tz=${tz}`, () => {
      for (const [first, days] of ranges) {
        // The owner's local midnight, as the dashboard sends it.
        const from = start + first * DAY + tz * 60_000;
        const to = from + days * DAY;
        const range = AnalyticsRangeSchema.parse({ from: new Date(from).toISOString(), to: new Date(to).toISOString(), tz: String(tz) });
        const report = analyticsReport(t.deps.db, owner.userId, range, { leads: false });
        const raw = recount(owner.userId, from, to, tz);
        const label = `tz=${tz} first=${first} days=${days}`;
        expect(report.totals, label).toEqual({ pageViews: raw.pageViews, linkClicks: raw.linkClicks, emailLeads: null, visitors: raw.visitors });
        expect(Object.fromEntries(report.links.map((l) => [l.linkId, l.clicks])), label).toEqual(
          Object.fromEntries(linkIds.map((id) => [id, raw.links[id] ?? 0])),
        );
        expect(Object.fromEntries(report.sources.referrers.map((r) => [r.domain === "Direct" ? "" : r.domain, r.views])), label).toEqual(raw.referrers);
        expect(Object.fromEntries(report.sources.devices.map((d) => [d.device, d.views])), label).toEqual(raw.devices);
        expect(Object.fromEntries(report.sources.countries.map((d) => [d.country === "Unknown" ? "" : d.country, d.views])), label).toEqual(raw.countries);
        expect(Object.fromEntries(report.campaigns.map((d) => [`${d.source}/${d.medium}/${d.campaign}`, d.views])), label).toEqual(raw.campaigns);
        expect(report.daily, label).toEqual(raw.daily);
        expect(Object.fromEntries(report.links.map((l) => [l.linkId, l.daily])), label).toEqual(
          Object.fromEntries(linkIds.map((id) => [id, raw.linkDaily[id] ?? []])),
        );
        expect(raw.pageViews, label).toBeGreaterThan(0);
      }
    });
    it(`counts each link's clicks per day of a range that starts and ends mid-day (on quarter hours) for tz=${tz}`, () => {
      for (const [lo, hi] of [[5.25, 9.5], [0.75, 1.25], [2.125, 2.25]] as const) {
        const from = start + lo * DAY + tz * 60_000;
        const to = start + hi * DAY + tz * 60_000;
        const range = AnalyticsRangeSchema.parse({ from: new Date(from).toISOString(), to: new Date(to).toISOString(), tz: String(tz) });
        const report = analyticsReport(t.deps.db, owner.userId, range, { leads: false });
        const raw = recount(owner.userId, from, to, tz);
        expect(Object.fromEntries(report.links.map((l) => [l.linkId, l.daily])), `tz=${tz} ${lo}-${hi}`).toEqual(
          Object.fromEntries(linkIds.map((id) => [id, raw.linkDaily[id] ?? []])),
        );
      }
    });
  }

  it("count all-time views and a deleted link's clicks in the totals, never bots or another owner's", () => {
    const all = recount(owner.userId, 0, Date.UTC(2100, 0), 0);
    const range = AnalyticsRangeSchema.parse({ from: new Date(start - DAY).toISOString(), to: new Date(start + 13 * DAY).toISOString() });
    const report = analyticsReport(t.deps.db, owner.userId, range, { leads: false });
    expect(report.allTimePageViews).toBe(all.pageViews);
    expect(report.totals.linkClicks).toBe(all.linkClicks);
    expect(all.links["deleted-link"]).toBeGreaterThan(0);
    expect(report.links.reduce((n, l) => n + l.clicks, 0)).toBe(all.linkClicks - all.links["deleted-link"]!);
    expect(report.sources.devices.map((d) => d.device)).not.toContain("bot");
  });
});
