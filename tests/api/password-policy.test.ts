/**
 * The server refuses common, leaked-list and easily guessed passwords (ADR 047) wherever a password
 * is set: signup, the reset link and the account's password change. "Password123!", "Welcome2024!"
 * and "Aaaaaaaaaaa1" pass the 12-character, 4-of-5 rule; they are refused here with a message that
 * says why, under the field that holds them, and nothing is stored.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { guessablePasswordMessage } from "#api/auth/password-policy.ts";
import { hashPassword, verifyPassword } from "#api/auth/password.ts";
import { createAccount } from "#api/services/accounts.ts";
import { AUTH_TEXT, passwordPolicyError } from "#core/schemas/auth.ts";
import { passwordResetTokens, users } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { browser } from "#tests/support/auth-client.ts";
import { lastMailTo, linkIn, mailsTo, sixDigitCode } from "#tests/support/mail.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const PASSWORD = "Sturdy-Password-42";
const WEAK = ["Password123!", "Welcome2024!", "Aaaaaaaaaaa1"] as const;
const unique = (prefix: string) => `${prefix}_${randomBytes(3).toString("hex")}`;

async function account() {
  const username = unique("pol");
  const email = `${username}@example.com`;
  const { userId } = createAccount(t.deps.db, { email, username, passwordHash: await hashPassword(PASSWORD), emailVerified: true, now: new Date() });
  return { userId, username, email };
}

describe("the reasons given", () => {
  it("the three passwords the old rule let through all pass core's checks, and each is refused with why", async () => {
    for (const p of WEAK) expect(passwordPolicyError(p), p).toBeNull();
    expect(await guessablePasswordMessage("Password123!", {})).toBe(`${AUTH_TEXT.passwordTooCommon} Add more words that are less common.`);
    expect(await guessablePasswordMessage("Welcome2024!", {})).toBe(`${AUTH_TEXT.passwordTooCommon} Add more words that are less common.`);
    expect(await guessablePasswordMessage("Aaaaaaaaaaa1", {})).toBe(`${AUTH_TEXT.passwordGuessable} Repeated characters like "aaa" are easy to guess. Add more words that are less common.`);
    expect(await guessablePasswordMessage("Abcdefghijk1!", {})).toMatch(/^This password is too easy to guess\. Common character sequences like "abc" are easy to guess\./);
    expect(await guessablePasswordMessage("Summer2023!!", {})).toMatch(/^This password is too easy to guess\./);
  });

  it("refuses the owner's username or e-mail address inside the password", async () => {
    const personal = { email: "ada.lovelace@example.com", username: "analytical" };
    expect(await guessablePasswordMessage("Quiet-Analytical-Otters-8", personal)).toBe(AUTH_TEXT.passwordPersonal);
    expect(await guessablePasswordMessage("ADA.LOVELACE-Walrus-91!", personal)).toBe(AUTH_TEXT.passwordPersonal);
    expect(await guessablePasswordMessage("Quiet-Lanterns-Otters-8", personal)).toBeNull();
  });

  it("lets strong passwords through, the test fixtures' among them", async () => {
    for (const p of ["Sturdy-Password-42", "Correct-horse-9!", "Demo-password-for-tests-1!", "Lanterns4Quiet8Otters", "NoSpecialCharactersHere42"]) {
      expect(await guessablePasswordMessage(p, { email: "someone@example.com", username: "someone" }), p).toBeNull();
    }
  });

  it("scores only the first 64 characters, so a long password costs little", async () => {
    expect(await guessablePasswordMessage(`${"Aa1!".repeat(16)}${"x".repeat(190)}`, {})).toMatch(/^This password is too easy to guess\./);
    expect(await guessablePasswordMessage(`Quiet-Lanterns-Otters-8${"a".repeat(230)}`, {})).toBeNull();
  });
});

describe("where a password is set", () => {
  it("signup: refused under the password field, and no account is made", async () => {
    const b = browser(t);
    const who = { username: unique("su"), email: `${unique("su")}@example.com` };
    await b.json("POST", "/api/auth/signup/start", who);
    expect((await b.json("POST", "/api/auth/signup/verify", { code: sixDigitCode(lastMailTo(t.deps.env.OUTBOX_DIR, who.email)!) })).status).toBe(200);
    for (const password of [...WEAK, `${who.username}-Quiet-Otters-8`]) {
      const res = await b.json("POST", "/api/auth/signup/complete", { password, confirmPassword: password, agreedToTerms: true });
      expect(res.status, password).toBe(400);
      expect(res.body.error.fields.password).toBe(res.body.error.message);
      expect(res.body.error.message).toMatch(/too common|too easy to guess|must not contain your username/);
    }
    expect(t.deps.db.select().from(users).where(eq(users.email, who.email)).get()).toBeUndefined();
    expect(b.cookie("plinth_session")).toBeUndefined();
    // The signup is still there: a strong password finishes it.
    const done = await b.json("POST", "/api/auth/signup/complete", { password: "Lanterns4Quiet8Otters", confirmPassword: "Lanterns4Quiet8Otters", agreedToTerms: true });
    expect(done.status).toBe(201);
  });

  it("the reset link: refused under the password field, the link stays usable and the old password works", async () => {
    const a = await account();
    await browser(t).json("POST", "/api/auth/forgot-password", { email: a.email });
    await vi.waitFor(() => expect(mailsTo(t.deps.env.OUTBOX_DIR, a.email)).toHaveLength(1));
    const token = new URL(linkIn(lastMailTo(t.deps.env.OUTBOX_DIR, a.email)!, "/auth/update-password?token=")).searchParams.get("token")!;
    for (const password of WEAK) {
      const res = await browser(t).json("POST", "/api/auth/reset-password", { token, password, confirmPassword: password });
      expect(res.status, password).toBe(400);
      expect(res.body.error.fields).toEqual({ password: res.body.error.message });
    }
    expect(t.deps.db.select().from(passwordResetTokens).get()!.usedAt).toBeNull();
    const hash = t.deps.db.select().from(users).where(eq(users.id, a.userId)).get()!.passwordHash!;
    expect(await verifyPassword(hash, PASSWORD)).toBe(true);
    expect((await browser(t).json("POST", "/api/auth/reset-password", { token, password: "Lanterns4Quiet8Otters", confirmPassword: "Lanterns4Quiet8Otters" })).status).toBe(200);
  });

  it("changing it in account settings: refused under the new-password field, the old one stays", async () => {
    const a = await account();
    const b = browser(t);
    await b.json("POST", "/api/auth/login", { email: a.email, password: PASSWORD });
    for (const newPassword of [...WEAK, `Walrus-${a.username}-Sings-7`]) {
      const res = await b.json("POST", "/api/auth/password", { currentPassword: PASSWORD, newPassword, confirmPassword: newPassword });
      expect(res.status, newPassword).toBe(400);
      expect(res.body.error.fields).toEqual({ newPassword: res.body.error.message });
    }
    const hash = t.deps.db.select().from(users).where(eq(users.id, a.userId)).get()!.passwordHash!;
    expect(await verifyPassword(hash, PASSWORD)).toBe(true);
    expect((await b.json("GET", "/api/me")).status).toBe(200);
  });
});
