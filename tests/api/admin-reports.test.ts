/**
 * Reported pages and suspensions in the operator's console (ADR 108, 109): the queue grouped by page
 * with stable reporter ids and the version the first report saw (kept from pruning); dismiss, reopen,
 * suspend and restore of a page and of an account, each with its reason, recorded, undoable, and
 * refused with a message on bad input or when another admin already did it. A suspended page answers
 * 410 with the unavailable page everywhere it is served and nothing re-renders it.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#api/auth/password.ts";
import { createSession, SESSION_COOKIE } from "#api/auth/session.ts";
import { reporterId } from "#api/services/admin-reports.ts";
import { setAdminRole } from "#api/services/admin-role.ts";
import { ADMIN_TEXTS, SUSPENSION_TEXTS } from "#core/admin.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { adminAuditLog, analyticsEvents, collectedLeads, links, pageReports, pageVersions, userProfiles, users } from "#db/schema.ts";
import { outOfDateOwners } from "#renderer/follow-template.ts";
import { MAX_VERSIONS_LISTED, publishPage } from "#renderer/publish.ts";
import { republishAll } from "#renderer/republish.ts";
import { rerenderPublishedPage } from "#renderer/rerender.ts";
import { UNAVAILABLE_HTML } from "#renderer/suspension.ts";
import { createApiAdmin } from "#tests/support/admin.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp({ TRUST_PROXY: "1" });
});
afterEach(() => t.close());

const admin = () => createApiAdmin(t);
const json = async (r: Response | Promise<Response>) => {
  const res = await r;
  return { status: res.status, body: (await res.json()) as any };
};
const report = (username: string, reason: string, from: string, details = "") =>
  t.app.request("/api/visitor/report", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "https://elsewhere.example", "X-Forwarded-For": from },
    body: JSON.stringify({ username, reason, details }),
  });
const page = (path: string) => t.app.request(path);
const published = (...parts: string[]) => join(t.deps.env.PUBLISHED_DIR, ...parts);
const setBio = (o: ApiOwner, bio: string) => t.deps.db.update(userProfiles).set({ bio }).where(eq(userProfiles.userId, o.userId)).run();
const renderOpts = () => ({ publishedDir: t.deps.env.PUBLISHED_DIR, origin: t.deps.env.PUBLIC_ORIGIN, now: new Date() });
const auditActions = () => t.deps.db.select().from(adminAuditLog).all().map((e) => e.action);

async function publishedOwner(bio: string): Promise<ApiOwner> {
  const o = createApiOwner(t, "plus");
  setBio(o, bio);
  expect((await o.call("POST", "/api/publish")).status).toBe(200);
  return o;
}

describe("the reports queue", () => {
  it("groups open reports by page, newest first, with reasons counted, a reporter id stable across restarts, and the first report's version", async () => {
    // Each reading of the app's clock is a second later: the order is the reports', not the machine's speed.
    let clock = Date.now();
    t.deps.now = () => new Date((clock += 1000));
    const a = admin();
    const first = await publishedOwner("Version one of the first page");
    const second = await publishedOwner("The second page");
    expect((await report(first.username, "spam", "203.0.113.7", "<script>alert(1)</script>")).status).toBe(204);
    // The owner publishes again: the queue keeps what the visitor saw.
    setBio(first, "Version two of the first page");
    expect((await first.call("POST", "/api/publish")).status).toBe(200);
    expect((await report(first.username, "spam", "203.0.113.7")).status).toBe(204);
    expect((await report(first.username, "impersonation", "198.51.100.2")).status).toBe(204);
    expect((await report(second.username, "harassment", "198.51.100.2")).status).toBe(204);

    const { status, body } = await json(a.call("GET", "/api/admin/reports"));
    expect(status).toBe(200);
    expect(body.pages.map((p: any) => p.username)).toEqual([second.username, first.username]);
    const p = body.pages[1];
    expect(p).toMatchObject({ userId: first.userId, pinnedVersion: 1, suspendedAt: null, reasons: [{ reason: "spam", count: 2 }, { reason: "impersonation", count: 1 }] });
    expect(p.reports).toHaveLength(3);
    const [impersonation, spamAgain, spamFirst] = p.reports;
    expect(spamFirst.details).toBe("<script>alert(1)</script>");
    expect(spamFirst.reporter).toMatch(/^[0-9a-f]{64}$/);
    expect(spamAgain.reporter).toBe(spamFirst.reporter);
    expect(impersonation.reporter).not.toBe(spamFirst.reporter);
    expect(body.pages[0].reports[0].reporter).toBe(impersonation.reporter);
    // The key is kept in the database: another process (a restart) names the reporter the same way.
    const other = openDatabase({ path: t.deps.env.DATABASE_PATH });
    try {
      expect(reporterId(other, "203.0.113.7")).toBe(spamFirst.reporter);
    } finally {
      closeDatabase(other);
    }

    // The pinned version, as published then, under a policy that runs nothing.
    const pinned = await a.call("GET", `/api/admin/reports/${first.userId}/pinned`);
    expect(pinned.status).toBe(200);
    const csp = pinned.headers.get("content-security-policy")!;
    expect(csp).toContain("sandbox");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
    const html = await pinned.text();
    expect(html).toContain("Version one of the first page");
    expect(html).not.toContain("Version two");
    expect((await json(a.call("GET", `/api/admin/reports/${createApiOwner(t).userId}/pinned`))).body.error.message).toBe(ADMIN_TEXTS.pinnedVersionGone);
    // A malformed id is no page.
    expect((await a.call("GET", "/api/admin/reports/bad%20id%3Cscript%3E/pinned")).status).toBe(404);
  });

  it("keeps the pinned version through any number of later publishes, and still prunes the others", async () => {
    const owner = await publishedOwner("As reported");
    await report(owner.username, "spam", "203.0.113.7");
    for (let i = 0; i < MAX_VERSIONS_LISTED + 3; i++) {
      setBio(owner, `Later edit ${i}`);
      expect(publishPage(t.deps.db, owner.userId, renderOpts())).toMatchObject({ ok: true, changed: true });
    }
    const versions = t.deps.db.select({ v: pageVersions.version }).from(pageVersions).where(eq(pageVersions.userId, owner.userId)).all().map((r) => r.v).sort((x, y) => x - y);
    expect(versions[0]).toBe(1);
    expect(versions).toHaveLength(MAX_VERSIONS_LISTED + 1);
    expect(await (await admin().call("GET", `/api/admin/reports/${owner.userId}/pinned`)).text()).toContain("As reported");
  });
});

describe("dismiss and reopen", () => {
  it("needs a note, closes the page's open reports once even when two admins act, records it, and reopens them as an undo", async () => {
    const [a, b] = [admin(), admin()];
    const owner = await publishedOwner("A page");
    await report(owner.username, "spam", "203.0.113.7");
    await report(owner.username, "other", "203.0.113.8");
    for (const body of [{}, { note: "" }, { note: "   " }, { note: "x".repeat(1001) }, { note: "bad\u0007" }, "not json"]) {
      const res = await json(a.call("POST", `/api/admin/reports/${owner.userId}/dismiss`, body));
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.error.message).toEqual(expect.any(String));
    }
    expect((await json(a.call("POST", `/api/admin/reports/${owner.userId}/dismiss`, { note: "" }))).body.error.message).toBe(ADMIN_TEXTS.noteRequired);
    expect((await json(a.call("POST", "/api/admin/reports/no-such-owner/dismiss", { note: "x" }))).status).toBe(404);

    const both = await Promise.all([a.call("POST", `/api/admin/reports/${owner.userId}/dismiss`, { note: "Not a breach" }), b.call("POST", `/api/admin/reports/${owner.userId}/dismiss`, { note: "Fine" })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await json(a.call("GET", "/api/admin/reports"))).body.pages).toEqual([]);
    expect(auditActions().filter((x) => x === "reports.dismiss")).toHaveLength(1);

    const reopened = await json(a.call("POST", `/api/admin/reports/${owner.userId}/reopen`, { note: "Undo" }));
    expect(reopened).toEqual({ status: 200, body: { reopened: 2 } });
    expect((await json(a.call("GET", "/api/admin/reports"))).body.pages[0].reports).toHaveLength(2);
    const entry = t.deps.db.select().from(adminAuditLog).all().find((e) => e.action === "reports.reopen")!;
    expect(entry).toMatchObject({ targetType: "page", targetId: owner.userId, targetLabel: owner.username, reason: "Undo" });
    expect(JSON.parse(entry.before)).toEqual({ openReports: 0 });
    expect(JSON.parse(entry.after)).toEqual({ openReports: 2 });
    // Nothing dismissed on a page with no reports.
    expect((await json(a.call("POST", `/api/admin/reports/${createApiOwner(t).userId}/reopen`, { note: "x" }))).body.error.message).toBe(ADMIN_TEXTS.noDismissal);
  });
});

describe("suspending a page", () => {
  it("serves the unavailable page with 410 everywhere, refuses the owner's publish, skips every re-render, and restore brings the last version back", async () => {
    const [a, b] = [admin(), admin()];
    const owner = await publishedOwner("The owner's words");
    const other = await publishedOwner("Another page");
    const qr = readdirSync(published(owner.username)).find((f) => /^qr-.*\.svg$/.test(f))!;
    expect((await page(`/${owner.username}/${qr}`)).status).toBe(200);

    for (const body of [{}, { reason: "" }, { reason: "x".repeat(1001) }]) {
      expect((await json(a.call("POST", `/api/admin/pages/${owner.userId}/suspend`, body))).status).toBe(400);
    }
    expect((await json(a.call("POST", `/api/admin/pages/${owner.userId}/suspend`, {}))).body.error.message).toBe(ADMIN_TEXTS.reasonRequired);
    expect((await json(a.call("POST", "/api/admin/pages/nobody/suspend", { reason: "x" }))).status).toBe(404);
    // Nothing changed by the refusals.
    expect((await page(`/${owner.username}`)).status).toBe(200);

    const reason = "Phishing links\nto a fake bank";
    const both = await Promise.all([a.call("POST", `/api/admin/pages/${owner.userId}/suspend`, { reason }), b.call("POST", `/api/admin/pages/${owner.userId}/suspend`, { reason: "Other" })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const suspendedReason = t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!.pageSuspensionReason;

    // The built-in server: the page, any case, HEAD, and its files.
    const res = await page(`/${owner.username}`);
    expect(res.status).toBe(410);
    expect(await res.text()).toBe(UNAVAILABLE_HTML);
    expect((await page(`/${owner.username}/`)).status).toBe(410);
    expect((await t.app.request(`/${owner.username}`, { method: "HEAD" })).status).toBe(410);
    expect((await page(`/${owner.username}/${qr}`)).status).toBe(410);
    expect((await page(`/${other.username}`)).status).toBe(200);
    // Static hosts: the folder holds the same page, and the page's own files are gone.
    expect(readFileSync(published(owner.username, "index.html"), "utf8")).toBe(UNAVAILABLE_HTML);
    expect(existsSync(published(owner.username, qr))).toBe(false);
    const sitemap = readFileSync(published("sitemap.xml"), "utf8");
    expect(sitemap).not.toContain(`/${owner.username}<`);
    expect(sitemap).toContain(`/${other.username}<`);

    // The owner: publish and rollback refused with the message, the reason in the state, an e-mail.
    const refused = await json(owner.call("POST", "/api/publish"));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(SUSPENSION_TEXTS.publishRefused);
    expect((await json(owner.call("POST", "/api/publish/rollback", { version: 1 }))).status).toBe(403);
    expect((await json(owner.call("GET", "/api/publish/state"))).body.suspension).toEqual({ since: expect.any(String), reason: suspendedReason });
    expect(t.outbox().some((m) => m.includes("Your Plinth page has been suspended") && m.includes("> Phishing links"))).toBe(true);

    // Every re-render path leaves the unavailable page alone.
    expect(await rerenderPublishedPage(t.deps.db, owner.userId, renderOpts())).toBe(false);
    expect(outOfDateOwners(t.deps.db, "another-template").map((o) => o.userId)).not.toContain(owner.userId);
    // A whole republish into a fresh folder (a restored backup) leaves it unavailable, not missing.
    rmSync(published(owner.username), { recursive: true });
    await republishAll(t.deps.db, { ...renderOpts(), threads: 1 });
    await republishAll(t.deps.db, { ...renderOpts(), threads: 1, owners: [{ userId: owner.userId, username: owner.username }] });
    expect(readFileSync(published(owner.username, "index.html"), "utf8")).toBe(UNAVAILABLE_HTML);
    expect(publishPage(t.deps.db, owner.userId, renderOpts())).toEqual({ ok: false, reason: "suspended" });

    // The queue keeps a suspended page, reports or not, so it can be restored there.
    expect((await json(a.call("GET", "/api/admin/reports"))).body.pages).toEqual([
      expect.objectContaining({ userId: owner.userId, reports: [], reasons: [], suspendedAt: expect.any(String), suspensionReason: suspendedReason, pinnedVersion: null }),
    ]);

    // Restore: the last published version is back, the sitemap lists it, the owner is told.
    const restored = await json(a.call("POST", `/api/admin/pages/${owner.userId}/restore`, { note: "Appeal accepted" }));
    expect(restored).toEqual({ status: 200, body: { suspended: false, previousReason: suspendedReason } });
    expect((await json(b.call("POST", `/api/admin/pages/${owner.userId}/restore`, { note: "Again" }))).body.error.message).toBe(ADMIN_TEXTS.notSuspended);
    const back = await page(`/${owner.username}`);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("The owner's words");
    expect((await page(`/${owner.username}/${qr}`)).status).toBe(200);
    expect(readFileSync(published("sitemap.xml"), "utf8")).toContain(`/${owner.username}<`);
    expect((await json(owner.call("GET", "/api/publish/state"))).body.suspension).toBeNull();
    expect(t.outbox().some((m) => m.includes("Your Plinth page has been restored"))).toBe(true);
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    expect((await json(a.call("GET", "/api/admin/reports"))).body.pages).toEqual([]);

    // The record, with before and after.
    const entries = t.deps.db.select().from(adminAuditLog).all().filter((e) => e.action.startsWith("page."));
    expect(entries.map((e) => [e.action, JSON.parse(e.before), JSON.parse(e.after)])).toEqual([
      ["page.suspend", { suspended: false }, { suspended: true, reason: suspendedReason }],
      ["page.restore", { suspended: true, reason: suspendedReason }, { suspended: false }],
    ]);
  });
});

describe("a report against a suspended page", () => {
  it("answers 404 Page not found as for an unpublished page, stores and mails nothing, and the unavailable page offers no report dialog", async () => {
    const a = admin();
    const owner = await publishedOwner("Reported page");
    expect((await json(a.call("POST", `/api/admin/pages/${owner.userId}/suspend`, { reason: "Phishing" }))).status).toBe(200);
    const mailsBefore = t.outbox().length;

    const refused = await json(report(owner.username, "spam", "203.0.113.9", "still there?"));
    expect(refused).toMatchObject({ status: 404, body: { error: { message: "Page not found" } } });
    expect(await json(report("nobody-here", "spam", "203.0.113.9"))).toEqual(refused);
    expect(t.deps.db.select().from(pageReports).all()).toHaveLength(0);
    expect(t.outbox()).toHaveLength(mailsBefore);
    const html = await (await page(`/${owner.username}`)).text();
    expect(html).toBe(UNAVAILABLE_HTML);
    expect(html).not.toMatch(/report|<form|<dialog|<script/i);

    // Restored, the page can be reported again.
    expect((await json(a.call("POST", `/api/admin/pages/${owner.userId}/restore`, { note: "Cleared" }))).status).toBe(200);
    expect((await report(owner.username, "spam", "203.0.113.9")).status).toBe(204);
    expect(t.deps.db.select().from(pageReports).all()).toHaveLength(1);
  });
});

describe("beacons and leads for a suspended page", () => {
  it("are refused with 404 Page not found or Link not found, and store nothing", async () => {
    const a = admin();
    const owner = await publishedOwner("Suspended page");
    const magnet = newId();
    t.deps.db.insert(links).values({ id: magnet, userId: owner.userId, title: "Guide", url: "#", linkType: "lead_magnet", linkSpecificData: { fileUrl: "https://files.example/guide.pdf" } }).run();
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    const send = (path: string, body: unknown) =>
      t.app.request(`/api/visitor/${path}`, { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": "203.0.113.20" }, body: JSON.stringify(body) });
    const visitor = (path: string, body: unknown) => json(send(path, body));
    expect((await send("track", { type: "page_view", username: owner.username })).status).toBe(204);
    expect((await a.call("POST", `/api/admin/pages/${owner.userId}/suspend`, { reason: "Phishing" })).status).toBe(200);
    const mailsBefore = t.outbox().length;
    expect(await visitor("track", { type: "page_view", username: owner.username })).toMatchObject({ status: 404, body: { error: { message: "Page not found" } } });
    expect(await visitor("track", { type: "link_click", username: owner.username, linkId: magnet })).toMatchObject({ status: 404, body: { error: { message: "Page not found" } } });
    expect(await visitor("lead", { linkId: magnet, email: "fan@example.com" })).toMatchObject({ status: 404, body: { error: { message: "Link not found" } } });
    await t.deps.events.flush();
    expect(t.deps.db.select().from(analyticsEvents).all()).toHaveLength(1);
    expect(t.deps.db.select().from(collectedLeads).all()).toHaveLength(0);
    expect(t.outbox()).toHaveLength(mailsBefore);
  });
});

describe("suspending an account", () => {
  it("ends its sessions, refuses its sign-in with a message, suspends its page, and restore undoes all of it", async () => {
    const a = admin();
    const owner = await publishedOwner("Account page");
    const email = `${owner.username}@example.com`;
    t.deps.db.update(users).set({ passwordHash: await hashPassword("a long enough password 1") }).where(eq(users.id, owner.userId)).run();
    const login = () => json(t.app.request("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin", Origin: t.deps.env.PUBLIC_ORIGIN }, body: JSON.stringify({ email, password: "a long enough password 1", rememberMe: false }) }));

    expect((await json(a.call("POST", `/api/admin/people/${a.userId}/suspend`, { reason: "Myself" }))).body.error.message).toBe(ADMIN_TEXTS.ownAccount);
    expect((await json(a.call("POST", `/api/admin/people/${owner.userId}/suspend`, { reason: "" }))).status).toBe(400);
    expect((await json(a.call("POST", "/api/admin/people/nobody/suspend", { reason: "x" }))).status).toBe(404);

    // Two admins at once: one suspension, one record, one e-mail.
    const b = admin();
    const both = await Promise.all([a.call("POST", `/api/admin/people/${owner.userId}/suspend`, { reason: "Fraud" }), b.call("POST", `/api/admin/people/${owner.userId}/suspend`, { reason: "Fraud too" })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await json(a.call("POST", `/api/admin/people/${owner.userId}/suspend`, { reason: "Fraud" }))).body.error.message).toBe(ADMIN_TEXTS.accountAlreadySuspended);
    expect(t.outbox().filter((m) => m.includes("Your Plinth account has been suspended"))).toHaveLength(1);
    expect((await owner.call("GET", "/api/me")).status).toBe(401);
    // A session made some other way since is refused as well.
    const { token } = createSession(t.deps.db, owner.userId, { persistent: false, now: new Date() });
    expect((await t.app.request("/api/me", { headers: { Cookie: `${SESSION_COOKIE}=${token}` } })).status).toBe(401);
    const refused = await login();
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(SUSPENSION_TEXTS.signInRefused);
    expect((await page(`/${owner.username}`)).status).toBe(410);
    expect((await json(a.call("GET", `/api/admin/people/${owner.userId}`))).body.person).toMatchObject({ suspendedAt: expect.any(String), suspensionReason: expect.stringMatching(/^Fraud/), pageSuspendedAt: expect.any(String), sessions: 0 });
    // The page comes back only with its account: "Restore page" says so and changes nothing.
    const pageRestore = await json(a.call("POST", `/api/admin/pages/${owner.userId}/restore`, { note: "Looks fine" }));
    expect(pageRestore).toEqual({ status: 409, body: { error: expect.objectContaining({ message: ADMIN_TEXTS.accountOfPageSuspended }) } });
    expect((await page(`/${owner.username}`)).status).toBe(410);
    expect(auditActions()).not.toContain("page.restore");

    expect(await json(a.call("POST", `/api/admin/people/${owner.userId}/restore`, { note: "Cleared" }))).toEqual({ status: 200, body: { suspended: false, previousReason: expect.stringMatching(/^Fraud/) } });
    expect((await login()).status).toBe(200);
    expect((await page(`/${owner.username}`)).status).toBe(200);
    expect(auditActions().filter((x) => x.startsWith("account."))).toEqual(["account.suspend", "account.restore"]);
    expect(t.outbox().some((m) => m.includes("Your Plinth account has been suspended"))).toBe(true);
  });
});

describe("suspending an admin (ADR 149)", () => {
  it("is refused from the console with a message that says to revoke the role from the shell first; once revoked, the account can be suspended", async () => {
    const a = admin();
    const other = admin();
    const refused = await json(a.call("POST", `/api/admin/people/${other.userId}/suspend`, { reason: "Rogue admin" }));
    expect(refused).toEqual({ status: 403, body: { error: expect.objectContaining({ message: ADMIN_TEXTS.adminAccount }) } });
    expect((await other.call("GET", "/api/admin/session")).status).toBe(200);
    expect(t.deps.db.select({ suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, other.userId)).get()!.suspendedAt).toBeNull();
    expect(auditActions()).not.toContain("account.suspend");
    expect(t.outbox().some((m) => m.includes("Your Plinth account has been suspended"))).toBe(false);

    setAdminRole(t.deps.db, { email: `${other.username}@example.com`, admin: false, actor: "shell (test)", now: new Date() });
    expect((await json(a.call("POST", `/api/admin/people/${other.userId}/suspend`, { reason: "Rogue admin" }))).status).toBe(200);
    expect((await other.call("GET", "/api/me")).status).toBe(401);
  });
});
