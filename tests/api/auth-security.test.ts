import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { recordEvents } from "#api/services/analytics-store.ts";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#api/auth/password.ts";
import { createAccount, publishInitialPage } from "#api/services/accounts.ts";
import { totpAt } from "#api/services/two-factor.ts";
import { SUSPENSION_TEXTS } from "#core/admin.ts";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import { newId } from "#db/ids.ts";
import * as schema from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { browser, type Browser } from "#tests/support/auth-client.ts";
import { readOutbox } from "#tests/support/mail.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const PASSWORD = "Sturdy-Password-42";
let n = 0;

async function signedIn(opts: { password?: boolean } = {}) {
  n += 1;
  const username = `sec_${Date.now().toString(36)}${n}`;
  const email = `${username}@example.com`;
  const passwordHash = opts.password === false ? null : await hashPassword(PASSWORD);
  const { userId } = createAccount(t.deps.db, { email, username, passwordHash, emailVerified: true, googleSub: opts.password === false ? `g-${username}` : null, now: new Date() });
  const b = browser(t);
  if (passwordHash) expect((await b.json("POST", "/api/auth/login", { email, password: PASSWORD, rememberMe: true })).status).toBe(200);
  else {
    const { createSession, SESSION_COOKIE } = await import("#api/auth/session.ts");
    b.jar.set(SESSION_COOKIE, createSession(t.deps.db, userId, { persistent: true, now: new Date() }).token);
  }
  return { b, userId, username, email };
}

const twoFactorRow = (userId: string) => t.deps.db.select().from(schema.user2faSettings).where(eq(schema.user2faSettings.userId, userId)).get();

async function enableTwoFactor(b: Browser) {
  const secret = (await b.json("POST", "/api/auth/two-factor/setup", { password: PASSWORD })).body.secret as string;
  const enabled = await b.json("POST", "/api/auth/two-factor/enable", { code: totpAt(secret, new Date()) });
  expect(enabled.status).toBe(200);
  return { secret, backupCodes: enabled.body.backupCodes as string[] };
}

