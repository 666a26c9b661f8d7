import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { analyticsEvents, collectedLeads, links, pageReports, userProfiles, users } from "#db/schema.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { createAccount } from "#api/services/accounts.ts";
import { createServerApp } from "#api/site.ts";
import { createHttpServer } from "#api/http-server.ts";
import type { AppDeps } from "#api/context.ts";
import { createEventWriter } from "#api/services/event-writer.ts";
import { analyticsReport } from "#api/services/analytics.ts";
import { AnalyticsRangeSchema } from "#core/schemas/analytics.ts";
import { publishPage } from "#renderer/publish.ts";
import { createTestApp as createApp, type TestApp } from "#tests/support/app.ts";
import { readOutbox } from "#tests/support/mail.ts";

/** Rate limits key on X-Forwarded-For only behind a trusted proxy; the tests spread clients with it. */
const createTestApp = (): TestApp => createApp({ TRUST_PROXY: "1" });

interface ApiOwner { userId: string; username: string }
let seq = 0;
function createApiOwner(t: TestApp, _plan: "plus"): ApiOwner {
  const username = `visitor_owner_${++seq}_${Math.random().toString(16).slice(2, 8)}`;
  const now = new Date();
  const { userId } = createAccount(t.deps.db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now });
  t.deps.db.update(userProfiles).set({ planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(now.getTime() + 30 * 86_400_000) }).where(eq(userProfiles.userId, userId)).run();
  return { userId, username };
}

let t: TestApp;
let owner: ApiOwner;
let ip = 0;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.app.request(`/api/visitor/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "https://static.example", "Sec-Fetch-Site": "cross-site", "X-Forwarded-For": `10.0.0.${++ip % 250}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
/** A link added to the draft and published: lead mail goes only to what the published page shows. */
const addLink = (over: Partial<typeof links.$inferInsert> = {}) => {
  const id = newId();
  t.deps.db.insert(links).values({ id, userId: owner.userId, title: "Guide", url: "#", linkType: "lead_magnet", linkSpecificData: { fileUrl: "https://files.example/guide.pdf" }, ...over }).run();
  expect(publishPage(t.deps.db, owner.userId, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: t.deps.env.PUBLIC_ORIGIN, now: new Date() })).toMatchObject({ ok: true });
  return id;
};

/** The events written, once the batching writer has written what it queued. */
const stored = async () => {
  await t.deps.events.flush();
  return t.deps.db.select().from(analyticsEvents).all();
};

beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "plus");
  t.deps.db.update(userProfiles).set({ hasPublishedPage: true }).where(eq(userProfiles.userId, owner.userId)).run();
});
afterEach(() => t.close());

