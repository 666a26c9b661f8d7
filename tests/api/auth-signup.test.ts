import { existsSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AUTH_LIMITS, AUTH_TEXT } from "#core/schemas/auth.ts";
import { emailVerificationCodes, sessions, signupAttempts, upgradeRequests, userProfiles, users } from "#db/schema.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createServerApp } from "#api/site.ts";
import { USERNAME_TAKEN_MESSAGE, usernameHeldByOtherMessage, usernameHeldMessage } from "#core/schemas/username.ts";
import { browser, type Browser } from "#tests/support/auth-client.ts";
import { lastMailTo, mailsTo, sixDigitCode } from "#tests/support/mail.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const PASSWORD = "Sturdy-Password-42";
let n = 0;
const fresh = () => {
  n += 1;
  const id = `${Date.now().toString(36)}${n}`;
  return { username: `new_${id}`, email: `new_${id}@example.com` };
};

const codeFor = (email: string) => sixDigitCode(lastMailTo(t.deps.env.OUTBOX_DIR, email)!);
const wrongCodeFor = (email: string) => {
  const right = codeFor(email);
  return ((Number(right) + 1) % 1_000_000).toString().padStart(6, "0");
};

async function signUp(b: Browser, who = fresh(), plan: "lite" | "plus" = "lite") {
  expect((await b.json("POST", "/api/auth/signup/start", who)).status).toBe(200);
  expect((await b.json("POST", "/api/auth/signup/verify", { code: codeFor(who.email) })).status).toBe(200);
  const done = await b.json("POST", "/api/auth/signup/complete", { password: PASSWORD, confirmPassword: PASSWORD, plan, agreedToTerms: true });
  return { ...who, done };
}

const countRows = () => ({
  users: t.deps.db.select().from(users).all().length,
  attempts: t.deps.db.select().from(signupAttempts).all().length,
});

describe("signup wizard: the whole way", () => {
  it("creates the user, the profile, a 7-day trial and the published page only at the end, then signs in", async () => {
    const b = browser(t);
    const who = fresh();
    const started = await b.json("POST", "/api/auth/signup/start", who);
    expect(started).toMatchObject({ status: 200, body: { username: who.username, email: who.email, emailVerified: false } });
    expect(countRows().users).toBe(0);

    const mail = lastMailTo(t.deps.env.OUTBOX_DIR, who.email)!;
    expect(mail.subject).toMatch(/^Your Plinth verification code: \d{6}$/);
    expect(mail.text).toContain("expires in 10 minutes");

    expect((await b.json("POST", "/api/auth/signup/verify", { code: sixDigitCode(mail) })).body.emailVerified).toBe(true);
    expect(countRows().users).toBe(0);

    const done = await b.json("POST", "/api/auth/signup/complete", { password: PASSWORD, confirmPassword: PASSWORD, agreedToTerms: true });
    expect(done).toEqual({ status: 201, body: { redirect: "/dashboard/links", username: who.username } });

    const user = t.deps.db.select().from(users).where(eq(users.email, who.email)).get()!;
    expect(user.emailVerified).toBe(true);
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const profile = t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, user.id)).get()!;
    expect(profile).toMatchObject({ username: who.username, displayName: who.username, planType: "lite", hasPublishedPage: true });
    expect(profile.trialEndsAt!.getTime() - profile.createdAt.getTime()).toBe(7 * 86_400_000);
    expect(existsSync(join(t.deps.env.PUBLISHED_DIR, who.username, "index.html"))).toBe(true);
    expect(countRows().attempts).toBe(0);

    expect(b.cookie("plinth_session")).toBeTruthy();
    expect(b.cookie("plinth_signed_in")).toBe("1");
    expect(b.cookie("plinth_signup")).toBeUndefined();
    const me = await b.json("GET", "/api/me");
    expect(me.body).toMatchObject({ username: who.username, plan: { isTrialActive: true, planBadge: "Trial Active" } });
  });

  it("keeps the Plus choice for checkout while the trial starts either way", async () => {
    const b = browser(t);
    const { email } = await signUp(b, fresh(), "plus");
    const user = t.deps.db.select().from(users).where(eq(users.email, email)).get()!;
    expect(t.deps.db.select().from(upgradeRequests).where(eq(upgradeRequests.userId, user.id)).get()).toMatchObject({ featureKey: "plus_plan", reason: "signup" });
    expect(t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, user.id)).get()!.planType).toBe("lite");
  });

  it("stores codes only hashed", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    const code = codeFor(who.email);
    const rows = t.deps.db.select().from(emailVerificationCodes).all();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it("resumes after a reload: GET /api/auth/signup tells the wizard where it was", async () => {
    const b = browser(t);
    expect((await b.json("GET", "/api/auth/signup")).body).toEqual({ attempt: null });
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    const state = await b.json("GET", "/api/auth/signup");
    expect(state.body.attempt).toMatchObject({ username: who.username, email: who.email, emailVerified: false, provider: null });
    expect(state.body.attempt.resendInMs).toBeGreaterThan(50_000);
  });
});

