/**
 * Served over https, every cookie the server sets is a `__Host-` cookie (Secure, Path=/, no Domain),
 * so no sibling subdomain or plain-http page can plant or overwrite one; and the server reads them
 * only under that name. Over plain http (localhost) the names stay as they are.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#api/auth/password.ts";
import { createSession } from "#api/auth/session.ts";
import { createAccount } from "#api/services/accounts.ts";
import { beginSetup, confirmSetup, totpAt } from "#api/services/two-factor.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { browser } from "#tests/support/auth-client.ts";
import { lastMailTo, sixDigitCode } from "#tests/support/mail.ts";

const ORIGIN = "https://plinth.example";
const PASSWORD = "Sturdy-Password-42";

let t: TestApp;
beforeEach(() => {
  t = createTestApp({ PUBLIC_ORIGIN: ORIGIN });
  mkdirSync(join(t.deps.env.SITE_DIR, "features"), { recursive: true });
  writeFileSync(join(t.deps.env.SITE_DIR, "index.html"), "<!doctype html><title>Home</title>");
  writeFileSync(join(t.deps.env.SITE_DIR, "features", "index.html"), "<!doctype html><title>Features</title>");
});
afterEach(() => t.close());

/** Every Set-Cookie line of the answer, each checked to be a proper __Host- cookie. */
function hostCookies(res: Response): Record<string, string> {
  const found: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair, ...attrs] = line.split(";").map((p) => p.trim());
    const name = pair!.slice(0, pair!.indexOf("="));
    expect(name, line).toMatch(/^__Host-plinth_/);
    expect(attrs, line).toContain("Secure");
    expect(attrs, line).toContain("Path=/");
    expect(attrs.some((a) => /^domain=/i.test(a)), line).toBe(false);
    found[name] = line;
  }
  return found;
}

async function account(username = `host_${randomBytes(3).toString("hex")}`) {
  const email = `${username}@example.com`;
  const { userId } = createAccount(t.deps.db, { email, username, passwordHash: await hashPassword(PASSWORD), emailVerified: true, now: new Date() });
  return { userId, email, username };
}

describe("over https", () => {
  it("the session and the signed-in hint are __Host- cookies, read and cleared under that name", async () => {
    const a = await account();
    const b = browser(t);
    const login = await b.call("POST", "/api/auth/login", { email: a.email, password: PASSWORD, rememberMe: true });
    expect(login.status).toBe(200);
    const set = hostCookies(login);
    expect(set["__Host-plinth_session"]).toMatch(/HttpOnly/);
    expect(set["__Host-plinth_signed_in"]).not.toMatch(/HttpOnly/);
    expect(b.cookie("plinth_session")).toBeUndefined();
    expect((await b.json("GET", "/api/me")).status).toBe(200);

    const out = await b.call("POST", "/api/auth/logout");
    const cleared = hostCookies(out);
    expect(cleared["__Host-plinth_session"]).toMatch(/Max-Age=0/);
    expect(cleared["__Host-plinth_signed_in"]).toMatch(/Max-Age=0/);
  });

  it("ignores a session cookie without the prefix (one a sibling subdomain could have planted)", async () => {
    const a = await account();
    const { token } = createSession(t.deps.db, a.userId, { persistent: true, now: new Date() });
    const planted = await t.app.request("/api/me", { headers: { Cookie: `plinth_session=${token}`, "Sec-Fetch-Site": "same-origin" } });
    expect(planted.status).toBe(401);
    const real = await t.app.request("/api/me", { headers: { Cookie: `__Host-plinth_session=${token}`, "Sec-Fetch-Site": "same-origin" } });
    expect(real.status).toBe(200);
  });

  it("a cross-site request carrying the __Host- session cookie is refused", async () => {
    const a = await account();
    const { token } = createSession(t.deps.db, a.userId, { persistent: true, now: new Date() });
    const res = await t.app.request("/api/auth/logout", { method: "POST", headers: { Cookie: `__Host-plinth_session=${token}` } });
    expect(res.status).toBe(403);
  });

  it("the two-factor step, the signup and the referral cookies are __Host- cookies too", async () => {
    const a = await account();
    const now = new Date();
    const { secret } = await beginSetup(t.deps.db, { id: a.userId, email: a.email }, now);
    expect(confirmSetup(t.deps.db, a.userId, totpAt(secret, now), now)).not.toBeNull();
    const b = browser(t);
    const first = await b.call("POST", "/api/auth/login", { email: a.email, password: PASSWORD });
    expect(Object.keys(hostCookies(first))).toEqual(["__Host-plinth_2fa"]);
    const second = await b.call("POST", "/api/auth/login/two-factor", { code: totpAt(secret, new Date(), 1) });
    expect(second.status).toBe(200);
    expect(Object.keys(hostCookies(second)).sort()).toEqual(["__Host-plinth_2fa", "__Host-plinth_session", "__Host-plinth_signed_in"]);

    const who = { username: `su_${randomBytes(3).toString("hex")}`, email: `su_${randomBytes(3).toString("hex")}@example.com` };
    const s = browser(t);
    const start = await s.call("POST", "/api/auth/signup/start", who);
    expect(start.status).toBe(200);
    expect(Object.keys(hostCookies(start))).toEqual(["__Host-plinth_signup"]);
    expect((await s.json("POST", "/api/auth/signup/verify", { code: sixDigitCode(lastMailTo(t.deps.env.OUTBOX_DIR, who.email)!) })).status).toBe(200);

    const landing = await t.app.request("/?ref=abcdefgh12");
    expect(Object.keys(hostCookies(landing))).toEqual(["__Host-plinth_ref"]);
  });

  it("site pages keep the __Host- signed-in hint in step with the session", async () => {
    const a = await account();
    const { token } = createSession(t.deps.db, a.userId, { persistent: true, now: new Date() });
    const page = await t.app.request("/features", { headers: { Cookie: `__Host-plinth_session=${token}` } });
    expect(Object.keys(hostCookies(page))).toEqual(["__Host-plinth_signed_in"]);
    const gone = await t.app.request("/features", { headers: { Cookie: "__Host-plinth_signed_in=1" } });
    expect(hostCookies(gone)["__Host-plinth_signed_in"]).toMatch(/Max-Age=0/);
  });
});

describe("over plain http", () => {
  it("names stay as they are (browsers refuse __Host- without Secure)", async () => {
    const plain = createTestApp();
    try {
      const email = "plain@example.com";
      createAccount(plain.deps.db, { email, username: "plain_one", passwordHash: await hashPassword(PASSWORD), emailVerified: true, now: new Date() });
      const res = await browser(plain).call("POST", "/api/auth/login", { email, password: PASSWORD });
      const names = res.headers.getSetCookie().map((l) => l.slice(0, l.indexOf("=")));
      expect(names.sort()).toEqual(["plinth_session", "plinth_signed_in"]);
      for (const line of res.headers.getSetCookie()) expect(line).not.toMatch(/Secure/);
    } finally {
      plain.close();
    }
  });
});