describe("POST /api/visitor/track", () => {
  it("stores a page view and a click cross-origin, with referrer domain and device only", async () => {
    const res = await post("track", { type: "page_view", username: owner.username, referrer: "https://news.example/a?b=c" }, { "User-Agent": "Mozilla/5.0 (iPhone; Mobile)" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    // A page on another host reads the answer (sendBeacon is a no-cors request).
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(res.headers.get("set-cookie")).toBeNull();
    const id = addLink({ linkType: "standard_url", url: "https://a.example" });
    // sendBeacon sends text/plain
    expect((await post("track", { type: "link_click", username: owner.username, linkId: id }, { "Content-Type": "text/plain;charset=UTF-8" })).status).toBe(204);
    const rows = await stored();
    expect(rows.map((r) => r.kind)).toEqual(["page_view", "link_click"]);
    expect(rows[0]).toMatchObject({ referrerDomain: "news.example", device: "mobile" });
  });

  it("refuses a page's beacons from the moment it stops being public", async () => {
    const view = () => post("track", { type: "page_view", username: owner.username }, { "User-Agent": "Mozilla/5.0 (iPhone; Mobile)" });
    expect((await view()).status).toBe(204);
    const profile = { set: (v: Partial<typeof userProfiles.$inferInsert>) => t.deps.db.update(userProfiles).set(v).where(eq(userProfiles.userId, owner.userId)) };
    profile.set({ pageSuspendedAt: new Date() }).run();
    expect((await view()).status).toBe(404);
    profile.set({ pageSuspendedAt: null }).run();
    expect((await view()).status).toBe(204);
    const formerName = owner.username;
    profile.set({ username: `${formerName}_b` }).run();
    expect((await post("track", { type: "page_view", username: formerName })).status).toBe(404);
    profile.set({ username: formerName }).run();
    expect((await view()).status).toBe(204);
    t.deps.db.delete(users).where(eq(users.id, owner.userId)).run();
    expect((await view()).status).toBe(404);
  });

  it("sees a page suspended by another process at once", async () => {
    const view = () => post("track", { type: "page_view", username: owner.username });
    expect((await view()).status).toBe(204);
    const other = openDatabase({ path: t.deps.env.DATABASE_PATH, migrate: false });
    try {
      other.update(userProfiles).set({ pageSuspendedAt: new Date() }).where(eq(userProfiles.userId, owner.userId)).run();
    } finally {
      closeDatabase(other);
    }
    expect((await view()).status).toBe(404);
  });

  it("refuses another owner's link, unknown pages and malformed bodies", async () => {
    const other = createApiOwner(t, "plus");
    const otherLink = newId();
    t.deps.db.insert(links).values({ id: otherLink, userId: other.userId, title: "x", url: "https://x.example" }).run();
    expect((await post("track", { type: "link_click", username: owner.username, linkId: otherLink })).status).toBe(404);
    expect((await post("track", { type: "page_view", username: "nobody_here" })).status).toBe(404);
    expect((await post("track", "{not json")).status).toBe(400);
    expect((await post("track", { type: "<script>", username: owner.username })).status).toBe(400);
    expect((await post("track", { type: "page_view", username: "x".repeat(100_000) })).status).toBe(413);
    expect(await stored()).toHaveLength(0);
  });

  it("stores views and clicks from clients that are not browsers as bots, and never counts them", async () => {
    const id = addLink({ linkType: "standard_url", url: "https://a.example" });
    const bots = [
      "curl/8.5.0",
      "Wget/1.21.4",
      "python-requests/2.31.0",
      "Go-http-client/1.1",
      "Java/17.0.2",
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "Twitterbot/1.0",
      "WhatsApp/2.23.20.0 A",
      "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
      "TelegramBot (like TwitterBot)",
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "",
    ];
    for (const ua of bots) {
      expect((await post("track", { type: "page_view", username: owner.username }, { "User-Agent": ua })).status, ua).toBe(204);
      expect((await post("track", { type: "link_click", username: owner.username, linkId: id }, { "User-Agent": ua })).status, ua).toBe(204);
    }
    // No User-Agent header at all.
    const bare = await t.app.request("/api/visitor/track", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": "10.9.9.9" },
      body: JSON.stringify({ type: "page_view", username: owner.username }),
    });
    expect(bare.status).toBe(204);
    const rows = await stored();
    expect(rows).toHaveLength(bots.length * 2 + 1);
    expect(rows.every((r) => r.device === "bot")).toBe(true);
    // A browser is counted.
    const safari = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
    await post("track", { type: "page_view", username: owner.username }, { "User-Agent": safari });
    await t.deps.events.flush();
    const day = new Date();
    const q = `from=${encodeURIComponent(new Date(day.getTime() - 86_400_000).toISOString())}&to=${encodeURIComponent(new Date(day.getTime() + 86_400_000).toISOString())}`;
    const report = analyticsReport(t.deps.db, owner.userId, AnalyticsRangeSchema.parse(Object.fromEntries(new URLSearchParams(q))), { leads: true });
    expect(report.totals).toMatchObject({ pageViews: 1, linkClicks: 0 });
    expect(report.allTimePageViews).toBe(1);
  });

  it("refuses a click on a link the published page does not show: hidden, not yet scheduled, deleted, or unpublished", async () => {
    const live = addLink({ linkType: "standard_url", url: "https://live.example" });
    const hidden = addLink({ linkType: "standard_url", url: "https://hidden.example", isActive: false });
    const later = addLink({ linkType: "standard_url", url: "https://later.example", scheduleStartTime: new Date(Date.now() + 86_400_000) });
    const deleted = addLink({ linkType: "standard_url", url: "https://deleted.example" });
    t.deps.db.delete(links).where(eq(links.id, deleted)).run();
    // In the draft only: added after the last publish.
    const draftOnly = newId();
    t.deps.db.insert(links).values({ id: draftOnly, userId: owner.userId, title: "Draft", url: "https://draft.example", orderIndex: 9 }).run();
    for (const linkId of [hidden, later, deleted, draftOnly]) {
      const res = await post("track", { type: "link_click", username: owner.username, linkId }, { "User-Agent": "Mozilla/5.0 (iPhone; Mobile)" });
      expect(res.status, linkId).toBe(404);
      expect((await res.json()).error.message).toBe("Link not found");
    }
    expect(await stored()).toHaveLength(0);
    expect((await post("track", { type: "link_click", username: owner.username, linkId: live })).status).toBe(204);
    // Its schedule ends: the click is refused from then on.
    const ends = addLink({ linkType: "standard_url", url: "https://ends.example", scheduleEndTime: new Date(Date.now() + 60_000) });
    const after = new Date(Date.now() + 120_000);
    const app = createServerApp({ ...t.deps, now: () => after });
    const res = await app.request("/api/visitor/track", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": "10.7.7.7", "User-Agent": "Mozilla/5.0 (iPhone; Mobile)" },
      body: JSON.stringify({ type: "link_click", username: owner.username, linkId: ends }),
    });
    expect(res.status).toBe(404);
    expect(await stored()).toHaveLength(1);
  });

  it("answers preflight for any origin without credentials", async () => {
    const res = await t.app.request("/api/visitor/track", { method: "OPTIONS", headers: { Origin: "https://static.example", "Access-Control-Request-Method": "POST" } });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("rate-limits a client with 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await post("track", { type: "page_view", username: owner.username }, { "X-Forwarded-For": "192.0.2.9" })).status);
    expect(statuses).toContain(429);
    expect(statuses.slice(0, 30).every((s) => s === 204)).toBe(true);
  });

  it("limits an IPv6 client by its /64, whichever of its addresses it sends from", async () => {
    // A frozen clock: no token comes back while the test runs.
    const at = new Date();
    const app = createServerApp({ ...t.deps, now: () => at });
    const beacon = (from: string) =>
      app.request("/api/visitor/track", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "https://static.example", "X-Forwarded-For": from },
        body: JSON.stringify({ type: "page_view", username: owner.username }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await beacon(`2001:db8:7:8:${i.toString(16)}::1`)).status);
    expect(statuses).toEqual([...Array(30).fill(204), ...Array(10).fill(429)]);
    // The next /64 is another client.
    expect((await beacon("2001:db8:7:9::1")).status).toBe(204);
  });
});

