import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newId } from "#db/ids.ts";
import { collectedLeads, links } from "#db/schema.ts";
import { recordEvents, type AnalyticsEventInput } from "#api/services/analytics-store.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
let other: ApiOwner;
const DAY = 86_400_000;
const base = Date.UTC(2026, 2, 10, 12); // 10 March 2026, noon UTC

function addLink(o: ApiOwner, title: string, orderIndex: number) {
  const id = newId();
  t.deps.db.insert(links).values({ id, userId: o.userId, title, url: `https://example.com/${title}`, orderIndex }).run();
  return id;
}
function events(o: ApiOwner, n: number, e: Partial<AnalyticsEventInput> & { at: number }) {
  const { at, ...rest } = e;
  recordEvents(t.deps.db, Array.from({ length: n }, () => ({ userId: o.userId, kind: "page_view" as const, device: "mobile" as const, occurredAt: new Date(at), ...rest })));
}
const range = (from: number, to: number, extra = "") =>
  `from=${encodeURIComponent(new Date(from).toISOString())}&to=${encodeURIComponent(new Date(to).toISOString())}${extra}`;

beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
  other = createApiOwner(t, "trial");
});
afterEach(() => t.close());

describe("GET /api/analytics", () => {
  it("counts only this owner's events, only inside the range, and never bots", async () => {
    const a = addLink(owner, "shop", 0);
    const b = addLink(owner, "blog", 1);
    events(owner, 40, { at: base, referrerDomain: "instagram.com" });
    events(owner, 10, { at: base, device: "desktop" });
    events(owner, 5, { at: base, device: "bot" });
    events(owner, 7, { at: base - 40 * DAY });
    events(owner, 3, { at: base, kind: "link_click", linkId: a });
    events(owner, 1, { at: base, kind: "link_click", linkId: b });
    events(other, 99, { at: base });
    const res = await owner.call("GET", `/api/analytics?${range(base - 30 * DAY, base + DAY)}`);
    expect(res.status).toBe(200);
    const r = await res.json();
    expect(r.totals).toEqual({ pageViews: 50, linkClicks: 4, emailLeads: 0, visitors: 0 });
    expect(r.allTimePageViews).toBe(57);
    expect(r.links.map((l: any) => [l.title, l.clicks, l.ctr])).toEqual([
      ["shop", 3, 6],
      ["blog", 1, 2],
    ]);
    expect(r.sources.referrers).toEqual([
      { domain: "Instagram", views: 40 },
      { domain: "Direct", views: 10 },
    ]);
    expect(r.sources.devices).toEqual([
      { device: "mobile", views: 40 },
      { device: "desktop", views: 10 },
    ]);
    expect(r.daily).toEqual([{ date: "2026-03-10", pageViews: 50, linkClicks: 4, visitors: 0 }]);
  });

  it("buckets days in the owner's time zone", async () => {
    events(owner, 1, { at: Date.UTC(2026, 2, 10, 23, 30) });
    const res = await owner.call("GET", `/api/analytics?${range(base - DAY, base + 2 * DAY, "&tz=-120")}`);
    expect((await res.json()).daily).toEqual([{ date: "2026-03-11", pageViews: 1, linkClicks: 0, visitors: 0 }]);
  });

  it("gives no lead count to a Lite owner without trial, and the range's count to Plus", async () => {
    const lite = createApiOwner(t, "lite");
    const l = addLink(owner, "guide", 0);
    for (const at of [base, base, base - 100 * DAY]) {
      t.deps.db.insert(collectedLeads).values({ id: newId(), userId: owner.userId, linkId: l, linkTitle: "guide", email: "v@example.com", createdAt: new Date(at) }).run();
    }
    expect((await (await owner.call("GET", `/api/analytics?${range(base - DAY, base + DAY)}`)).json()).totals.emailLeads).toBe(2);
    expect((await (await lite.call("GET", `/api/analytics?${range(base - DAY, base + DAY)}`)).json()).totals.emailLeads).toBeNull();
    expect((await lite.call("GET", "/api/analytics/leads")).status).toBe(402);
    const leads = await (await owner.call("GET", "/api/analytics/leads")).json();
    expect(leads.leads).toHaveLength(3);
  });

  it("refuses a missing, reversed, malformed or too long range with a message", async () => {
    for (const q of ["", range(base, base - DAY), "from=yesterday&to=today", range(base - 400 * DAY, base), `${range(base - DAY, base)}&tz=9999`]) {
      const res = await owner.call("GET", `/api/analytics?${q}`);
      expect(res.status, q).toBe(400);
      expect(typeof (await res.json()).error.message).toBe("string");
    }
  });
});