describe("the e-mailed code", () => {
  it("rejects a wrong code of the right length", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    const res = await b.json("POST", "/api/auth/signup/verify", { code: wrongCodeFor(who.email) });
    expect(res).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.codeInvalidRetry } } });
    expect(t.deps.db.select().from(signupAttempts).get()!.emailVerifiedAt).toBeNull();
  });

  it("refuses malformed codes with the spec's message", async () => {
    const b = browser(t);
    await b.json("POST", "/api/auth/signup/start", fresh());
    for (const code of ["12345", "1234567", "abcdef", "12 456", "", "<script>", 123456, null]) {
      const res = await b.json("POST", "/api/auth/signup/verify", { code });
      expect(res.status, String(code)).toBe(400);
      expect(res.body.error.message).toBe(AUTH_TEXT.codeInvalid);
    }
  });

  it("voids the code after 5 wrong tries, then blocks the address for 15 minutes", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    const right = codeFor(who.email);
    for (let i = 0; i < 5; i++) expect((await b.json("POST", "/api/auth/signup/verify", { code: wrongCodeFor(who.email) })).status).toBe(400);
    expect(t.deps.db.select().from(emailVerificationCodes).all()).toHaveLength(0);
    const blocked = await b.json("POST", "/api/auth/signup/verify", { code: right });
    expect(blocked).toMatchObject({ status: 429, body: { error: { message: "Too many attempts. Please try again in 15 minutes." } } });
    expect(t.deps.db.select().from(signupAttempts).get()!.emailVerifiedAt).toBeNull();
  });

  it("expires after 10 minutes", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    t.deps.db.update(emailVerificationCodes).set({ expiresAt: new Date(Date.now() - 1) }).run();
    const res = await b.json("POST", "/api/auth/signup/verify", { code: codeFor(who.email) });
    expect(res).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.codeExpired } } });
  });

  it("is resent at most once a minute, and a new code voids the old one", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    const first = codeFor(who.email);
    const early = await b.json("POST", "/api/auth/signup/resend");
    expect(early.status).toBe(429);
    expect(early.body.error.message).toMatch(/^Please wait \d+ seconds before requesting a new code\.$/);
    expect(mailsTo(t.deps.env.OUTBOX_DIR, who.email)).toHaveLength(1);

    t.deps.db.update(emailVerificationCodes).set({ sentAt: new Date(Date.now() - 61_000) }).run();
    expect((await b.json("POST", "/api/auth/signup/resend")).status).toBe(200);
    expect(mailsTo(t.deps.env.OUTBOX_DIR, who.email)).toHaveLength(2);
    const second = codeFor(who.email);
    if (first !== second) expect((await b.json("POST", "/api/auth/signup/verify", { code: first })).status).toBe(400);
    expect((await b.json("POST", "/api/auth/signup/verify", { code: second })).status).toBe(200);
  });

  it("going Back and on with the same address keeps the code already sent", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    const code = codeFor(who.email);
    await b.json("POST", "/api/auth/signup/start", who);
    expect(mailsTo(t.deps.env.OUTBOX_DIR, who.email)).toHaveLength(1);
    expect((await b.json("POST", "/api/auth/signup/verify", { code })).status).toBe(200);
  });

  it("a code belongs to its own signup: another browser's code does not verify this one", async () => {
    const a = browser(t);
    const b = browser(t);
    const whoA = fresh();
    const whoB = fresh();
    await a.json("POST", "/api/auth/signup/start", whoA);
    await b.json("POST", "/api/auth/signup/start", whoB);
    const codeA = codeFor(whoA.email);
    if (codeA !== codeFor(whoB.email)) expect((await b.json("POST", "/api/auth/signup/verify", { code: codeA })).status).toBe(400);
  });

  it("an address that already has an account gets a note instead of a code, and the answer is the same", async () => {
    const first = browser(t);
    const { email } = await signUp(first);
    const b = browser(t);
    const res = await b.json("POST", "/api/auth/signup/start", { username: fresh().username, email });
    expect(res.status).toBe(200);
    expect(res.body.emailVerified).toBe(false);
    const mail = lastMailTo(t.deps.env.OUTBOX_DIR, email)!;
    expect(mail.subject).toBe("You already have a Plinth account");
    expect(mail.text).not.toMatch(/\b\d{6}\b/);
    expect((await b.json("POST", "/api/auth/signup/verify", { code: "123456" })).body.error.message).toBe(AUTH_TEXT.codeInvalidRetry);
  });
});