/** The Node server as api/server.ts runs it, on a free port of 127.0.0.1. */
async function listening(deps: AppDeps) {
  const server = createHttpServer(deps);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Status, body and headers, without the ones a socket adds (date, connection, length, and the request's id). */
async function answerOf(res: Response) {
  const headers = [...res.headers].filter(([name]) => !["date", "connection", "keep-alive", "content-length", "transfer-encoding", "x-request-id"].includes(name));
  return { status: res.status, body: await res.text(), headers: Object.fromEntries(headers.sort()) };
}

describe("on the Node server", () => {
  it("answers good and hostile beacons with the API's headers and error bodies, 503 when the queue is full, 429 past the limit", async () => {
    // A queue of one that is written only when flushed: the second beacon finds it full.
    const events = createEventWriter(t.deps.db, { batchSize: 1000, flushMs: 3_600_000, maxQueue: 1 });
    // A frozen clock: no token of the rate limit comes back while the test runs.
    const at = new Date();
    const { server, origin } = await listening({ ...t.deps, events, now: () => at });
    const theirs = createApiOwner(t, "plus");
    const theirLink = newId();
    t.deps.db.insert(links).values({ id: theirLink, userId: theirs.userId, title: "Theirs", url: "https://theirs.example/" }).run();
    const headers = (from: string) => ({ "Content-Type": "text/plain;charset=UTF-8", "User-Agent": "Mozilla/5.0 (iPhone; Mobile)", Referer: "https://static.example/", Origin: "https://static.example", "X-Forwarded-For": from });
    const send = async (body: string, from: string) => answerOf(await fetch(`${origin}/api/visitor/track`, { method: "POST", headers: headers(from), body }));
    const crossOrigin = { "access-control-allow-origin": "*", "cross-origin-resource-policy": "cross-origin", "cache-control": "no-store", "x-content-type-options": "nosniff" };
    const view = JSON.stringify({ type: "page_view", username: owner.username });
    try {
      // What is wrong: the body, the status and the message answered.
      const cases: [string, string, number, string][] = [
        ["not JSON", "{nope", 400, "Request body must be JSON"],
        ["no type", JSON.stringify({ username: owner.username }), 400, "Invalid discriminator value. Expected 'page_view' | 'link_click'"],
        ["a script for a name", JSON.stringify({ type: "page_view", username: "<script>alert(1)</script>" }), 404, "Page not found"],
        ["control characters", JSON.stringify({ type: "page_view", username: `${owner.username}\u0000` }), 404, "Page not found"],
        ["a page nobody published", JSON.stringify({ type: "page_view", username: "nobody_published" }), 404, "Page not found"],
        ["another owner's link", JSON.stringify({ type: "link_click", username: owner.username, linkId: theirLink }), 404, "Link not found"],
        ["over 64 KB", JSON.stringify({ type: "page_view", username: owner.username, referrer: `https://a.example/${"x".repeat(70_000)}` }), 413, "Request body is too large"],
      ];
      let n = 0;
      for (const [what, body, status, message] of cases) {
        const answer = await send(body, `10.9.${++n}.1`);
        expect(answer, what).toMatchObject({ status, headers: { ...crossOrigin, "content-type": "application/json" } });
        expect(JSON.parse(answer.body).error.message, what).toBe(message);
      }
      expect(events.queued).toBe(0);
      // Accepted, then the full queue: 503 with Retry-After.
      expect(await send(view, "10.8.0.1")).toMatchObject({ status: 204, body: "", headers: crossOrigin });
      const full = await send(view, "10.8.1.1");
      expect(full).toMatchObject({ status: 503, headers: { ...crossOrigin, "retry-after": "1" } });
      expect(JSON.parse(full.body).error.message).toBe("Too many requests. Please try again later.");
      await events.flush();
      expect(await stored()).toHaveLength(1);
      // One limit per client: 30 at once, bad bodies included, then 429.
      const spent: number[] = [];
      for (let i = 0; i < 30; i++) spent.push((await send("{}", "10.7.0.1")).status);
      expect(spent).toEqual(Array(30).fill(400));
      const limited = await send(view, "10.7.0.1");
      expect(limited).toMatchObject({ status: 429, headers: crossOrigin });
      expect(JSON.parse(limited.body).error.message).toBe("Too many requests. Please try again later.");
    } finally {
      server.close();
      await events.close();
    }
  });

  it("takes a forged X-Forwarded-For for the client only behind as many proxies as TRUST_PROXY says", async () => {
    // TRUST_PROXY=1: the last entry is the proxy's word; what the client wrote left of it is ignored.
    // A frozen clock: no token comes back while the test runs.
    const at = new Date();
    const { server, origin } = await listening({ ...t.deps, now: () => at });
    const send = (forwarded: string) =>
      fetch(`${origin}/api/visitor/track`, { method: "POST", headers: { "Content-Type": "text/plain", "X-Forwarded-For": forwarded }, body: JSON.stringify({ type: "page_view", username: owner.username }) });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push((await send(`198.51.100.${i}, 10.6.0.1`)).status);
      expect(statuses).toEqual([...Array(30).fill(204), 429]);
    } finally {
      server.close();
    }
  });

  it("stores a beacon whose body fits, and answers 413 over 64 KB whether its length is declared or streamed", async () => {
    const { server, origin } = await listening(t.deps);
    const send = (body: BodyInit, extra: Record<string, string> = {}) =>
      fetch(`${origin}/api/visitor/track`, { method: "POST", headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": "Mozilla/5.0 (iPhone; Mobile)", ...extra }, body, duplex: "half" } as RequestInit);
    try {
      const ok = await send(JSON.stringify({ type: "page_view", username: owner.username, referrer: "https://ünïcode.example/ä" }));
      expect(ok.status).toBe(204);
      expect(ok.headers.get("access-control-allow-origin")).toBe("*");
      expect(await stored()).toMatchObject([{ kind: "page_view", referrerDomain: new URL("https://ünïcode.example/").hostname }]);
      const big = JSON.stringify({ type: "page_view", username: owner.username, referrer: `https://a.example/${"x".repeat(70_000)}` });
      const declared = await send(big);
      expect(declared.status).toBe(413);
      expect((await declared.json()).error.message).toBe("Request body is too large");
      // No length up front: the body arrives in chunks until it passes the limit.
      const chunks = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode("x".repeat(8_192)));
          controller.close();
        },
      });
      const streamed = await send(chunks);
      expect(streamed.status).toBe(413);
      expect((await streamed.json()).error.message).toBe("Request body is too large");
      expect(await stored()).toHaveLength(1);
    } finally {
      server.close();
    }
  });
});