describe("two-factor setup", () => {
  it("asks for the password before it makes a secret, then shows a QR of the otpauth URI, and enables only after a valid code", async () => {
    const { b, userId, email } = await signedIn();
    expect((await b.json("GET", "/api/auth/two-factor")).body).toEqual({ enabled: false, pendingSetup: false, backupCodesLeft: 0 });
    // A session alone (a stolen one) gets nothing: no secret is made.
    expect(await b.json("POST", "/api/auth/two-factor/setup", {})).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.confirmPasswordRequired, fields: { password: AUTH_TEXT.confirmPasswordRequired } } } });
    expect(await b.json("POST", "/api/auth/two-factor/setup", { password: "Not-My-Password-1" })).toMatchObject({ status: 400, body: { error: { fields: { password: AUTH_TEXT.currentPasswordWrong } } } });
    expect(await b.json("POST", "/api/auth/two-factor/setup", { password: "x".repeat(300) })).toMatchObject({ status: 400 });
    expect(twoFactorRow(userId)).toBeUndefined();

    const setup = await b.json("POST", "/api/auth/two-factor/setup", { password: PASSWORD });
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.uri).toBe(
      `otpauth://totp/Plinth:${encodeURIComponent(email)}?issuer=Plinth&algorithm=SHA1&secret=${setup.body.secret}&period=30&digits=6`,
    );
    expect(Buffer.from(setup.body.qrDataUrl.replace("data:image/svg+xml;base64,", ""), "base64").toString()).toContain("<svg");
    expect((await b.json("GET", "/api/auth/two-factor")).body).toMatchObject({ enabled: false, pendingSetup: true });
    expect(twoFactorRow(userId)!.isEnabled).toBe(false);

    const right = totpAt(setup.body.secret, new Date());
    const wrong = ((Number(right) + 1) % 1_000_000).toString().padStart(6, "0");
    expect((await b.json("POST", "/api/auth/two-factor/enable", { code: "12345" })).body.error.message).toBe("A 2FA code must be exactly 6 characters to enable");
    expect((await b.json("POST", "/api/auth/two-factor/enable", { code: "1234567" })).body.error.message).toBe("A 2FA code must be exactly 6 characters to enable");
    expect((await b.json("POST", "/api/auth/two-factor/enable", { code: wrong })).body.error.message).toBe(AUTH_TEXT.codeInvalidRetry);
    expect(twoFactorRow(userId)!.isEnabled).toBe(false);

    const enabled = await b.json("POST", "/api/auth/two-factor/enable", { code: right });
    expect(enabled.status).toBe(200);
    const codes = enabled.body.backupCodes as string[];
    expect(codes).toHaveLength(8);
    expect(new Set(codes).size).toBe(8);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const row = twoFactorRow(userId)!;
    expect(row.isEnabled).toBe(true);
    expect(row.backupCodes).toHaveLength(8);
    for (const code of codes) expect(JSON.stringify(row.backupCodes)).not.toContain(code.replace("-", ""));
    expect((await b.json("GET", "/api/auth/two-factor")).body).toEqual({ enabled: true, pendingSetup: false, backupCodesLeft: 8 });
    expect((await b.json("POST", "/api/auth/two-factor/setup", { password: PASSWORD })).status).toBe(409);
  });

  it("wrong passwords count against the owner like failed sign-ins: 5, then 15 minutes", async () => {
    const { b, userId } = await signedIn();
    for (let i = 0; i < 5; i++) expect((await b.json("POST", "/api/auth/two-factor/setup", { password: `Wrong-Password-${i}!` })).status).toBe(400);
    const blocked = await b.json("POST", "/api/auth/two-factor/setup", { password: PASSWORD });
    expect(blocked).toMatchObject({ status: 429, body: { error: { message: AUTH_TEXT.throttled(15) } } });
    expect(twoFactorRow(userId)).toBeUndefined();
    // The same count guards the password change.
    expect((await b.json("POST", "/api/auth/password", { currentPassword: PASSWORD, newPassword: "Lanterns4Quiet8Otters", confirmPassword: "Lanterns4Quiet8Otters" })).status).toBe(429);
  });

  it("restarting setup replaces the secret, so a code for the old one fails", async () => {
    const { b } = await signedIn();
    const first = (await b.json("POST", "/api/auth/two-factor/setup", { password: PASSWORD })).body.secret;
    const second = (await b.json("POST", "/api/auth/two-factor/setup", { password: PASSWORD })).body.secret;
    expect(second).not.toBe(first);
    const oldCode = totpAt(first, new Date());
    if (oldCode !== totpAt(second, new Date()) && oldCode !== totpAt(second, new Date(), -1) && oldCode !== totpAt(second, new Date(), 1)) {
      expect((await b.json("POST", "/api/auth/two-factor/enable", { code: oldCode })).status).toBe(400);
    }
    expect((await b.json("POST", "/api/auth/two-factor/enable", { code: totpAt(second, new Date()) })).status).toBe(200);
  });

  it("enable needs a setup first, begun within the last 30 minutes", async () => {
    const { b, userId } = await signedIn();
    expect((await b.json("POST", "/api/auth/two-factor/enable", { code: "123456" })).body.error.message).toBe(AUTH_TEXT.twoFactorNotPending);
    const secret = (await b.json("POST", "/api/auth/two-factor/setup", { password: PASSWORD })).body.secret;
    // The setup was begun 31 minutes ago (its row says so): the password proof is too old.
    t.deps.db.update(schema.user2faSettings).set({ updatedAt: new Date(Date.now() - 31 * 60_000) }).where(eq(schema.user2faSettings.userId, userId)).run();
    expect((await b.json("GET", "/api/auth/two-factor")).body.pendingSetup).toBe(false);
    expect((await b.json("POST", "/api/auth/two-factor/enable", { code: totpAt(secret, new Date()) })).body.error.message).toBe(AUTH_TEXT.twoFactorNotPending);
    expect(twoFactorRow(userId)!.isEnabled).toBe(false);
  });

  it("turning it off needs the password and a code; either wrong changes nothing and uses no code up", async () => {
    const { b, userId, email } = await signedIn();
    const { secret, backupCodes } = await enableTwoFactor(b);
    const wrongTotp = "000000" === totpAt(secret, new Date(), 1) ? "111111" : "000000";
    expect((await b.json("POST", "/api/auth/two-factor/disable", { code: backupCodes[0] })).body.error).toMatchObject({ fields: { password: AUTH_TEXT.confirmPasswordRequired } });
    expect((await b.json("POST", "/api/auth/two-factor/disable", { password: "Not-My-Password-1", code: backupCodes[0] })).body.error).toMatchObject({ fields: { password: AUTH_TEXT.currentPasswordWrong } });
    expect((await b.json("POST", "/api/auth/two-factor/disable", { password: PASSWORD, code: wrongTotp })).body.error).toMatchObject({ fields: { code: AUTH_TEXT.codeInvalidRetry } });
    expect((await b.json("POST", "/api/auth/two-factor/disable", { password: PASSWORD })).status).toBe(400);
    expect((await b.json("POST", "/api/auth/two-factor/disable", { password: PASSWORD, code: "<script>" })).status).toBe(400);
    expect(twoFactorRow(userId)).toMatchObject({ isEnabled: true });
    expect(twoFactorRow(userId)!.backupCodes).toHaveLength(8);

    const off = await b.json("POST", "/api/auth/two-factor/disable", { password: PASSWORD, code: backupCodes[3] });
    expect(off).toEqual({ status: 200, body: { enabled: false, pendingSetup: false, backupCodesLeft: 0 } });
    expect(twoFactorRow(userId)).toMatchObject({ isEnabled: false, secretKey: null, backupCodes: [] });
    expect((await b.json("POST", "/api/auth/two-factor/disable", { password: PASSWORD, code: backupCodes[4] })).status).toBe(409);
    expect(readOutbox(t.deps.env.OUTBOX_DIR).filter((m) => m.to === email).map((m) => m.subject)).toContain("Two-factor authentication was turned off");
  });

  it("new backup codes need the password and a code; the old set stops working at once", async () => {
    const { b, userId, email } = await signedIn();
    const { secret, backupCodes: old } = await enableTwoFactor(b);
    expect((await b.json("POST", "/api/auth/two-factor/backup-codes", { code: old[0] })).status).toBe(400);
    expect((await b.json("POST", "/api/auth/two-factor/backup-codes", { password: "Not-My-Password-1", code: old[0] })).status).toBe(400);
    expect((await b.json("POST", "/api/auth/two-factor/backup-codes", { password: PASSWORD, code: "222222" === totpAt(secret, new Date(), 1) ? "333333" : "222222" })).status).toBe(400);
    expect(twoFactorRow(userId)!.backupCodes).toHaveLength(8);

    const renewed = await b.json("POST", "/api/auth/two-factor/backup-codes", { password: PASSWORD, code: totpAt(secret, new Date(), 1) });
    expect(renewed.status).toBe(200);
    const fresh = renewed.body.backupCodes as string[];
    expect(fresh).toHaveLength(8);
    for (const code of fresh) expect(old).not.toContain(code);
    expect((await b.json("GET", "/api/auth/two-factor")).body).toEqual({ enabled: true, pendingSetup: false, backupCodesLeft: 8 });
    expect(readOutbox(t.deps.env.OUTBOX_DIR).filter((m) => m.to === email).map((m) => m.subject)).toContain("New two-factor backup codes were made");

    // At sign-in: an old code is refused, a new one works.
    const phone = browser(t);
    expect((await phone.json("POST", "/api/auth/login", { email, password: PASSWORD })).body).toEqual({ status: "two_factor" });
    expect((await phone.json("POST", "/api/auth/login/two-factor", { code: old[1] })).status).toBe(400);
    expect((await phone.json("POST", "/api/auth/login/two-factor", { code: fresh[0] })).status).toBe(200);
    // Two-factor off: nothing to renew.
    await b.json("POST", "/api/auth/two-factor/disable", { password: PASSWORD, code: fresh[1] });
    expect((await b.json("POST", "/api/auth/two-factor/backup-codes", { password: PASSWORD, code: fresh[2] })).status).toBe(409);
  });

  it("the second step of an account suspended since the first is refused with the suspension message, makes no session and uses no code", async () => {
    const { b, userId, email } = await signedIn();
    const { backupCodes } = await enableTwoFactor(b);
    const phone = browser(t);
    expect((await phone.json("POST", "/api/auth/login", { email, password: PASSWORD })).body).toEqual({ status: "two_factor" });
    t.deps.db.update(schema.users).set({ suspendedAt: new Date(), suspensionReason: "Fraud" }).where(eq(schema.users.id, userId)).run();
    t.deps.db.delete(schema.sessions).where(eq(schema.sessions.userId, userId)).run();

    expect(await phone.json("POST", "/api/auth/login/two-factor", { code: backupCodes[0] })).toMatchObject({ status: 403, body: { error: { message: SUSPENSION_TEXTS.signInRefused } } });
    expect(phone.cookie("plinth_session")).toBeUndefined();
    expect(t.deps.db.select().from(schema.sessions).where(eq(schema.sessions.userId, userId)).all()).toHaveLength(0);
    expect(twoFactorRow(userId)!.backupCodes).toHaveLength(8);
    // A new first step is refused the same way.
    expect(await browser(t).json("POST", "/api/auth/login", { email, password: PASSWORD })).toMatchObject({ status: 403, body: { error: { message: SUSPENSION_TEXTS.signInRefused } } });
  });

  it("a Google-only account needs a sign-in of the last 10 minutes instead of a password", async () => {
    const { b, userId } = await signedIn({ password: false });
    const sessionId = b.cookie("plinth_session")!.split(".")[0]!;
    const age = (minutes: number) => t.deps.db.update(schema.sessions).set({ createdAt: new Date(Date.now() - minutes * 60_000) }).where(eq(schema.sessions.id, sessionId)).run();
    age(11);
    const stale = await b.json("POST", "/api/auth/two-factor/setup", {});
    expect(stale).toMatchObject({ status: 403, body: { error: { message: AUTH_TEXT.freshSignInRequired, details: { reason: "fresh_sign_in" } } } });
    expect(twoFactorRow(userId)).toBeUndefined();
    age(9);
    const secret = (await b.json("POST", "/api/auth/two-factor/setup", {})).body.secret as string;
    const { backupCodes } = (await b.json("POST", "/api/auth/two-factor/enable", { code: totpAt(secret, new Date()) })).body;
    age(11);
    for (const path of ["/api/auth/two-factor/disable", "/api/auth/two-factor/backup-codes"]) {
      expect((await b.json("POST", path, { code: backupCodes[0] })).status, path).toBe(403);
    }
    expect(twoFactorRow(userId)).toMatchObject({ isEnabled: true });
    expect(twoFactorRow(userId)!.backupCodes).toHaveLength(8);
    age(1);
    expect((await b.json("POST", "/api/auth/two-factor/disable", { code: backupCodes[0] })).body).toMatchObject({ enabled: false });
  });

  it("is the signed-in owner's only", async () => {
    const anon = browser(t);
    for (const [method, path] of [
      ["GET", "/api/auth/two-factor"],
      ["POST", "/api/auth/two-factor/setup"],
      ["POST", "/api/auth/two-factor/enable"],
      ["POST", "/api/auth/two-factor/disable"],
      ["POST", "/api/auth/two-factor/backup-codes"],
      ["GET", "/api/auth/sessions"],
      ["POST", "/api/auth/sessions/revoke-others"],
      ["GET", "/api/auth/account"],
      ["DELETE", "/api/auth/account"],
    ] as const) {
      expect((await anon.call(method, path, method === "GET" ? undefined : { code: "123456", password: PASSWORD })).status, path).toBe(401);
    }
  });
});