describe("exports", () => {
  it("downloads the range as CSV and as JSON, formulas defused", async () => {
    const a = addLink(owner, "=HYPERLINK(\"http://evil\")", 0);
    events(owner, 2, { at: base });
    events(owner, 1, { at: base, kind: "link_click", linkId: a });
    const csv = await owner.call("GET", `/api/analytics/export?format=csv&${range(base - DAY, base + DAY)}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="plinth-analytics-owner_\w+-2026-03-09-to-2026-03-11\.csv"/);
    const text = await csv.text();
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")","https://example.com/=HYPERLINK(""http://evil"")",1,50`);
    expect(text).toContain("2,1,0");
    const json = await owner.call("GET", `/api/analytics/export?format=json&${range(base - DAY, base + DAY)}`);
    expect(json.headers.get("content-disposition")).toContain(".json");
    expect((await json.json()).totals).toEqual({ pageViews: 2, linkClicks: 1, emailLeads: 0, visitors: 0 });
    expect((await owner.call("GET", `/api/analytics/export?format=xml&${range(base - DAY, base + DAY)}`)).status).toBe(400);
  });

  it("names the range by its first and last day as the picker shows them, in the dashboard, CSV, JSON and file names", async () => {
    // Nov 20 to Nov 26 for an owner in UTC+1: [local midnight Nov 20, local midnight Nov 27).
    const from = Date.UTC(2026, 10, 19, 23);
    const to = Date.UTC(2026, 10, 26, 23);
    const q = `${range(from, to)}&tz=-60`;
    const days = { first: "2026-11-20", last: "2026-11-26" };
    expect((await (await owner.call("GET", `/api/analytics?${q}`)).json()).range).toMatchObject(days);
    const csv = await owner.call("GET", `/api/analytics/export?format=csv&${q}`);
    expect(csv.headers.get("content-disposition")).toMatch(/filename="plinth-analytics-owner_\w+-2026-11-20-to-2026-11-26\.csv"/);
    expect(await csv.text()).toContain(`"Plinth analytics","2026-11-20 to 2026-11-26"`);
    const json = await owner.call("GET", `/api/analytics/export?format=json&${q}`);
    expect(json.headers.get("content-disposition")).toMatch(/-2026-11-20-to-2026-11-26\.json"/);
    expect((await json.json()).range).toMatchObject(days);
    const leads = await owner.call("GET", `/api/analytics/leads.csv?${q}`);
    expect(leads.headers.get("content-disposition")).toMatch(/-2026-11-20-to-2026-11-26\.csv"/);
  });

  it("downloads leads as CSV for Plus, never another owner's", async () => {
    t.deps.db.insert(collectedLeads).values({ id: newId(), userId: other.userId, linkTitle: "theirs", email: "theirs@example.com", createdAt: new Date(base) }).run();
    t.deps.db.insert(collectedLeads).values({ id: newId(), userId: owner.userId, linkTitle: "mine", email: "+mine@example.com", createdAt: new Date(base) }).run();
    const res = await owner.call("GET", `/api/analytics/leads.csv?${range(base - DAY, base + DAY)}`);
    const text = await res.text();
    expect(text).toContain(`"'+mine@example.com","mine"`);
    expect(text).not.toContain("theirs");
  });
});

describe("plan gating (ADR 074)", () => {
  it("gives Lite the overview and the days, and refuses the detailed parts and exports with the Plus message", async () => {
    const lite = createApiOwner(t, "lite");
    const a = addLink(lite, "shop", 0);
    events(lite, 3, { at: base, referrerDomain: "instagram.com", country: "DE" });
    events(lite, 1, { at: base, kind: "link_click", linkId: a });
    const r = await (await lite.call("GET", `/api/analytics?${range(base - DAY, base + DAY)}`)).json();
    expect(r.detailed).toBe(false);
    expect(r.totals).toEqual({ pageViews: 3, linkClicks: 1, emailLeads: null, visitors: 0 });
    expect(r.daily).toEqual([{ date: "2026-03-10", pageViews: 3, linkClicks: 1, visitors: 0 }]);
    expect(r.links).toEqual([]);
    expect(r.sources).toEqual({ referrers: [], devices: [], countries: [] });
    expect(r.campaigns).toEqual([]);
    for (const format of ["csv", "json"]) {
      const res = await lite.call("GET", `/api/analytics/export?format=${format}&${range(base - DAY, base + DAY)}`);
      expect(res.status).toBe(402);
      expect(await res.json()).toEqual({ error: { code: "payment_required", message: "This feature requires Plinth Plus. Click to upgrade!", details: { feature: "detailed_analytics" } } });
    }
    // A trial (or Plus) owner gets every part.
    const b = addLink(owner, "shop", 0);
    events(owner, 2, { at: base, referrerDomain: "l.instagram.com", country: "DE" });
    events(owner, 1, { at: base, kind: "link_click", linkId: b });
    const plus = await (await owner.call("GET", `/api/analytics?${range(base - DAY, base + DAY)}`)).json();
    expect(plus.detailed).toBe(true);
    expect(plus.links.map((l: any) => [l.title, l.clicks])).toEqual([["shop", 1]]);
    expect(plus.sources.referrers).toEqual([{ domain: "Instagram", views: 2 }]);
    expect(plus.sources.countries).toEqual([{ country: "DE", views: 2 }]);
    expect((await owner.call("GET", `/api/analytics/export?format=json&${range(base - DAY, base + DAY)}`)).status).toBe(200);
  });

  it("gives each link its clicks per day in the owner's time zone, for Plus only", async () => {
    const a = addLink(owner, "shop", 0);
    const b = addLink(owner, "blog", 1);
    events(owner, 2, { at: base, kind: "link_click", linkId: a });
    events(owner, 1, { at: base + DAY, kind: "link_click", linkId: a });
    // 23:30 UTC on Mar 10 is Mar 11 in UTC+1.
    events(owner, 1, { at: Date.UTC(2026, 2, 10, 23, 30), kind: "link_click", linkId: b });
    const q = `${range(Date.UTC(2026, 2, 9, 23), Date.UTC(2026, 2, 12, 23))}&tz=-60`;
    const r = await (await owner.call("GET", `/api/analytics?${q}`)).json();
    expect(Object.fromEntries(r.links.map((l: any) => [l.title, l.daily]))).toEqual({
      shop: [{ date: "2026-03-10", clicks: 2 }, { date: "2026-03-11", clicks: 1 }],
      blog: [{ date: "2026-03-11", clicks: 1 }],
    });
    const lite = createApiOwner(t, "lite");
    const c = addLink(lite, "shop", 0);
    events(lite, 1, { at: base, kind: "link_click", linkId: c });
    expect((await (await lite.call("GET", `/api/analytics?${q}`)).json()).links).toEqual([]);
  });

  it("names where a link without a web address leads instead of '#'", async () => {
    const rows: { title: string; url: string; linkType: "vcf" | "lead_magnet" | "text_link" | "label" | "standard_url"; linkSpecificData: Record<string, string> }[] = [
      { title: "card", url: "#", linkType: "vcf", linkSpecificData: {} },
      { title: "guide", url: "#", linkType: "lead_magnet", linkSpecificData: { fileUrl: "https://files.example/My%20Guide.pdf?x=1" } },
      { title: "note", url: "", linkType: "text_link", linkSpecificData: {} },
      { title: "section", url: "#", linkType: "label", linkSpecificData: {} },
      { title: "site", url: "https://example.com/a", linkType: "standard_url", linkSpecificData: {} },
    ];
    rows.forEach((l, i) => t.deps.db.insert(links).values({ id: newId(), userId: owner.userId, orderIndex: i, ...l }).run());
    const r = await (await owner.call("GET", `/api/analytics?${range(base - DAY, base + DAY)}`)).json();
    expect(Object.fromEntries(r.links.map((l: any) => [l.title, l.target]))).toEqual({
      card: "Contact Card",
      guide: "Lead Magnet: My Guide.pdf",
      note: "Text Link",
      section: "Label",
      site: "https://example.com/a",
    });
    const csv = await (await owner.call("GET", `/api/analytics/export?format=csv&${range(base - DAY, base + DAY)}`)).text();
    expect(csv).toContain(`"card","Contact Card",0,0`);
    expect(csv).not.toContain(`"#"`);
  });
});
