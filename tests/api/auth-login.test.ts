import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#api/auth/password.ts";
import { createAccount } from "#api/services/accounts.ts";
import { totpAt } from "#api/services/two-factor.ts";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import { authThrottle, emailVerificationCodes, sessions, user2faSettings, users } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { browser, type Browser } from "#tests/support/auth-client.ts";
import { lastMailTo, linkIn } from "#tests/support/mail.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const PASSWORD = "Sturdy-Password-42";
let n = 0;

async function account(opts: { verified?: boolean } = {}) {
  n += 1;
  const username = `login_${Date.now().toString(36)}${n}`;
  const email = `${username}@example.com`;
  const { userId } = createAccount(t.deps.db, { email, username, passwordHash: await hashPassword(PASSWORD), emailVerified: opts.verified ?? true, now: new Date() });
  return { userId, username, email };
}

const login = (b: Browser, email: string, password = PASSWORD, rememberMe = false) => b.json("POST", "/api/auth/login", { email, password, rememberMe });

function setCookieLines(res: Response) {
  return res.headers.getSetCookie();
}

describe("POST /api/auth/login", () => {
  it("signs in with a new session whose token is stored only hashed", async () => {
    const a = await account();
    const b = browser(t);
    const res = await b.call("POST", "/api/auth/login", { email: a.email, password: PASSWORD, rememberMe: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "signed_in" });
    const token = b.cookie("plinth_session")!;
    const [id, secret] = token.split(".");
    expect(secret!.length).toBeGreaterThanOrEqual(32);
    const row = t.deps.db.select().from(sessions).where(eq(sessions.id, id!)).get()!;
    expect(row.secretHash).not.toContain(secret);
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await b.json("GET", "/api/me")).status).toBe(200);
  });

  it("sets HttpOnly, SameSite=Lax, Path=/ cookies; with Remember me they last 30 days, without they end with the browser", async () => {
    const a = await account();
    const remembered = setCookieLines(await browser(t).call("POST", "/api/auth/login", { email: a.email, password: PASSWORD, rememberMe: true }));
    const session = remembered.find((l) => l.startsWith("plinth_session="))!;
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).toMatch(/Path=\//);
    expect(session).not.toMatch(/Secure/);
    const expires = Date.parse(/Expires=([^;]+)/.exec(session)![1]!);
    expect(Math.round((expires - Date.now()) / 86_400_000)).toBe(30);
    expect(remembered.find((l) => l.startsWith("plinth_signed_in=1"))).not.toMatch(/HttpOnly/);

    const forgotten = setCookieLines(await browser(t).call("POST", "/api/auth/login", { email: a.email, password: PASSWORD, rememberMe: false }));
    const browserSession = forgotten.find((l) => l.startsWith("plinth_session="))!;
    expect(browserSession).not.toMatch(/Expires|Max-Age/i);
    expect(forgotten.find((l) => l.startsWith("plinth_signed_in="))).not.toMatch(/Expires|Max-Age/i);
  });

  it("marks cookies Secure when served over https", async () => {
    const secureApp = createTestApp({ PUBLIC_ORIGIN: "https://plinth.example" });
    try {
      const email = "secure@example.com";
      createAccount(secureApp.deps.db, { email, username: "secure_one", passwordHash: await hashPassword(PASSWORD), emailVerified: true, now: new Date() });
      const res = await secureApp.app.request("/api/auth/login", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "https://plinth.example" },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().find((l) => l.startsWith("__Host-plinth_session="))).toMatch(/Secure/);
    } finally {
      secureApp.close();
    }
  });

  it("starts a new session at every sign-in and ends the one the browser came with", async () => {
    const a = await account();
    const b = browser(t);
    await login(b, a.email);
    const first = b.cookie("plinth_session")!;
    await login(b, a.email);
    const second = b.cookie("plinth_session")!;
    expect(second).not.toBe(first);
    expect(t.deps.db.select().from(sessions).where(eq(sessions.id, first.split(".")[0]!)).get()).toBeUndefined();
  });

  it("answers a wrong password and an unknown e-mail alike", async () => {
    const a = await account();
    const wrong = await login(browser(t), a.email, "Wrong-Password-99");
    const unknown = await login(browser(t), "nobody-here@example.com", "Wrong-Password-99");
    expect(wrong).toEqual({ status: 401, body: { error: { code: "unauthorized", message: "Invalid email or password" } } });
    expect(unknown).toEqual(wrong);
    const googleOnly = "google-only@example.com";
    createAccount(t.deps.db, { email: googleOnly, username: "google_only", passwordHash: null, emailVerified: true, googleSub: "sub-1", now: new Date() });
    expect(await login(browser(t), googleOnly, "")).toMatchObject({ status: 400 });
    expect(await login(browser(t), googleOnly, "Anything-at-all-1")).toEqual(wrong);
  });

  it("rejects a right-length wrong password in a session token (constant-time check, not a prefix check)", async () => {
    const a = await account();
    const b = browser(t);
    await login(b, a.email);
    const [id, secret] = b.cookie("plinth_session")!.split(".");
    const flipped = `${secret!.slice(0, -1)}${secret!.endsWith("a") ? "b" : "a"}`;
    b.jar.set("plinth_session", `${id}.${flipped}`);
    expect((await b.json("GET", "/api/me")).status).toBe(401);
    expect(b.cookie("plinth_session")).toBeUndefined();
  });

  it("sanitises the e-mail as docs/product.md says (scripts, tags, javascript:, handlers), then signs in", async () => {
    const a = await account();
    for (const typed of [
      `<script>alert(1)</script>${a.email}`,
      `  <b>${a.email}</b> `,
      `javascript:${a.email}`,
      `<img src=x onerror=alert(1)>${a.email}`,
      a.email.toUpperCase(),
    ]) {
      expect((await login(browser(t), typed)).status, typed).toBe(200);
    }
  });

  it("validates the form with docs/product.md's messages and bounds", async () => {
    const b = browser(t);
    expect((await b.json("POST", "/api/auth/login", { email: "", password: "x" })).body.error.message).toBe(AUTH_TEXT.emailRequired);
    expect((await b.json("POST", "/api/auth/login", { email: "not-an-email", password: "x" })).body.error.message).toBe(AUTH_TEXT.emailInvalid);
    expect((await b.json("POST", "/api/auth/login", { email: "a@example.com", password: "" })).body.error.message).toBe(AUTH_TEXT.passwordRequired);
    expect((await b.json("POST", "/api/auth/login", { email: "a@example.com", password: "x".repeat(300) })).status).toBe(400);
    expect((await b.json("POST", "/api/auth/login", { email: "a@example.com", password: { $gt: "" } })).status).toBe(400);
    expect((await b.json("POST", "/api/auth/login", { email: "a@example.com", password: "x", rememberMe: "yes" })).status).toBe(400);
    expect(t.deps.db.select().from(sessions).all()).toHaveLength(0);
  });

  it("refuses a cross-origin sign-in", async () => {
    const a = await account();
    const res = await t.app.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: JSON.stringify({ email: a.email, password: PASSWORD }),
    });
    expect(res.status).toBe(403);
    expect(t.deps.db.select().from(sessions).all()).toHaveLength(0);
  });
});