describe("POST /api/visitor/lead", () => {
  it("mails the download link, stores the lead and returns downloadUrl", async () => {
    const id = addLink();
    const res = await post("lead", { linkId: id, email: "fan@example.com" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ downloadUrl: "https://files.example/guide.pdf" });
    expect(readOutbox(t.deps.env.OUTBOX_DIR)).toMatchObject([{ to: "fan@example.com", text: expect.stringContaining("\nhttps://files.example/guide.pdf\n") }]);
    expect(t.deps.db.select().from(collectedLeads).all()).toMatchObject([{ email: "fan@example.com", linkTitle: "Guide" }]);
  });

  it("requires an e-mail and refuses links that are not live lead magnets", async () => {
    const id = addLink();
    const res = await post("lead", { linkId: id, email: "" });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Please enter your email address");
    expect((await post("lead", { linkId: id, email: "<script>@x" })).status).toBe(400);
    expect((await post("lead", { linkId: addLink({ linkType: "standard_url" }), email: "a@example.com" })).status).toBe(404);
    expect((await post("lead", { linkId: addLink({ isActive: false }), email: "a@example.com" })).status).toBe(404);
    expect((await post("lead", { linkId: addLink({ linkSpecificData: { fileUrl: "javascript:alert(1)" } }), email: "a@example.com" })).status).toBe(404);
    // Rows the link rules would never have saved: markup, or credentials in the URL.
    for (const fileUrl of ['https://files.example/"><script>alert(1)</script>', "https://user:secret@files.example/guide.pdf"]) {
      expect((await post("lead", { linkId: addLink({ linkSpecificData: { fileUrl } }), email: "a@example.com" })).status).toBe(404);
    }
    expect(t.deps.db.select().from(collectedLeads).all()).toHaveLength(0);
    expect(t.outbox()).toHaveLength(0);
  });
});

