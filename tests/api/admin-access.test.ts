/**
 * The operator's console cannot be found or used by anyone but an admin with two-factor on (ADR 105):
 * every admin route answers a signed-out visitor, an owner and an admin without two-factor exactly as
 * an unknown path does. An admin's sign-in ends 12 hours after it was made. The role is granted only
 * from the shell, and every grant and revocation lands in an append-only record.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSession, SESSION_COOKIE, validateSessionToken } from "#api/auth/session.ts";
import { recordAdminAction } from "#api/services/admin-audit.ts";
import { setAdminRole } from "#api/services/admin-role.ts";
import { ADMIN_SESSION_MS } from "#core/admin.ts";
import { adminAuditLog, sessions, users } from "#db/schema.ts";
import { hashPassword } from "#api/auth/password.ts";
import { totpAt } from "#api/services/two-factor.ts";
import { createAccount } from "#api/services/accounts.ts";
import { createApiAdmin, passSecondFactor, turnOnTwoFactor } from "#tests/support/admin.ts";
import { browser } from "#tests/support/auth-client.ts";
import { createTestApp, sameOrigin, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { bundleForNode } from "#tests/support/node-bundle.ts";

const ROOT = join(import.meta.dirname, "../..");
const run = promisify(execFile);

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const emailOf = (o: ApiOwner) => `${o.username}@example.com`;
const admin = (opts: { twoFactor: boolean }) => createApiAdmin(t, opts);
const get = (path: string, cookie?: string) => t.app.request(path, { headers: sameOrigin(cookie ? { Cookie: cookie } : {}) });

const ROUTES = [
  "/api/admin/session",
  "/api/admin/audit",
  "/api/admin/audit.csv",
  "/api/admin/audit?action=role.grant",
  "/api/admin/payouts",
  "/api/admin/payouts/some-id",
  "/api/admin/people?q=owner",
  "/api/admin/people/some-id",
  "/api/admin/reports",
  "/api/admin/reports/some-id/pinned",
  "/api/admin/nothing-here",
];
const WRITES = [
  "/api/admin/payouts/some-id/decision",
  "/api/admin/people/some-id/sign-out-everywhere",
  "/api/admin/reports/some-id/dismiss",
  "/api/admin/reports/some-id/reopen",
  "/api/admin/pages/some-id/suspend",
  "/api/admin/pages/some-id/restore",
  "/api/admin/people/some-id/suspend",
  "/api/admin/people/some-id/restore",
];

describe("who gets in", () => {
  it("answers a signed-out visitor, an owner (with or without two-factor) and an admin without two-factor as an unknown path does", async () => {
    const unknown = await get("/api/no-such-thing");
    expect(unknown.status).toBe(404);
    const notFound = await unknown.json();
    const owner = createApiOwner(t, "plus");
    const ownerWith2fa = createApiOwner(t, "plus");
    turnOnTwoFactor(t, ownerWith2fa.userId);
    const adminWithout2fa = admin({ twoFactor: false });
    for (const who of [undefined, owner.cookie, ownerWith2fa.cookie, adminWithout2fa.cookie]) {
      for (const path of ROUTES) {
        const res = await get(path, who);
        expect({ path, who, status: res.status }).toEqual({ path, who, status: 404 });
        expect(await res.json()).toEqual(notFound);
      }
      for (const path of WRITES) {
        const res = await t.app.request(path, { method: "POST", headers: sameOrigin(who ? { Cookie: who } : {}), body: JSON.stringify({ decision: "paid", reference: "x", reason: "x", note: "x" }) });
        expect({ path, who, status: res.status }).toEqual({ path, who, status: 404 });
        expect(await res.json()).toEqual(notFound);
      }
    }
    // Bad input is not even read before the guard: no validation message tells a stranger the route exists.
    expect(await (await get("/api/admin/audit?action=%3Cscript%3E", owner.cookie)).json()).toEqual(notFound);
  });

  it("lets an admin with two-factor on in, and only them", async () => {
    const a = admin({ twoFactor: true });
    const res = await get("/api/admin/session", a.cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email: emailOf(a) });
    expect((await get("/api/admin/nothing-here", a.cookie)).status).toBe(404);
    // Revoked from the shell: the same session is refused at once.
    setAdminRole(t.deps.db, { email: emailOf(a), admin: false, actor: "shell (test)", now: new Date() });
    expect((await get("/api/admin/session", a.cookie)).status).toBe(404);
    // ...and the account keeps working as an owner.
    expect((await a.call("GET", "/api/me")).status).toBe(200);
  });
});

describe("the second factor belongs to the sign-in, not only to the account", () => {
  it("a session signed in with the password alone stays out after two-factor is turned on elsewhere; the session that turned it on and a sign-in through the code get in", async () => {
    const password = "Sturdy-Password-42";
    const email = "root-admin@example.com";
    createAccount(t.deps.db, { email, username: "root_admin", passwordHash: await hashPassword(password), emailVerified: true, now: new Date() });
    setAdminRole(t.deps.db, { email, admin: true, actor: "shell (test)", now: new Date() });
    const signIn = async () => {
      const b = browser(t);
      expect(await b.json("POST", "/api/auth/login", { email, password, rememberMe: false })).toMatchObject({ status: 200, body: { status: "signed_in" } });
      return b;
    };
    const passwordOnly = await signIn();
    expect((await passwordOnly.call("GET", "/api/admin/session")).status).toBe(404);

    // Another session turns two-factor on: it has just shown a code from the app.
    const other = await signIn();
    const secret = (await other.json("POST", "/api/auth/two-factor/setup", { password })).body.secret as string;
    expect((await other.json("POST", "/api/auth/two-factor/enable", { code: totpAt(secret, new Date()) })).status).toBe(200);
    expect((await other.call("GET", "/api/admin/session")).status).toBe(200);

    // The first session never passed the second factor: still an unknown path, to the API and to the console's page.
    expect((await passwordOnly.call("GET", "/api/admin/session")).status).toBe(404);
    expect((await passwordOnly.call("GET", "/api/admin/audit")).status).toBe(404);
    expect((await passwordOnly.call("GET", "/api/me")).status).toBe(200);

    // A new sign-in goes through the code, and that session gets in.
    const fresh = browser(t);
    expect(await fresh.json("POST", "/api/auth/login", { email, password, rememberMe: false })).toMatchObject({ status: 200, body: { status: "two_factor" } });
    expect((await fresh.call("GET", "/api/admin/session")).status).toBe(404);
    expect((await fresh.json("POST", "/api/auth/login/two-factor", { code: totpAt(secret, new Date(), 1) })).status).toBe(200);
    expect((await fresh.call("GET", "/api/admin/session")).status).toBe(200);
    expect(t.deps.db.select({ secondFactor: sessions.secondFactor }).from(sessions).all().map((s) => s.secondFactor).sort()).toEqual([false, true, true]);
  });
});

describe("an admin's sign-in lasts 12 hours", () => {
  it("ends 12 hours after it was made however active, is never renewed, and leaves owners' 30 days alone", () => {
    const db = t.deps.db;
    const a = admin({ twoFactor: true });
    const signedIn = new Date("2026-11-26T08:00:00Z");
    const { token, session } = createSession(db, a.userId, { persistent: true, now: signedIn });
    const justBefore = validateSessionToken(db, token, new Date(signedIn.getTime() + ADMIN_SESSION_MS - 1));
    expect(justBefore).toMatchObject({ renewed: false, user: { role: "admin" } });
    expect(justBefore!.session.expiresAt.getTime()).toBe(signedIn.getTime() + ADMIN_SESSION_MS);
    expect(validateSessionToken(db, token, new Date(signedIn.getTime() + ADMIN_SESSION_MS))).toBeNull();
    expect(db.select().from(sessions).where(eq(sessions.id, session.id)).get()).toBeUndefined();

    const owner = createApiOwner(t, "plus");
    const o = createSession(db, owner.userId, { persistent: true, now: signedIn });
    expect(validateSessionToken(db, o.token, new Date(signedIn.getTime() + 20 * 86_400_000))).toMatchObject({ renewed: true, user: { role: "owner" } });
  });

  it("through the API: a 13-hour-old admin session is signed out and its cookie cleared", async () => {
    const a = admin({ twoFactor: true });
    const { token } = createSession(t.deps.db, a.userId, { persistent: true, now: new Date(Date.now() - 13 * 3_600_000) });
    const res = await get("/api/admin/session", `${SESSION_COOKIE}=${token}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("set-cookie")).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
  });
});

describe("the record", () => {
  it("holds every grant and revocation with who, what, whom, when and the role before and after; a repeat changes nothing and records nothing", async () => {
    const o = createApiOwner(t, "plus");
    const db = t.deps.db;
    const at = new Date("2026-11-26T09:00:00Z");
    expect(setAdminRole(db, { email: ` ${emailOf(o).toUpperCase()} `, admin: true, actor: "shell (root@host)", now: at })).toMatchObject({ outcome: "changed", role: "admin" });
    expect(setAdminRole(db, { email: emailOf(o), admin: true, actor: "shell (root@host)", now: at })).toMatchObject({ outcome: "unchanged" });
    expect(setAdminRole(db, { email: "nobody@example.com", admin: true, actor: "shell (root@host)", now: at })).toEqual({ outcome: "unknown" });
    turnOnTwoFactor(t, o.userId);
    passSecondFactor(t, o.userId);
    const res = await get("/api/admin/audit", o.cookie);
    expect(res.status).toBe(200);
    expect((await res.json()).entries).toEqual([
      {
        seq: expect.any(Number),
        at: at.toISOString(),
        actorId: null,
        actor: "shell (root@host)",
        action: "role.grant",
        targetType: "user",
        targetId: o.userId,
        targetLabel: emailOf(o),
        reason: "",
        before: { role: "owner" },
        after: { role: "admin" },
      },
    ]);
  });

  it("filters by action, actor, target and dates, pages newest first, and exports the same as CSV without formulas", async () => {
    const a = admin({ twoFactor: true });
    const db = t.deps.db;
    const base = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 0; i < 60; i++) {
      recordAdminAction(db, {
        at: new Date(base + i * 86_400_000),
        actorId: null,
        actor: i % 2 ? "shell (ops@box)" : "=HYPERLINK(\"x\")",
        action: i % 3 ? "role.grant" : "role.revoke",
        targetType: "user",
        targetId: `u${i}`,
        targetLabel: `person${i}@example.com`,
      });
    }
    const page = async (q: string) => (await (await get(`/api/admin/audit${q}`, a.cookie)).json()) as { entries: { targetId: string }[]; next: number | null };
    const first = await page("");
    expect(first.entries).toHaveLength(50);
    expect(first.entries[0]!.targetId).toBe("u59");
    const second = await page(`?before=${first.next}`);
    // 60 entries made here and the grant that made this admin.
    expect(second.entries.map((e) => e.targetId)).toEqual([...Array.from({ length: 10 }, (_, i) => `u${9 - i}`), a.userId]);
    expect(second.next).toBeNull();
    expect((await page("?action=role.revoke")).entries.every((e) => Number(e.targetId.slice(1)) % 3 === 0)).toBe(true);
    expect((await page("?actor=OPS@")).entries).toHaveLength(30);
    expect((await page("?target=person7@")).entries.map((e) => e.targetId)).toEqual(["u7"]);
    expect((await page("?target=u12")).entries.map((e) => e.targetId)).toEqual(["u12"]);
    expect((await page(`?from=2026-01-10T00:00:00Z&to=2026-01-12T00:00:00Z`)).entries.map((e) => e.targetId)).toEqual(["u10", "u9"]);

    const csv = await get("/api/admin/audit.csv?actor=HYPERLINK", a.cookie);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe('"When (UTC)","Actor","Action","Target type","Target id","Target","Reason","Before","After"');
    expect(lines).toHaveLength(31);
    for (const line of lines.slice(1)) expect(line).not.toMatch(/(^|,)"?[=+\-@]/);
  });

  it("refuses bad filters with a clear 400 and no 500", async () => {
    const a = admin({ twoFactor: true });
    for (const q of ["action=drop-table", "from=yesterday", "to=2026-13-01T00:00:00Z", "before=-1", "before=abc", `actor=${"x".repeat(300)}`, "target=a%00b", "from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z"]) {
      const res = await get(`/api/admin/audit?${q}`, a.cookie);
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
      expect((await res.json()).error.message).toMatch(/^(Please|The start date)/);
    }
  });

  it("cannot be changed or removed: the database refuses, and no code of the server writes anything but new rows", () => {
    const db = t.deps.db;
    const a = admin({ twoFactor: false });
    expect(() => db.update(adminAuditLog).set({ reason: "edited" }).run()).toThrow(/append-only/);
    expect(() => db.delete(adminAuditLog).run()).toThrow(/append-only/);
    // Deleting the admin's account keeps the record of what was done to it.
    db.delete(users).where(eq(users.id, a.userId)).run();
    expect(db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, a.userId)).all()).toHaveLength(1);
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith(".ts") ? [join(dir, f)] : []));
    for (const file of [...files(join(ROOT, "api")), ...files(join(ROOT, "scripts"))]) {
      expect({ file, writes: /\b(update|delete)\(adminAuditLog\)|(UPDATE|DELETE FROM)\s+`?admin_audit_log/i.test(readFileSync(file, "utf8")) }).toEqual({ file, writes: false });
    }
  });
});

describe("npm run admin", () => {
  const cli = async (...args: string[]) =>
    run(process.execPath, [await bundleForNode(join(ROOT, "scripts/admin.ts")), ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: join(t.dir, "data"), NODE_ENV: "test" } }).then(
      (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
    );
  const roleOf = (userId: string) => t.deps.db.select({ role: users.role }).from(users).where(eq(users.id, userId)).get()!.role;

  it("grants and revokes by e-mail, prints what changed, records the shell user, and refuses an unknown e-mail or bad usage", async () => {
    const o = createApiOwner(t, "plus");
    const granted = await cli("grant", emailOf(o));
    expect(granted).toMatchObject({ code: 0, out: expect.stringContaining(`${emailOf(o)} is now an admin.`) });
    expect(roleOf(o.userId)).toBe("admin");
    expect(await cli("grant", emailOf(o))).toMatchObject({ code: 0, out: expect.stringContaining("is already an admin. Nothing changed.") });

    const unknown = await cli("grant", "nobody@example.com");
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("No account has the e-mail address nobody@example.com. Nothing changed.");
    for (const bad of [["promote", emailOf(o)], ["grant", emailOf(o), "extra"]]) {
      const r = await cli(...bad);
      expect({ bad, code: r.code, err: r.err.trim() }).toEqual({ bad, code: 1, err: "Usage: npm run admin -- grant <email> | revoke <email>" });
    }

    expect(await cli("revoke", emailOf(o))).toMatchObject({ code: 0, out: expect.stringContaining(`${emailOf(o)} is no longer an admin.`) });
    expect(roleOf(o.userId)).toBe("owner");
    const record = t.deps.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, o.userId)).all();
    expect(record.map((r) => [r.action, r.actorId, r.actor.startsWith("shell (")])).toEqual([
      ["role.grant", null, true],
      ["role.revoke", null, true],
    ]);
    // Each run starts a Node process; on a busy machine that is slow, and nothing here depends on it.
  }, 180_000);
});