describe("the sign-in throttle", () => {
  it("blocks an e-mail for 15 minutes after 5 failures, even with the right password, then lets it try again", async () => {
    const a = await account();
    const b = browser(t);
    for (let i = 0; i < 5; i++) expect((await login(b, a.email, "Wrong-Password-99")).body.error.message).toBe("Invalid email or password");
    const blocked = await b.call("POST", "/api/auth/login", { email: a.email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as any).error.message).toBe("Too many attempts. Please try again in 15 minutes.");
    expect(blocked.headers.get("Retry-After")).toBe("900");

    // Ten minutes later: 5 minutes left.
    t.deps.db.update(authThrottle).set({ lastAttemptAt: new Date(Date.now() - 10 * 60_000) }).where(eq(authThrottle.subject, `email:${a.email}`)).run();
    expect((await login(b, a.email)).body.error.message).toBe("Too many attempts. Please try again in 5 minutes.");

    t.deps.db.update(authThrottle).set({ lastAttemptAt: new Date(Date.now() - 15 * 60_000) }).run();
    expect((await login(b, a.email)).status).toBe(200);
  });

  it("counts per e-mail: another account is not blocked, and a success resets the count", async () => {
    const a = await account();
    const other = await account();
    for (let i = 0; i < 4; i++) await login(browser(t), a.email, "Wrong-Password-99");
    expect((await login(browser(t), a.email)).status).toBe(200);
    for (let i = 0; i < 4; i++) await login(browser(t), a.email, "Wrong-Password-99");
    expect((await login(browser(t), a.email)).status).toBe(200);
    for (let i = 0; i < 5; i++) await login(browser(t), a.email, "Wrong-Password-99");
    expect((await login(browser(t), other.email)).status).toBe(200);
  });

  it("applies to unknown e-mails too, so it reveals nothing", async () => {
    for (let i = 0; i < 5; i++) await login(browser(t), "ghost@example.com", "Wrong-Password-99");
    expect((await login(browser(t), "ghost@example.com", "Wrong-Password-99")).status).toBe(429);
  });

  it("limits failures per client address across e-mails", async () => {
    for (let i = 0; i < 50; i++) await login(browser(t), `spray${i}@example.com`, "Wrong-Password-99");
    const a = await account();
    expect((await login(browser(t), a.email)).body.error.message).toBe("Too many attempts. Please try again in 15 minutes.");
  });

  it("cannot be raced: parallel guesses beyond the limit are refused", async () => {
    const a = await account();
    const statuses = (await Promise.all(Array.from({ length: 12 }, () => login(browser(t), a.email, "Wrong-Password-99")))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7);
  });
});