describe("the username hold", () => {
  it("two signups for one username at once: exactly one wins", async () => {
    const a = browser(t);
    const b = browser(t);
    const name = fresh().username;
    const [ra, rb] = await Promise.all([
      a.json("POST", "/api/auth/signup/start", { username: name, email: `a_${name}@example.com` }),
      b.json("POST", "/api/auth/signup/start", { username: name, email: `b_${name}@example.com` }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const loser = ra.status === 409 ? ra : rb;
    // Held by the winner's signup in progress, for the 10 minutes an unverified hold lasts (ADR 141).
    expect(loser.body.error.message).toBe(usernameHeldByOtherMessage(10));
    expect(t.deps.db.select().from(signupAttempts).where(eq(signupAttempts.username, name)).all()).toHaveLength(1);
  });

  it("two full signups racing to the end with one username: exactly one account", async () => {
    const names = fresh().username;
    const runs = await Promise.all(
      [0, 1].map(async (i) => {
        const b = browser(t);
        const email = `r${i}_${names}@example.com`;
        const start = await b.json("POST", "/api/auth/signup/start", { username: names, email });
        if (start.status !== 200) return start.status;
        await b.json("POST", "/api/auth/signup/verify", { code: codeFor(email) });
        return (await b.json("POST", "/api/auth/signup/complete", { password: PASSWORD, confirmPassword: PASSWORD, agreedToTerms: true })).status;
      }),
    );
    expect(runs.sort()).toEqual([201, 409]);
    expect(t.deps.db.select().from(userProfiles).where(eq(userProfiles.username, names)).all()).toHaveLength(1);
  });

  it("a double submit of the last step creates one account", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    await b.json("POST", "/api/auth/signup/verify", { code: codeFor(who.email) });
    const body = { password: PASSWORD, confirmPassword: PASSWORD, agreedToTerms: true };
    const [x, y] = await Promise.all([b.call("POST", "/api/auth/signup/complete", body), b.call("POST", "/api/auth/signup/complete", body)]);
    expect([x.status, y.status].sort()).toEqual([201, 410]);
    expect(t.deps.db.select().from(users).all()).toHaveLength(1);
  });

  it("two verified signups with one e-mail racing to the end: one account, a clear 409 for the other", async () => {
    const email = fresh().email;
    const [a, b] = [browser(t), browser(t)];
    await a.json("POST", "/api/auth/signup/start", { username: fresh().username, email });
    await a.json("POST", "/api/auth/signup/verify", { code: codeFor(email) });
    await b.json("POST", "/api/auth/signup/start", { username: fresh().username, email });
    await b.json("POST", "/api/auth/signup/verify", { code: codeFor(email) });
    const body = { password: PASSWORD, confirmPassword: PASSWORD, agreedToTerms: true };
    const statuses = (await Promise.all([a.call("POST", "/api/auth/signup/complete", body), b.call("POST", "/api/auth/signup/complete", body)])).map((r) => r.status);
    expect(statuses.sort()).toEqual([201, 409]);
    expect(t.deps.db.select().from(users).all()).toHaveLength(1);
  });

  it("makes the name unavailable to the claim check while held, and frees it when the hold lapses", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    const check = async () => (await t.app.request(`/api/auth/username-availability?username=${who.username}`)).json();
    expect(await check()).toMatchObject({ available: false, held: true, message: usernameHeldMessage(10) });
    t.deps.db.update(signupAttempts).set({ expiresAt: new Date(Date.now() - 1) }).run();
    expect(await check()).toMatchObject({ available: true });
    const other = browser(t);
    expect((await other.json("POST", "/api/auth/signup/start", { username: who.username, email: "other@example.com" })).status).toBe(200);
  });

  it("an abandoned unverified signup lets its name go 10 minutes after its last step; that browser starts over (ADR 107)", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    const other = browser(t);
    const take = () => other.json("POST", "/api/auth/signup/start", { username: who.username, email: "other@example.com" });
    expect((await take()).status).toBe(409);
    // Its last step was just over 10 minutes ago.
    t.deps.db.update(signupAttempts).set({ expiresAt: new Date(Date.now() + AUTH_LIMITS.SIGNUP_HOLD_MS - AUTH_LIMITS.SIGNUP_UNVERIFIED_HOLD_MS - 1) }).where(eq(signupAttempts.email, who.email)).run();
    expect((await take()).status).toBe(200);
    expect(t.deps.db.select().from(signupAttempts).all().map((a) => a.email)).toEqual(["other@example.com"]);
    expect((await b.json("POST", "/api/auth/signup/verify", { code: codeFor(who.email) })).status).toBe(410);
  });

  it("a verified signup keeps its name for 30 minutes after its last step", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    expect((await b.json("POST", "/api/auth/signup/verify", { code: codeFor(who.email) })).status).toBe(200);
    t.deps.db.update(signupAttempts).set({ expiresAt: new Date(Date.now() + 60_000) }).run();
    expect((await browser(t).json("POST", "/api/auth/signup/start", { username: who.username, email: "other@example.com" })).status).toBe(409);
  });

  it("never holds a name against its own e-mail address: the same person in another browser takes it over", async () => {
    const first = browser(t);
    const who = fresh();
    await first.json("POST", "/api/auth/signup/start", who);
    const second = browser(t);
    expect((await second.json("POST", "/api/auth/signup/start", { username: who.username, email: who.email.toUpperCase() })).status).toBe(200);
    expect(t.deps.db.select().from(signupAttempts).all()).toHaveLength(1);
    expect((await second.json("POST", "/api/auth/signup/verify", { code: codeFor(who.email) })).status).toBe(200);
  });

  it("a held name: the check says so and when it frees up, the same e-mail continues from another browser, another is told to wait (ADR 141)", async () => {
    let clock = Date.UTC(2026, 10, 28, 9);
    const timed = { ...t, app: createServerApp({ ...t.deps, now: () => new Date(clock) }) };
    const minutes = (n: number) => n * 60_000;
    const who = fresh();
    const check = async () => (await timed.app.request(`/api/auth/username-availability?username=${who.username}`)).json();

    const first = browser(timed);
    expect((await first.json("POST", "/api/auth/signup/start", who)).status).toBe(200);
    clock += minutes(3);
    // Unverified: held for 10 minutes after the last step.
    expect(await check()).toEqual({ available: false, held: true, username: who.username, message: usernameHeldMessage(7), freesInMinutes: 7 });
    clock += minutes(6) + 30_000;
    expect((await check()).message).toBe("Username is held by a signup in progress. It frees up in 1 minute unless that signup goes on. If it's yours, continue with the same email address.");

    // Someone else, in another browser, with another address: told when the name frees up; nothing written.
    const stranger = browser(timed);
    const refused = await stranger.json("POST", "/api/auth/signup/start", { username: who.username, email: "stranger@example.com" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(usernameHeldByOtherMessage(1));
    expect(refused.body.error.fields.username).toBe(usernameHeldByOtherMessage(1));
    expect(t.deps.db.select().from(signupAttempts).all().map((a) => a.email)).toEqual([who.email]);

    // The same person in another browser continues their own signup to the end.
    const second = browser(timed);
    expect((await second.json("POST", "/api/auth/signup/start", who)).status).toBe(200);
    expect((await second.json("POST", "/api/auth/signup/verify", { code: codeFor(who.email) })).status).toBe(200);
    // Verified: held for 30 minutes after the last step, against everyone else.
    clock += minutes(5);
    expect(await check()).toMatchObject({ held: true, freesInMinutes: 25 });
    expect((await stranger.json("POST", "/api/auth/signup/start", { username: who.username, email: "stranger@example.com" })).body.error.message).toBe(usernameHeldByOtherMessage(25));
    const done = await second.json("POST", "/api/auth/signup/complete", { password: PASSWORD, confirmPassword: PASSWORD, plan: "lite", agreedToTerms: true });
    expect(done.status).toBe(201);
    expect(done.body.username).toBe(who.username);
    // The first browser's attempt went when the second took the name over.
    expect((await first.json("POST", "/api/auth/signup/resend")).status).toBe(410);

    // Now really taken: the spec's message, no hold, no minutes.
    expect(await check()).toEqual({ available: false, message: USERNAME_TAKEN_MESSAGE });
    expect((await stranger.json("POST", "/api/auth/signup/start", { username: who.username, email: "stranger@example.com" })).body.error.message).toBe(USERNAME_TAKEN_MESSAGE);
  });

  it("a held name frees up on time for anyone, by the injected clock", async () => {
    let clock = Date.UTC(2026, 10, 28, 9);
    const timed = { ...t, app: createServerApp({ ...t.deps, now: () => new Date(clock) }) };
    const who = fresh();
    await browser(timed).json("POST", "/api/auth/signup/start", who);
    clock += AUTH_LIMITS.SIGNUP_UNVERIFIED_HOLD_MS - 1;
    expect((await browser(timed).json("POST", "/api/auth/signup/start", { username: who.username, email: "later@example.com" })).status).toBe(409);
    clock += 1;
    expect((await browser(timed).json("POST", "/api/auth/signup/start", { username: who.username, email: "later@example.com" })).status).toBe(200);
  });

  it("going Back to change the name moves this signup's hold", async () => {
    const b = browser(t);
    const first = fresh();
    await b.json("POST", "/api/auth/signup/start", first);
    const second = fresh().username;
    expect((await b.json("POST", "/api/auth/signup/start", { username: second, email: first.email })).status).toBe(200);
    expect(t.deps.db.select().from(signupAttempts).all().map((a) => a.username)).toEqual([second]);
  });

  it("refuses taken and reserved names", async () => {
    const owner = browser(t);
    const { username } = await signUp(owner);
    const b = browser(t);
    for (const name of [username, username.toUpperCase(), "dashboard", "api", "admin"]) {
      const res = await b.json("POST", "/api/auth/signup/start", { username: name, email: "x@example.com" });
      expect(res.status, name).toBe(409);
      expect(res.body.error.message).toBe("Username is already taken");
    }
  });
});

describe("every validation message, and nothing written on bad input", () => {
  it("username and e-mail format", async () => {
    const b = browser(t);
    const cases: [unknown, unknown, string][] = [
      ["ab", "a@example.com", "Username must be at least 3 characters"],
      ["a".repeat(31), "a@example.com", "Username must be less than 30 characters"],
      ["bad name!", "a@example.com", "Username can only contain letters, numbers, hyphens, and underscores"],
      ["<script>alert(1)</script>", "a@example.com", "Username can only contain letters, numbers, hyphens, and underscores"],
      ["good_name", "", AUTH_TEXT.emailRequired],
      ["good_name", undefined, AUTH_TEXT.emailRequired],
      ["good_name", "not-an-email", AUTH_TEXT.emailInvalid],
      ["good_name", "<script>alert(1)</script>@example.com", AUTH_TEXT.emailInvalid],
      ["good_name", "javascript:alert(1)@example.com", AUTH_TEXT.emailInvalid],
      ["good_name", `${"a".repeat(250)}@example.com`, AUTH_TEXT.emailTooLong],
    ];
    for (const [username, email, message] of cases) {
      const res = await b.json("POST", "/api/auth/signup/start", { username, email });
      expect(res.status, `${username} ${email}`).toBe(400);
      expect(res.body.error.message, `${username} ${email}`).toBe(message);
    }
    expect(countRows()).toEqual({ users: 0, attempts: 0 });
    expect(t.outbox()).toHaveLength(0);
  });

  it("password, confirmation and terms at the last step", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    await b.json("POST", "/api/auth/signup/verify", { code: codeFor(who.email) });
    const cases: [Record<string, unknown>, string][] = [
      [{ password: "Short-1a", confirmPassword: "Short-1a", agreedToTerms: true }, AUTH_TEXT.passwordTooShort],
      [{ password: "alllowercaseletters", confirmPassword: "alllowercaseletters", agreedToTerms: true }, AUTH_TEXT.passwordTooWeak],
      [{ password: "ALLUPPER1234567", confirmPassword: "ALLUPPER1234567", agreedToTerms: true }, AUTH_TEXT.passwordTooWeak],
      [{ password: PASSWORD, confirmPassword: `${PASSWORD}x`, agreedToTerms: true }, AUTH_TEXT.passwordsDontMatch],
      [{ password: PASSWORD, confirmPassword: PASSWORD, agreedToTerms: false }, AUTH_TEXT.termsRequired],
      [{ password: PASSWORD, confirmPassword: PASSWORD }, AUTH_TEXT.termsRequired],
      [{ agreedToTerms: true }, AUTH_TEXT.passwordRequired],
      [{ password: "A1!a".repeat(100), confirmPassword: "A1!a".repeat(100), agreedToTerms: true }, AUTH_TEXT.passwordTooLong],
      [{ password: PASSWORD, confirmPassword: PASSWORD, agreedToTerms: true, plan: "gold" }, "Please choose a plan"],
    ];
    for (const [body, message] of cases) {
      const res = await b.json("POST", "/api/auth/signup/complete", body);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message, JSON.stringify(body).slice(0, 80)).toBe(message);
    }
    expect(countRows()).toEqual({ users: 0, attempts: 1 });
  });

  it("accepts 4 of the 5 checks (no special character)", async () => {
    const b = browser(t);
    const who = fresh();
    await b.json("POST", "/api/auth/signup/start", who);
    await b.json("POST", "/api/auth/signup/verify", { code: codeFor(who.email) });
    const res = await b.json("POST", "/api/auth/signup/complete", { password: "NoSpecialCharactersHere42", confirmPassword: "NoSpecialCharactersHere42", agreedToTerms: true });
    expect(res.status).toBe(201);
  });

  it("will not finish before the e-mail is verified, nor without a signup in progress", async () => {
    const b = browser(t);
    const body = { password: PASSWORD, confirmPassword: PASSWORD, agreedToTerms: true };
    expect(await b.json("POST", "/api/auth/signup/complete", body)).toMatchObject({ status: 410, body: { error: { message: AUTH_TEXT.signupExpired } } });
    expect((await b.json("POST", "/api/auth/signup/verify", { code: "123456" })).status).toBe(410);
    expect((await b.json("POST", "/api/auth/signup/resend")).status).toBe(410);
    await b.json("POST", "/api/auth/signup/start", fresh());
    expect((await b.json("POST", "/api/auth/signup/complete", body)).status).toBe(400);
    expect(countRows().users).toBe(0);
  });

  it("a forged or stale signup cookie is no signup", async () => {
    const b = browser(t);
    b.jar.set("plinth_signup", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    expect((await b.json("POST", "/api/auth/signup/verify", { code: "123456" })).status).toBe(410);
    b.jar.set("plinth_signup", "x".repeat(5000));
    expect((await b.json("GET", "/api/auth/signup")).body).toEqual({ attempt: null });
  });

  it("refuses cross-origin posts and oversized or malformed bodies, writing nothing", async () => {
    const who = fresh();
    const cross = await t.app.request("/api/auth/signup/start", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      body: JSON.stringify(who),
    });
    expect(cross.status).toBe(403);
    const b = browser(t);
    expect((await b.call("POST", "/api/auth/signup/start", { ...who, padding: "x".repeat(70_000) })).status).toBe(413);
    expect((await b.call("POST", "/api/auth/signup/start", "{not json")).status).toBe(400);
    expect((await b.call("POST", "/api/auth/signup/start", "[]")).status).toBe(400);
    expect((await b.call("POST", "/api/auth/signup/start", { username: ["x"], email: { a: 1 } })).status).toBe(400);
    expect(countRows()).toEqual({ users: 0, attempts: 0 });
    expect(t.outbox()).toHaveLength(0);
    expect(t.deps.db.select().from(sessions).all()).toHaveLength(0);
  });

  it("allows a same-origin request identified only by its Origin header", async () => {
    const res = await t.app.request("/api/auth/signup/start", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN },
      body: JSON.stringify(fresh()),
    });
    expect(res.status).toBe(200);
  });
});