describe("lead magnet files stored by Plinth", () => {
  it("answers an absolute downloadUrl on the API origin", async () => {
    const id = addLink({ linkSpecificData: { fileUrl: "/media/ab/0123456789abcdef0123456789abcdef.pdf" } });
    const res = await post("lead", { linkId: id, email: " fan@example.com " });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ downloadUrl: `${t.deps.env.PUBLIC_ORIGIN}/media/ab/0123456789abcdef0123456789abcdef.pdf` });
    expect(t.deps.db.select().from(collectedLeads).all()).toMatchObject([{ email: "fan@example.com" }]);
  });

  it("refuses a lead for an unpublished page, a hidden link or a link outside its schedule", async () => {
    const hidden = addLink({ isActive: false });
    const later = addLink({ scheduleStartTime: new Date(Date.now() + 60_000) });
    for (const linkId of [hidden, later, "no-such-link"]) expect((await post("lead", { linkId, email: "a@example.com" })).status).toBe(404);
    const live = addLink();
    t.deps.db.update(userProfiles).set({ hasPublishedPage: false }).where(eq(userProfiles.userId, owner.userId)).run();
    expect((await post("lead", { linkId: live, email: "a@example.com" })).status).toBe(404);
    expect(t.outbox()).toHaveLength(0);
  });

  it("limits how many e-mails one client can trigger", async () => {
    const id = addLink();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await post("lead", { linkId: id, email: `fan${i}@example.com` }, { "X-Forwarded-For": "198.51.100.7" })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe("POST /api/visitor/report", () => {
  it("stores a report with a hashed address", async () => {
    const res = await post("report", { username: owner.username, reason: "spam", details: "<script>alert(1)</script>" });
    expect(res.status).toBe(204);
    const [row] = t.deps.db.select().from(pageReports).all();
    expect(row).toMatchObject({ reason: "spam", reportedPageUsername: owner.username, details: "<script>alert(1)</script>" });
    expect(row?.reporterIpHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("tells the team by e-mail, with the reported page's address", async () => {
    await post("report", { username: owner.username, reason: "impersonation", details: "Not the real person" });
    const mail = t.outbox().find((m) => m.includes(`Page reported: @${owner.username}`))!;
    expect(mail).toContain(t.deps.env.CONTACT_TO);
    expect(mail).toContain(`${t.deps.env.PUBLIC_ORIGIN}/${owner.username}`);
    expect(mail).toContain("Not the real person");
  });

  it.each([
    ["an unknown reason", { reason: "boring" }, 400],
    ["details over 2000 characters", { reason: "spam", details: "x".repeat(2001) }, 400],
    ["an unknown page", { reason: "spam", username: "nobody_here" }, 404],
    ["a missing username", { reason: "spam", username: undefined }, 400],
  ])("refuses %s", async (_name, body, status) => {
    const res = await post("report", { username: owner.username, ...body });
    expect(res.status).toBe(status);
    expect((await res.json()).error.message).toEqual(expect.any(String));
    expect(t.deps.db.select().from(pageReports).all()).toHaveLength(0);
  });

  it("requires a reason", async () => {
    const res = await post("report", { username: owner.username, reason: "" });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Please select a reason");
    expect(t.deps.db.select().from(pageReports).all()).toHaveLength(0);
  });
});