describe("unverified e-mail", () => {
  it("gives docs/product.md's message after a right password, and Resend Verification sends a working single-use link", async () => {
    const a = await account({ verified: false });
    const b = browser(t);
    const res = await login(b, a.email);
    expect(res).toEqual({
      status: 403,
      body: { error: { code: "forbidden", message: AUTH_TEXT.unverifiedTitle, details: { reason: "email_unverified", description: AUTH_TEXT.unverifiedText } } },
    });
    expect(b.cookie("plinth_session")).toBeUndefined();
    // A wrong password still gets the generic answer: the state is revealed only to the owner.
    expect((await login(b, a.email, "Wrong-Password-99")).status).toBe(401);

    expect(await b.json("POST", "/api/auth/resend-verification", { email: a.email })).toEqual({ status: 200, body: { message: "Verification email sent!" } });
    const link = linkIn(lastMailTo(t.deps.env.OUTBOX_DIR, a.email)!, "/auth/verify-email?token=");
    const token = new URL(link).searchParams.get("token")!;
    expect(JSON.stringify(t.deps.db.select().from(emailVerificationCodes).all())).not.toContain(token);
    expect(await b.json("POST", "/api/auth/verify-email", { token })).toEqual({ status: 200, body: { message: AUTH_TEXT.emailVerified } });
    expect((await b.json("POST", "/api/auth/verify-email", { token })).body.error.message).toBe(AUTH_TEXT.verifyLinkInvalid);
    expect((await login(b, a.email)).status).toBe(200);
  });

  it("answers resend the same for unknown and verified addresses, and sends at most one link a minute", async () => {
    const verified = await account();
    const unverified = await account({ verified: false });
    for (const email of ["nobody@example.com", verified.email, unverified.email, unverified.email]) {
      expect((await browser(t).json("POST", "/api/auth/resend-verification", { email })).body).toEqual({ message: "Verification email sent!" });
    }
    expect(t.outbox()).toHaveLength(1);
  });

  it("refuses bad and expired links", async () => {
    const a = await account({ verified: false });
    const b = browser(t);
    for (const token of ["", "short", "A".repeat(32), "<script>", "a".repeat(32)]) {
      expect((await b.json("POST", "/api/auth/verify-email", { token })).status, token).toBe(400);
    }
    await b.json("POST", "/api/auth/resend-verification", { email: a.email });
    const token = new URL(linkIn(lastMailTo(t.deps.env.OUTBOX_DIR, a.email)!, "/auth/verify-email")).searchParams.get("token")!;
    t.deps.db.update(emailVerificationCodes).set({ expiresAt: new Date(Date.now() - 1) }).run();
    expect((await b.json("POST", "/api/auth/verify-email", { token })).status).toBe(400);
    expect(t.deps.db.select().from(users).where(eq(users.id, a.userId)).get()!.emailVerified).toBe(false);
  });
});

