/**
 * Visitors (ADR 073), countries, campaigns and traffic sources by site, from beacons through the
 * API to the report: a visitor's reloads count once a day, the day's secret is deleted when the day
 * ends, and no address is stored anywhere.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { analyticsReport } from "#api/services/analytics.ts";
import { countryOf } from "#api/services/country.ts";
import { createServerApp } from "#api/site.ts";
import { campaignOf } from "#core/campaign.ts";
import { referrerSite } from "#core/referrer-sites.ts";
import { AnalyticsRangeSchema } from "#core/schemas/analytics.ts";
import { analyticsEvents, analyticsSalts, analyticsVisitors, userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";

const DAY = 86_400_000;
const SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";
let t: TestApp;
let userId: string;
let username: string;
let clock = Date.UTC(2026, 10, 20, 22);

beforeEach(() => {
  t = createTestApp({ TRUST_PROXY: "1" });
  username = `visits_${Math.random().toString(16).slice(2, 8)}`;
  ({ userId } = createAccount(t.deps.db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: new Date() }));
  expect(publishPage(t.deps.db, userId, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: t.deps.env.PUBLIC_ORIGIN, now: new Date() })).toMatchObject({ ok: true });
  t.deps.db.update(userProfiles).set({ hasPublishedPage: true }).where(eq(userProfiles.userId, userId)).run();
  clock = Date.UTC(2026, 10, 20, 22);
});
afterEach(() => t.close());

const app = () => createServerApp({ ...t.deps, now: () => new Date(clock) });
const view = (from: string, ua: string, extra: Record<string, string> = {}) =>
  app().request("/api/visitor/track", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": from, "User-Agent": ua },
    body: JSON.stringify({ type: "page_view", username, ...extra }),
  });
const report = async () => {
  await t.deps.events.flush();
  const range = AnalyticsRangeSchema.parse({ from: new Date(Date.UTC(2026, 10, 19)).toISOString(), to: new Date(Date.UTC(2026, 10, 23)).toISOString() });
  return analyticsReport(t.deps.db, userId, range, { leads: false });
};

describe("visitors", () => {
  it("count a visitor's reloads once a day, another browser or address as another visitor, and bots never", async () => {
    for (let i = 0; i < 5; i++) expect((await view("81.2.69.160", SAFARI)).status).toBe(204);
    await view("81.2.69.160", CHROME);
    await view("81.2.69.161", SAFARI);
    await view("81.2.69.162", "curl/8.5.0");
    let r = await report();
    expect(r.totals).toMatchObject({ pageViews: 7, visitors: 3 });
    // The next UTC day: yesterday's secret and hashes are gone, and the same visitor counts again.
    clock += 3 * 3_600_000;
    const before = t.deps.db.select().from(analyticsSalts).all();
    expect(before).toHaveLength(1);
    await view("81.2.69.160", SAFARI);
    await view("81.2.69.160", SAFARI);
    // The writer rolls the secret over when it writes the day's first view.
    await t.deps.events.flush();
    const after = t.deps.db.select().from(analyticsSalts).all();
    expect(after).toHaveLength(1);
    expect(after[0]!.salt).not.toBe(before[0]!.salt);
    expect(after[0]!.day).toBe(before[0]!.day + 1);
    await t.deps.events.flush();
    expect(t.deps.db.select().from(analyticsVisitors).all().map((v) => v.day)).toEqual([after[0]!.day]);
    r = await report();
    expect(r.totals).toMatchObject({ pageViews: 9, visitors: 4 });
    expect(r.daily.map((d) => [d.date, d.pageViews, d.visitors])).toEqual([
      ["2026-11-20", 7, 3],
      ["2026-11-21", 2, 1],
    ]);
  });

  it("store a country code and never the address", async () => {
    await view("81.2.69.160", SAFARI);
    await view("2a00:1450:4001:81c::200e", SAFARI);
    await view("10.1.2.3", SAFARI);
    const r = await report();
    expect(r.sources.countries).toEqual([
      { country: "GB", views: 1 },
      { country: "IE", views: 1 },
      { country: "Unknown", views: 1 },
    ]);
    const rows = t.deps.db.select().from(analyticsEvents).all();
    expect(rows.map((e) => e.country)).toEqual(["GB", "IE", null]);
    const dump = JSON.stringify([rows, t.deps.db.select().from(analyticsVisitors).all(), t.deps.db.$client.prepare("SELECT * FROM analytics_rollups").all()]);
    for (const address of ["81.2.69.160", "2a00:1450:4001", "10.1.2.3"]) expect(dump).not.toContain(address);
  });
});

describe("campaigns and sources", () => {
  it("record utm_source, utm_medium and utm_campaign from the page URL, cleaned and capped", async () => {
    const page = `https://plinth.example/${username}`;
    await view("81.2.69.160", SAFARI, { url: `${page}?utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale` });
    await view("81.2.69.161", SAFARI, { url: `${page}?utm_source=%20newsletter%20&utm_medium=email&utm_campaign=spring%0Asale` });
    await view("81.2.69.162", SAFARI, { url: `${page}?utm_source=${"x".repeat(500)}&utm_campaign=%E2%80%AEevil` });
    await view("81.2.69.163", SAFARI, { url: page });
    await view("81.2.69.164", SAFARI, { url: "not a url" });
    const r = await report();
    expect(r.totals.pageViews).toBe(5);
    expect(r.campaigns).toEqual([
      { source: "newsletter", medium: "email", campaign: "spring sale", views: 2 },
      { source: "x".repeat(100), medium: "", campaign: "", views: 1 },
    ]);
    expect((await view("81.2.69.165", SAFARI, { url: "x".repeat(5000) })).status).toBe(400);
  });

  it("group referrers by site", async () => {
    for (const ref of ["https://www.instagram.com/", "https://l.instagram.com/?u=x", "https://instagram.com/p/1", "https://t.co/abc", "https://www.news.example/a"]) {
      await view("81.2.69.160", SAFARI, { referrer: ref });
    }
    await view("81.2.69.160", SAFARI);
    expect((await report()).sources.referrers).toEqual([
      { domain: "Instagram", views: 3 },
      { domain: "Direct", views: 1 },
      { domain: "X", views: 1 },
      { domain: "news.example", views: 1 },
    ]);
    expect(["m.facebook.com", "youtu.be", "www.google.co.uk", "WWW.Example.org"].map(referrerSite)).toEqual(["Facebook", "YouTube", "Google", "example.org"]);
  });

  it("look countries up in the shipped table, and campaigns only with a utm value", () => {
    expect([countryOf("8.8.8.8"), countryOf("127.0.0.1"), countryOf("192.168.1.1"), countryOf("::1"), countryOf("not an address")]).toEqual(["US", null, null, null, null]);
    expect(campaignOf("https://x.example/a?ref=1")).toBeNull();
    expect(campaignOf("https://x.example/a?utm_medium=%09social%09")).toEqual({ source: null, medium: "social", campaign: null });
  });
});