describe("sessions", () => {
  it("lists the owner's sessions with this one marked, and signs out everywhere else", async () => {
    const { b, email } = await signedIn();
    const phone = browser(t);
    await phone.call("POST", "/api/auth/login", { email, password: PASSWORD }, { "User-Agent": "Mozilla/5.0 (iPhone)" });
    const list = (await b.json("GET", "/api/auth/sessions")).body.sessions as { current: boolean; userAgent: string | null }[];
    expect(list).toHaveLength(2);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.some((s) => s.userAgent === "Mozilla/5.0 (iPhone)")).toBe(true);

    expect((await b.json("POST", "/api/auth/sessions/revoke-others")).body).toEqual({ ended: 1 });
    expect((await phone.json("GET", "/api/me")).status).toBe(401);
    expect((await b.json("GET", "/api/me")).status).toBe(200);
    expect((await b.json("GET", "/api/auth/sessions")).body.sessions).toHaveLength(1);
  });

  it("signs out one other session, never another owner's", async () => {
    const { b, email } = await signedIn();
    const stranger = await signedIn();
    const other = browser(t);
    await other.json("POST", "/api/auth/login", { email, password: PASSWORD });
    const mine = (await b.json("GET", "/api/auth/sessions")).body.sessions as { id: string; current: boolean }[];
    const theirs = (await stranger.b.json("GET", "/api/auth/sessions")).body.sessions as { id: string }[];
    expect((await b.json("DELETE", `/api/auth/sessions/${theirs[0]!.id}`)).status).toBe(404);
    expect((await stranger.b.json("GET", "/api/me")).status).toBe(200);
    expect((await b.json("DELETE", `/api/auth/sessions/${mine.find((s) => s.current)!.id}`)).status).toBe(400);
    expect((await b.json("DELETE", `/api/auth/sessions/${mine.find((s) => !s.current)!.id}`)).body).toEqual({ ended: 1 });
    expect((await other.json("GET", "/api/me")).status).toBe(401);
    expect((await b.json("DELETE", "/api/auth/sessions/%3Cscript%3E")).status).toBe(404);
  });
});

