import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { hashPassword } from "#api/auth/password.ts";
import { createAccount } from "#api/services/accounts.ts";
import { SUSPENSION_TEXTS } from "#core/admin.ts";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import { passwordResetTokens, sessions, users } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { browser, type Browser } from "#tests/support/auth-client.ts";
import { lastMailTo, linkIn, mailsTo } from "#tests/support/mail.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const PASSWORD = "Sturdy-Password-42";
const NEW_PASSWORD = "Brand-New-Secret-77";
let n = 0;

async function account() {
  n += 1;
  const username = `reset_${Date.now().toString(36)}${n}`;
  const email = `${username}@example.com`;
  const { userId } = createAccount(t.deps.db, { email, username, passwordHash: await hashPassword(PASSWORD), emailVerified: true, now: new Date() });
  return { userId, username, email };
}

const login = (b: Browser, email: string, password = PASSWORD) => b.json("POST", "/api/auth/login", { email, password });

/** The reset mail is sent after the answer (so its timing reveals nothing): wait for it. */
async function resetToken(email: string, count = 1): Promise<string> {
  await vi.waitFor(() => expect(mailsTo(t.deps.env.OUTBOX_DIR, email)).toHaveLength(count));
  const mail = lastMailTo(t.deps.env.OUTBOX_DIR, email)!;
  expect(mail.subject).toBe("Reset your Plinth password");
  return new URL(linkIn(mail, "/auth/update-password?token=")).searchParams.get("token")!;
}