describe("sign out", () => {
  it("ends the session and clears both cookies", async () => {
    const a = await account();
    const b = browser(t);
    await login(b, a.email);
    const token = b.cookie("plinth_session")!;
    expect((await b.json("POST", "/api/auth/logout")).body).toEqual({ signedOut: true });
    expect(b.cookie("plinth_session")).toBeUndefined();
    expect(b.cookie("plinth_signed_in")).toBeUndefined();
    b.jar.set("plinth_session", token);
    expect((await b.json("GET", "/api/me")).status).toBe(401);
    expect((await b.json("GET", "/api/auth/session")).body).toEqual({ signedIn: false });
  });

  it("clears a stale signed-in hint", async () => {
    const b = browser(t);
    b.jar.set("plinth_signed_in", "1");
    await b.call("GET", "/api/auth/session");
    expect(b.cookie("plinth_signed_in")).toBeUndefined();
  });
});

describe("two-factor at sign-in", () => {
  async function withTwoFactor() {
    const a = await account();
    const b = browser(t);
    await login(b, a.email);
    const setup = await b.json("POST", "/api/auth/two-factor/setup", { password: PASSWORD });
    const enable = await b.json("POST", "/api/auth/two-factor/enable", { code: totpAt(setup.body.secret, new Date()) });
    expect(enable.status).toBe(200);
    await b.json("POST", "/api/auth/logout");
    return { ...a, secret: setup.body.secret as string, backupCodes: enable.body.backupCodes as string[] };
  }

  it("asks for the second factor and gives no session until it is right", async () => {
    const a = await withTwoFactor();
    const b = browser(t);
    expect((await login(b, a.email)).body).toEqual({ status: "two_factor" });
    expect(b.cookie("plinth_session")).toBeUndefined();
    expect((await b.json("GET", "/api/me")).status).toBe(401);

    const right = totpAt(a.secret, new Date(), 1);
    const wrong = ((Number(right) + 1) % 1_000_000).toString().padStart(6, "0");
    expect((await b.json("POST", "/api/auth/login/two-factor", { code: wrong })).body.error.message).toBe(AUTH_TEXT.codeInvalidRetry);
    expect(await b.json("POST", "/api/auth/login/two-factor", { code: right })).toEqual({ status: 200, body: { status: "signed_in", used: "totp" } });
    expect((await b.json("GET", "/api/me")).status).toBe(200);

    // The same code (time step) never works twice.
    const again = browser(t);
    await login(again, a.email);
    expect((await again.json("POST", "/api/auth/login/two-factor", { code: right })).status).toBe(400);
  });

  it("accepts a backup code once", async () => {
    const a = await withTwoFactor();
    const b = browser(t);
    await login(b, a.email);
    expect((await b.json("POST", "/api/auth/login/two-factor", { code: a.backupCodes[0]!.toUpperCase() })).body).toEqual({ status: "signed_in", used: "backup" });
    const c = browser(t);
    await login(c, a.email);
    expect((await c.json("POST", "/api/auth/login/two-factor", { code: a.backupCodes[0] })).status).toBe(400);
    expect((await c.json("POST", "/api/auth/login/two-factor", { code: a.backupCodes[1]!.replace("-", "") })).status).toBe(200);
    expect(t.deps.db.select().from(user2faSettings).where(eq(user2faSettings.userId, a.userId)).get()!.backupCodes).toHaveLength(6);
  });

  it("needs the password step first, and throttles wrong codes", async () => {
    const a = await withTwoFactor();
    expect((await browser(t).json("POST", "/api/auth/login/two-factor", { code: "123456" })).body.error.message).toBe(AUTH_TEXT.twoFactorExpired);
    const b = browser(t);
    await login(b, a.email);
    const right = totpAt(a.secret, new Date(), 1);
    const wrong = ((Number(right) + 500_000) % 1_000_000).toString().padStart(6, "0");
    for (let i = 0; i < 5; i++) expect((await b.json("POST", "/api/auth/login/two-factor", { code: wrong })).status).toBe(400);
    expect((await b.json("POST", "/api/auth/login/two-factor", { code: right })).body.error.message).toBe("Too many attempts. Please try again in 15 minutes.");
  });

  it("keeps Remember me across the second step", async () => {
    const a = await withTwoFactor();
    const b = browser(t);
    await b.json("POST", "/api/auth/login", { email: a.email, password: PASSWORD, rememberMe: true });
    const res = await b.call("POST", "/api/auth/login/two-factor", { code: totpAt(a.secret, new Date(), 1) });
    expect(res.headers.getSetCookie().find((l) => l.startsWith("plinth_session="))).toMatch(/Expires=/);
  });
});