describe("the account", () => {
  it("shows the e-mail and username", async () => {
    const { b, email, username } = await signedIn();
    expect((await b.json("GET", "/api/auth/account")).body).toMatchObject({ email, username, hasPassword: true, googleLinked: false });
  });

  it("deletion needs the right password and then removes every row and published file of the owner", async () => {
    const { b, userId, username, email } = await signedIn();
    const bystander = await signedIn();
    const db = t.deps.db;
    const { PUBLISHED_DIR: published, PUBLIC_ORIGIN: origin } = t.deps.env;
    db.insert(schema.links).values({ id: newId(), userId, title: "Mine", url: "https://example.org" }).run();
    db.insert(schema.socialLinks).values({ id: newId(), userId, platform: "github", url: "https://github.com/me" }).run();
    db.insert(schema.upgradeRequests).values({ id: newId(), userId, featureKey: "scheduling" }).run();
    recordEvents(db, [{ userId, kind: "page_view", device: "mobile", occurredAt: new Date() }]);
    db.insert(schema.collectedLeads).values({ id: newId(), userId, linkTitle: "x", email: "lead@example.com" }).run();
    db.insert(schema.passwordResetTokens).values({ id: newId(), userId, expiresAt: new Date(Date.now() + 60_000) }).run();
    db.insert(schema.uploads).values({ id: newId(), userId, kind: "profile_picture", storageKey: "media/ab/mine.jpg", contentType: "image/jpeg", bytes: 3 }).run();
    mkdirSync(join(published, "media", "ab"), { recursive: true });
    writeFileSync(join(published, "media", "ab", "mine.jpg"), "jpg");
    publishInitialPage(db, userId, { publishedDir: published, origin, now: new Date() });
    publishInitialPage(db, bystander.userId, { publishedDir: published, origin, now: new Date() });
    expect(existsSync(join(published, username, "index.html"))).toBe(true);
    expect(readFileSync(join(published, "sitemap.xml"), "utf8")).toContain(`/${username}<`);

    const wrong = await b.json("DELETE", "/api/auth/account", { password: "Not-My-Password-1" });
    expect(wrong).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.currentPasswordWrong } } });
    expect((await b.json("DELETE", "/api/auth/account", {})).body.error.message).toBe(AUTH_TEXT.confirmPasswordRequired);
    expect(existsSync(join(published, username, "index.html"))).toBe(true);
    expect(db.select().from(schema.users).where(eq(schema.users.id, userId)).get()).toBeTruthy();

    expect(await b.json("DELETE", "/api/auth/account", { password: PASSWORD })).toEqual({ status: 200, body: { deleted: true } });
    expect(b.cookie("plinth_session")).toBeUndefined();
    for (const table of [
      schema.users,
      schema.userProfiles,
      schema.sessions,
      schema.links,
      schema.socialLinks,
      schema.upgradeRequests,
      schema.analyticsEvents,
      schema.analyticsRollups,
      schema.collectedLeads,
      schema.passwordResetTokens,
      schema.uploads,
      schema.pageVersions,
    ]) {
      const rows = db.select().from(table).all() as { userId?: string; id?: string }[];
      expect(rows.filter((r) => (r.userId ?? r.id) === userId), JSON.stringify(rows).slice(0, 100)).toHaveLength(0);
    }
    expect(existsSync(join(published, username))).toBe(false);
    expect(existsSync(join(published, "media", "ab", "mine.jpg"))).toBe(false);
    expect(readFileSync(join(published, "sitemap.xml"), "utf8")).not.toContain(`/${username}<`);
    expect(existsSync(join(published, bystander.username, "index.html"))).toBe(true);
    expect((await bystander.b.json("GET", "/api/me")).status).toBe(200);
    expect((await browser(t).json("POST", "/api/auth/login", { email, password: PASSWORD })).status).toBe(401);
    expect(((await (await t.app.request(`/api/auth/username-availability?username=${username}`)).json()) as { available: boolean }).available).toBe(true);
  });

  it("a Google-only account confirms deletion with its username", async () => {
    const { b, username, userId } = await signedIn({ password: false });
    expect((await b.json("GET", "/api/auth/account")).body).toMatchObject({ hasPassword: false, googleLinked: true });
    expect((await b.json("DELETE", "/api/auth/account", { confirmUsername: "someone_else" })).body.error.message).toBe(AUTH_TEXT.deleteUsernameMismatch);
    expect((await b.json("DELETE", "/api/auth/account", { confirmUsername: username.toUpperCase() })).status).toBe(200);
    expect(t.deps.db.select().from(schema.users).where(eq(schema.users.id, userId)).get()).toBeUndefined();
  });

  it("refuses a cross-origin deletion", async () => {
    const { b, userId } = await signedIn();
    const res = await t.app.request("/api/auth/account", {
      method: "DELETE",
      headers: { "Content-Type": "application/json", Cookie: `plinth_session=${b.cookie("plinth_session")}`, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(res.status).toBe(403);
    expect(t.deps.db.select().from(schema.users).where(eq(schema.users.id, userId)).get()).toBeTruthy();
  });
});