describe("forgot password", () => {
  it("answers the same whether or not the account exists, and mails only a real one", async () => {
    const a = await account();
    const known = await browser(t).json("POST", "/api/auth/forgot-password", { email: a.email });
    const unknown = await browser(t).json("POST", "/api/auth/forgot-password", { email: "nobody@example.com" });
    expect(known).toEqual({ status: 200, body: { message: "Password reset email sent!" } });
    expect(unknown).toEqual(known);
    const token = await resetToken(a.email);
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    expect(mailsTo(t.deps.env.OUTBOX_DIR, "nobody@example.com")).toHaveLength(0);
    const row = t.deps.db.select().from(passwordResetTokens).get()!;
    expect(row.id).not.toBe(token);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(3_600_000);
  });

  it("sets the new password, ends every session, does not sign in, and the link works once", async () => {
    const a = await account();
    const laptop = browser(t);
    const phone = browser(t);
    await login(laptop, a.email);
    await login(phone, a.email);
    expect(t.deps.db.select().from(sessions).all()).toHaveLength(2);

    const b = browser(t);
    await b.json("POST", "/api/auth/forgot-password", { email: a.email });
    const token = await resetToken(a.email);
    expect(await b.json("GET", `/api/auth/reset-password?token=${token}`)).toEqual({ status: 200, body: { valid: true } });
    const res = await b.json("POST", "/api/auth/reset-password", { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(res).toEqual({ status: 200, body: { message: AUTH_TEXT.passwordUpdated } });

    expect(t.deps.db.select().from(sessions).all()).toHaveLength(0);
    expect(b.cookie("plinth_session")).toBeUndefined();
    expect((await laptop.json("GET", "/api/me")).status).toBe(401);
    expect((await phone.json("GET", "/api/me")).status).toBe(401);

    expect((await login(browser(t), a.email)).status).toBe(401);
    expect((await login(browser(t), a.email, NEW_PASSWORD)).status).toBe(200);

    const replay = await b.json("POST", "/api/auth/reset-password", { token, password: "Another-One-88!", confirmPassword: "Another-One-88!" });
    expect(replay).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.resetLinkInvalid } } });
    expect((await b.json("GET", `/api/auth/reset-password?token=${token}`)).body).toEqual({ valid: false });
  });

  it("gives a suspended account no link and the stranger's answer, and a link issued before the suspension changes nothing", async () => {
    const a = await account();
    const other = await account();
    const b = browser(t);
    await b.json("POST", "/api/auth/forgot-password", { email: a.email });
    const token = await resetToken(a.email);
    const before = t.deps.db.select().from(users).where(eq(users.id, a.userId)).get()!;
    t.deps.db.update(users).set({ suspendedAt: new Date(), suspensionReason: "Fraud" }).where(eq(users.id, a.userId)).run();

    // The same answer as for an unknown address, and no new link: the earlier one stays as it was.
    const unknown = await browser(t).json("POST", "/api/auth/forgot-password", { email: "nobody@example.com" });
    expect(await browser(t).json("POST", "/api/auth/forgot-password", { email: a.email })).toEqual(unknown);
    expect(t.deps.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, a.userId)).all()).toHaveLength(1);
    // A request made after it is mailed, so had one been sent to the suspended account it would be there by now.
    await browser(t).json("POST", "/api/auth/forgot-password", { email: other.email });
    await resetToken(other.email);
    expect(mailsTo(t.deps.env.OUTBOX_DIR, a.email)).toHaveLength(1);

    const refused = await b.json("POST", "/api/auth/reset-password", { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(refused).toMatchObject({ status: 403, body: { error: { message: SUSPENSION_TEXTS.signInRefused } } });
    expect(t.deps.db.select().from(users).where(eq(users.id, a.userId)).get()).toEqual({ ...before, suspendedAt: expect.any(Date), suspensionReason: "Fraud" });
    expect(t.deps.db.select().from(sessions).all()).toHaveLength(0);
    expect(b.cookie("plinth_session")).toBeUndefined();
    expect(t.deps.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, a.userId)).get()).toMatchObject({ usedAt: null });
  });

  it("a new link voids the old one", async () => {
    const a = await account();
    const b = browser(t);
    await b.json("POST", "/api/auth/forgot-password", { email: a.email });
    const first = await resetToken(a.email, 1);
    await b.json("POST", "/api/auth/forgot-password", { email: a.email });
    const second = await resetToken(a.email, 2);
    expect((await b.json("POST", "/api/auth/reset-password", { token: first, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(400);
    expect((await b.json("POST", "/api/auth/reset-password", { token: second, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(200);
  });

  it("expires after an hour", async () => {
    const a = await account();
    const b = browser(t);
    await b.json("POST", "/api/auth/forgot-password", { email: a.email });
    const token = await resetToken(a.email);
    t.deps.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1) }).run();
    expect((await b.json("POST", "/api/auth/reset-password", { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(400);
    expect((await login(browser(t), a.email)).status).toBe(200);
  });

  it("holds the new password to the policy and writes nothing on bad input", async () => {
    const a = await account();
    const b = browser(t);
    await b.json("POST", "/api/auth/forgot-password", { email: a.email });
    const token = await resetToken(a.email);
    const cases: [Record<string, unknown>, string][] = [
      [{ token, password: "Short-1a", confirmPassword: "Short-1a" }, AUTH_TEXT.passwordTooShort],
      [{ token, password: "onlylowercaseletters", confirmPassword: "onlylowercaseletters" }, AUTH_TEXT.passwordTooWeak],
      [{ token, password: NEW_PASSWORD, confirmPassword: "Something-else-1" }, AUTH_TEXT.passwordsDontMatch],
      [{ token: "not-a-token", password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, AUTH_TEXT.resetLinkInvalid],
      [{ token: "a".repeat(32), password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, AUTH_TEXT.resetLinkInvalid],
    ];
    for (const [body, message] of cases) {
      const res = await b.json("POST", "/api/auth/reset-password", body);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect((await b.json("GET", `/api/auth/reset-password?token=${"x".repeat(500)}`)).status).toBe(400);
    expect((await b.json("GET", "/api/auth/reset-password?token=<script>")).body).toEqual({ valid: false });
    expect((await login(browser(t), a.email)).status).toBe(200);
    expect((await b.json("GET", `/api/auth/reset-password?token=${token}`)).body).toEqual({ valid: true });
  });

  it("is throttled per address after 5 requests, for known and unknown addresses alike", async () => {
    const a = await account();
    for (const email of [a.email, "nobody@example.com"]) {
      for (let i = 0; i < 5; i++) expect((await browser(t).json("POST", "/api/auth/forgot-password", { email })).status).toBe(200);
      const res = await browser(t).json("POST", "/api/auth/forgot-password", { email });
      expect(res).toMatchObject({ status: 429, body: { error: { message: "Too many attempts. Please try again in 15 minutes." } } });
    }
    await vi.waitFor(() => expect(mailsTo(t.deps.env.OUTBOX_DIR, a.email)).toHaveLength(5));
  });

  it("refuses bad e-mails and cross-origin requests", async () => {
    expect((await browser(t).json("POST", "/api/auth/forgot-password", { email: "<script>x</script>" })).body.error.message).toBe(AUTH_TEXT.emailInvalid);
    expect((await browser(t).json("POST", "/api/auth/forgot-password", {})).body.error.message).toBe(AUTH_TEXT.emailRequired);
    const cross = await t.app.request("/api/auth/forgot-password", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
      body: JSON.stringify({ email: "a@example.com" }),
    });
    expect(cross.status).toBe(403);
  });
});

describe("change password (account settings)", () => {
  it("needs the current password, applies the signup policy, ends every other session and keeps this browser signed in", async () => {
    const a = await account();
    const b = browser(t);
    const other = browser(t);
    await login(b, a.email);
    await login(other, a.email);
    const oldToken = b.cookie("plinth_session");

    const wrong = await b.json("POST", "/api/auth/password", { currentPassword: "Not-It-At-All-1", newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(wrong).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.currentPasswordWrong } } });
    const mismatch = await b.json("POST", "/api/auth/password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: "Different-Pass-1" });
    expect(mismatch.body.error.message).toBe("New passwords don't match");
    const weak = await b.json("POST", "/api/auth/password", { currentPassword: PASSWORD, newPassword: "abcdef", confirmPassword: "abcdef" });
    expect(weak.body.error.message).toBe(AUTH_TEXT.passwordTooShort);
    expect((await b.json("POST", "/api/auth/password", { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).body.error.message).toBe(AUTH_TEXT.currentPasswordRequired);

    const ok = await b.json("POST", "/api/auth/password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(ok).toEqual({ status: 200, body: { message: AUTH_TEXT.passwordChanged } });
    expect(b.cookie("plinth_session")).not.toBe(oldToken);
    expect((await b.json("GET", "/api/me")).status).toBe(200);
    expect((await other.json("GET", "/api/me")).status).toBe(401);
    expect(t.deps.db.select().from(sessions).all()).toHaveLength(1);
    expect(lastMailTo(t.deps.env.OUTBOX_DIR, a.email)!.subject).toBe("Your Plinth password was changed");
    expect((await login(browser(t), a.email, NEW_PASSWORD)).status).toBe(200);
  });

  it("needs a signed-in owner", async () => {
    expect((await browser(t).json("POST", "/api/auth/password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(401);
  });

  it("throttles guesses of the current password", async () => {
    const a = await account();
    const b = browser(t);
    await login(b, a.email);
    for (let i = 0; i < 5; i++) {
      await b.json("POST", "/api/auth/password", { currentPassword: `Guess-number-${i}!`, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    }
    const res = await b.json("POST", "/api/auth/password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(res.status).toBe(429);
    expect(t.deps.db.select().from(sessions).where(eq(sessions.userId, a.userId)).all()).toHaveLength(1);
  });
});
