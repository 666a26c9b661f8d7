/**
 * The leads list (ADR 142): a page at a time, newest first, exported, one erased; only the owner's own
 * leads, only on Plus or a trial, and hostile input answered with a 4xx that changes nothing.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LEADS_PAGE_SIZE } from "#core/analytics.ts";
import { newId } from "#db/ids.ts";
import { collectedLeads } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
let other: ApiOwner;
const base = Date.UTC(2026, 10, 1, 12);

/** `n` leads of `o`, a minute apart, the newest last; their ids, oldest first. */
function leads(o: ApiOwner, n: number, email = (i: number) => `visitor${i}@example.com`): string[] {
  return Array.from({ length: n }, (_, i) => {
    const id = newId();
    t.deps.db.insert(collectedLeads).values({ id, userId: o.userId, linkTitle: `Guide ${i}`, email: email(i), createdAt: new Date(base + i * 60_000) }).run();
    return id;
  });
}
const stored = (id: string) => t.deps.db.select().from(collectedLeads).where(eq(collectedLeads.id, id)).get();
const list = async (o: ApiOwner, query = "") => {
  const res = await o.call("GET", `/api/analytics/leads${query}`);
  return { status: res.status, body: (await res.json()) as any };
};

beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "plus");
  other = createApiOwner(t, "trial");
});
afterEach(() => t.close());

describe("GET /api/analytics/leads", () => {
  it("pages through the owner's leads, newest first, with e-mail, link and date, and the total", async () => {
    leads(owner, LEADS_PAGE_SIZE + 5);
    leads(other, 3, (i) => `theirs${i}@example.com`);
    const first = await list(owner);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: LEADS_PAGE_SIZE, total: LEADS_PAGE_SIZE + 5 });
    expect(first.body.leads).toHaveLength(LEADS_PAGE_SIZE);
    expect(first.body.leads[0]).toEqual({
      id: expect.any(String),
      email: `visitor${LEADS_PAGE_SIZE + 4}@example.com`,
      linkTitle: `Guide ${LEADS_PAGE_SIZE + 4}`,
      createdAt: new Date(base + (LEADS_PAGE_SIZE + 4) * 60_000).toISOString(),
    });
    const second = await list(owner, "?page=2");
    expect(second.body.leads.map((l: { email: string }) => l.email)).toEqual([4, 3, 2, 1, 0].map((i) => `visitor${i}@example.com`));
    expect((await list(owner, "?page=3")).body).toMatchObject({ leads: [], total: LEADS_PAGE_SIZE + 5 });
    const everyone = [...first.body.leads, ...second.body.leads].map((l: { email: string }) => l.email);
    expect(everyone.some((e) => e.startsWith("theirs"))).toBe(false);
    expect(new Set(everyone).size).toBe(LEADS_PAGE_SIZE + 5);
  });

  it("is for Plus and the trial: a Lite owner gets the Plus answer, a visitor without a session 401", async () => {
    const lite = createApiOwner(t, "lite");
    leads(lite, 2);
    const res = await lite.call("GET", "/api/analytics/leads");
    expect(res.status).toBe(402);
    expect((await res.json()).error.details).toEqual({ feature: "lead_viewing" });
    expect((await list(other)).status).toBe(200);
    expect((await t.app.request("/api/analytics/leads")).status).toBe(401);
  });

  it("refuses a malformed page with a message, never a 500", async () => {
    leads(owner, 1);
    for (const page of ["0", "-1", "abc", "1.5", "1e9", "99999999999", "1;DROP TABLE collected_leads", "%00", "<script>"]) {
      const res = await list(owner, `?page=${encodeURIComponent(page)}`);
      expect(res.status, page).toBe(400);
      expect(res.body.error.message, page).toBe("Please choose a valid page");
    }
    expect(t.deps.db.select().from(collectedLeads).all()).toHaveLength(1);
  });
});

describe("DELETE /api/analytics/leads/:id", () => {
  it("erases one of the owner's leads, and only that one", async () => {
    const [a, b] = leads(owner, 2);
    const res = await owner.call("DELETE", `/api/analytics/leads/${a}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
    expect(stored(a!)).toBeUndefined();
    expect(stored(b!)).toBeDefined();
    expect((await list(owner)).body.total).toBe(1);
    const again = await owner.call("DELETE", `/api/analytics/leads/${a}`);
    expect(again.status).toBe(404);
    expect((await again.json()).error.message).toBe("Lead not found");
  });

  it("answers 404 for another owner's lead id and leaves it alone", async () => {
    const [theirs] = leads(other, 1);
    const res = await owner.call("DELETE", `/api/analytics/leads/${theirs}`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.message).toBe("Lead not found");
    expect(stored(theirs!)).toBeDefined();
  });

  it("refuses hostile ids, Lite, no session and other origins without erasing anything", async () => {
    const [mine] = leads(owner, 1);
    for (const id of ["x".repeat(65), "..%2F..%2Fetc", "%00", "a'%20OR%201=1", "%3Cscript%3E"]) {
      expect((await owner.call("DELETE", `/api/analytics/leads/${id}`)).status, id).toBe(404);
    }
    const lite = createApiOwner(t, "lite");
    const [liteLead] = leads(lite, 1);
    expect((await lite.call("DELETE", `/api/analytics/leads/${liteLead}`)).status).toBe(402);
    expect((await t.app.request(`/api/analytics/leads/${mine}`, { method: "DELETE" })).status).toBe(401);
    const crossSite = await t.app.request(`/api/analytics/leads/${mine}`, { method: "DELETE", headers: { Cookie: owner.cookie, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    expect(stored(mine!)).toBeDefined();
    expect(stored(liteLead!)).toBeDefined();
  });
});

describe("GET /api/analytics/leads.csv", () => {
  it("exports every lead without a range, formulas defused, never another owner's", async () => {
    leads(owner, 2, (i) => (i === 0 ? "=cmd@example.com" : "plain@example.com"));
    leads(other, 1, () => "theirs@example.com");
    const res = await owner.call("GET", "/api/analytics/leads.csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="plinth-leads-${owner.username}-all.csv"`);
    const text = await res.text();
    expect(text.split("\r\n").filter(Boolean)).toEqual([
      `"Email","Link","Date"`,
      `"plain@example.com","Guide 1","${new Date(base + 60_000).toISOString()}"`,
      `"'=cmd@example.com","Guide 0","${new Date(base).toISOString()}"`,
    ]);
  });

  it("refuses half a range", async () => {
    const res = await owner.call("GET", `/api/analytics/leads.csv?from=${encodeURIComponent(new Date(base).toISOString())}`);
    expect(res.status).toBe(400);
    expect(typeof (await res.json()).error.message).toBe("string");
  });
});
