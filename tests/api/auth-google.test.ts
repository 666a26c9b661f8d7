/**
 * Google sign-in against a real OpenID Connect provider (oauth2-mock-server) started here: discovery,
 * the authorization redirect with PKCE, state and nonce, the code exchange and the ID token checks
 * all run for real over HTTP.
 */
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#api/auth/password.ts";
import { serverSecret } from "#api/auth/server-secret.ts";
import { createServerApp } from "#api/site.ts";
import { openDatabase, closeDatabase } from "#db/client.ts";
import { createAccount } from "#api/services/accounts.ts";
import { totpAt } from "#api/services/two-factor.ts";
import { authorizationParameters, oidcSettings } from "#api/services/oidc.ts";
import { providerLinkedMail } from "#api/services/auth-mail.ts";
import { parseEnv } from "#api/env.server.ts";
import { SUSPENSION_TEXTS } from "#core/admin.ts";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import { sessions, signupAttempts, users } from "#db/schema.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { browser, type Browser } from "#tests/support/auth-client.ts";
import { readOutbox } from "#tests/support/mail.ts";
import { startOidcProvider, type OidcProviderServer } from "#tests/support/oidc-provider.ts";

let provider: OAuth2Server;
let identity: Record<string, unknown> = {};

beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate("RS256");
  await provider.start(0, "127.0.0.1");
  // Both tokens of an exchange are signed through here; the ID token is the one with an audience.
  provider.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
    if (token.payload.aud) Object.assign(token.payload, identity);
  });
});
afterAll(async () => {
  await provider.stop();
});

let t: TestApp;
beforeEach(() => {
  // The older GOOGLE_* names, still read (issue 35); the tests below use OIDC_*.
  t = createTestApp({ GOOGLE_CLIENT_ID: "plinth-test-client", GOOGLE_ISSUER: provider.issuer.url! });
  identity = {};
});
afterEach(() => t.close());

let n = 0;
function person() {
  n += 1;
  const id = `${Date.now().toString(36)}${n}`;
  return { sub: `google-${id}`, email: `g_${id}@gmail.example`, email_verified: true };
}

/** The flow cookie's JSON (its value is `base64url(json).signature`, URL-encoded). */
function readFlowCookie(raw: string): Record<string, unknown> {
  const value = decodeURIComponent(raw);
  return JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64url").toString()) as Record<string, unknown>;
}

/** A flow cookie signed with the app's own key, as only the server could make it. */
function signFlowCookie(app: TestApp, flow: Record<string, unknown>): string {
  const value = Buffer.from(JSON.stringify(flow)).toString("base64url");
  const mac = createHmac("sha256", serverSecret(app.deps.db, "oidc-flow-cookie")).update(value).digest("base64");
  return encodeURIComponent(`${value}.${mac}`);
}

/** A Google-only account of `who`, made straight in the app's database. */
function googleAccount(app: TestApp, who: { sub: string; email: string }, prefix: string) {
  return createAccount(app.deps.db, { email: who.email, username: `${prefix}_${n}`, passwordHash: null, emailVerified: true, googleSub: who.sub, now: new Date() });
}

/** Start as `b` and let the provider answer: where it sends the browser back, not yet posted. */
async function providerAnswer(b: Browser, who: Record<string, unknown>, startQuery = "") {
  identity = who;
  const start = await b.call("GET", `/api/auth/google${startQuery}`);
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  const answer = await fetch(authorize, { redirect: "manual" });
  return { start, authorize, callback: new URL(answer.headers.get("location")!) };
}

/** Start, let the provider answer, and post its answer back as the callback page does. */
async function viaGoogle(b: Browser, who: Record<string, unknown>, startQuery = "", tamper?: (q: URLSearchParams) => void) {
  const { authorize, callback } = await providerAnswer(b, who, startQuery);
  tamper?.(callback.searchParams);
  return { authorize, callback, result: await b.json("POST", "/api/auth/google/callback", { query: callback.search }) };
}

describe("Google sign-in", () => {
  it("is offered only when configured", async () => {
    expect((await browser(t).json("GET", "/api/auth/providers")).body).toEqual({ google: true, label: "Continue with single sign-on", googleLogo: false });
    const plain = createTestApp();
    try {
      expect(await (await plain.app.request("/api/auth/providers")).json()).toEqual({ google: false, label: null, googleLogo: false });
      expect((await plain.app.request("/api/auth/google")).status).toBe(404);
    } finally {
      plain.close();
    }
  });

  it("sends the browser to the provider with PKCE (S256), state, nonce and the /auth/callback return address", async () => {
    const b = browser(t);
    const start = await b.call("GET", "/api/auth/google");
    const url = new URL(start.headers.get("location")!);
    expect(url.origin + url.pathname).toBe(`${provider.issuer.url}/authorize`);
    expect(url.searchParams.get("redirect_uri")).toBe(`${t.deps.env.PUBLIC_ORIGIN}/auth/callback`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("scope")).toBe("openid email profile");
    expect(url.searchParams.get("client_id")).toBe("plinth-test-client");
    const flowCookie = start.headers.getSetCookie().find((l) => l.startsWith("plinth_oidc="))!;
    expect(flowCookie).toMatch(/HttpOnly/);
    expect(flowCookie).toMatch(/SameSite=Lax/);
  });

  it("over https the flow cookie is a __Host- cookie, and the callback reads it under that name", async () => {
    const secure = createTestApp({ GOOGLE_CLIENT_ID: "plinth-test-client", GOOGLE_ISSUER: provider.issuer.url!, PUBLIC_ORIGIN: "https://plinth.example" });
    try {
      const who = person();
      googleAccount(secure, who, "hostg");
      const b = browser(secure);
      const { start, callback } = await providerAnswer(b, who);
      const line = start.headers.getSetCookie().find((l) => l.startsWith("__Host-plinth_oidc="))!;
      expect(line).toMatch(/; Path=\/;/);
      expect(line).toMatch(/; Secure/);
      expect(line).not.toMatch(/Domain=/i);
      expect(b.cookie("plinth_oidc")).toBeUndefined();
      const res = await b.json("POST", "/api/auth/google/callback", { query: callback.search });
      expect(res.body).toMatchObject({ status: "signed_in" });
      expect(b.cookie("__Host-plinth_session")).toBeTruthy();
    } finally {
      secure.close();
    }
  });

  it("a new Google user starts a signup with the verified address, picks a username, and finishes without a password", async () => {
    const who = person();
    const b = browser(t);
    const { result } = await viaGoogle(b, who);
    expect(result).toEqual({ status: 200, body: { status: "signup", redirect: "/auth/signup", email: who.email, username: null } });
    expect(b.cookie("plinth_session")).toBeUndefined();
    expect((await b.json("GET", "/api/auth/signup")).body.attempt).toMatchObject({ email: who.email, emailVerified: true, provider: "google", username: null });

    const name = `g_user_${n}`;
    expect((await b.json("POST", "/api/auth/signup/username", { username: "dashboard" })).status).toBe(409);
    expect((await b.json("POST", "/api/auth/signup/username", { username: name })).body).toMatchObject({ username: name });
    const done = await b.json("POST", "/api/auth/signup/complete", { plan: "lite", agreedToTerms: true });
    expect(done).toEqual({ status: 201, body: { redirect: "/dashboard/links", username: name } });
    const user = t.deps.db.select().from(users).where(eq(users.email, who.email)).get()!;
    expect(user).toMatchObject({ googleSub: who.sub, passwordHash: null, emailVerified: true });

    // Next time: straight in.
    const again = browser(t);
    expect((await viaGoogle(again, who, "?next=%2Fdashboard%2Fbio")).result.body).toEqual({ status: "signed_in", redirect: "/dashboard/bio" });
    expect((await again.json("GET", "/api/me")).body.username).toBe(name);
  });

  it("carries a username claimed before choosing Google to the plan step", async () => {
    const who = person();
    const b = browser(t);
    const { result } = await viaGoogle(b, who, "?username=Claimed_First");
    expect(result.body).toMatchObject({ status: "signup", username: "claimed_first" });
  });

  it("signs an existing account with the same verified address in, linking Google to it", async () => {
    const who = person();
    const { userId } = createAccount(t.deps.db, { email: who.email, username: `linked_${n}`, passwordHash: await hashPassword("Sturdy-Password-42"), emailVerified: false, now: new Date() });
    const b = browser(t);
    expect((await viaGoogle(b, who)).result.body).toEqual({ status: "signed_in", redirect: "/dashboard/links" });
    expect(t.deps.db.select().from(users).where(eq(users.id, userId)).get()).toMatchObject({ googleSub: who.sub, emailVerified: true });

    // The owner is told what happened, when, and what to do if it was not them (ADR 048).
    const mails = readOutbox(t.deps.env.OUTBOX_DIR).filter((m) => m.to === who.email);
    // The provider is named as configured: this issuer is not Google's and has no label of its own,
    // so its host name and the default button text (ADR 202).
    expect(mails.map((m) => m.subject)).toEqual([`${new URL(provider.issuer.url!).hostname} sign-in was added to your Plinth account`]);
    const text = mails[0]!.text;
    expect(text).toMatch(/On \w+ \d{1,2}, \d{4} at \d{2}:\d{2} UTC someone signed in to your Plinth account with "Continue with single sign-on"/);
    expect(text).not.toContain("Google");
    expect(text).toContain("If this was you, there is nothing to do.");
    expect(text).toContain(`${t.deps.env.PUBLIC_ORIGIN}/auth/forgot-password`);
    expect(text).toContain("turn on two-factor authentication");
    expect(text).toContain(t.deps.env.CONTACT_TO);

    // Signing in again with the linked Google account is no news: no second mail.
    expect((await viaGoogle(browser(t), who)).result.body).toMatchObject({ status: "signed_in" });
    expect(readOutbox(t.deps.env.OUTBOX_DIR).filter((m) => m.to === who.email)).toHaveLength(1);
  });

  it("refuses an unverified Google address, and an answer without an address", async () => {
    const b = browser(t);
    expect((await viaGoogle(b, { ...person(), email_verified: false })).result).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.providerEmailUnverified } } });
    const { email: _email, ...noEmail } = person();
    expect((await viaGoogle(browser(t), noEmail)).result).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.providerFailed } } });
    expect(t.deps.db.select().from(users).all()).toHaveLength(0);
    expect(t.deps.db.select().from(signupAttempts).all()).toHaveLength(0);
  });

  it("still asks for the second factor when two-factor is on", async () => {
    const who = person();
    const { userId } = googleAccount(t, who, "tfa");
    const { createSession, SESSION_COOKIE } = await import("#api/auth/session.ts");
    const owner = browser(t);
    owner.jar.set(SESSION_COOKIE, createSession(t.deps.db, userId, { persistent: true, now: new Date() }).token);
    // A Google-only account that signed in a moment ago needs no password to set it up (ADR 046).
    const secret = (await owner.json("POST", "/api/auth/two-factor/setup", {})).body.secret;
    await owner.json("POST", "/api/auth/two-factor/enable", { code: totpAt(secret, new Date()) });

    const b = browser(t);
    expect((await viaGoogle(b, who)).result.body).toEqual({ status: "two_factor", redirect: "/dashboard/links" });
    expect(b.cookie("plinth_session")).toBeUndefined();
    expect((await b.json("POST", "/api/auth/login/two-factor", { code: totpAt(secret, new Date(), 1) })).status).toBe(200);
  });

  it("refuses a suspended account with the suspension message: no Google identity linked, no session, no mail", async () => {
    const suspend = (userId: string) => t.deps.db.update(users).set({ suspendedAt: new Date(), suspensionReason: "Fraud" }).where(eq(users.id, userId)).run();
    const refused = { status: 403, body: { error: { message: SUSPENSION_TEXTS.signInRefused } } };

    // An account with the same address but no Google identity yet: nothing is linked to it.
    const unlinked = person();
    const { userId } = createAccount(t.deps.db, { email: unlinked.email, username: `susp_${n}`, passwordHash: await hashPassword("Sturdy-Password-42"), emailVerified: false, now: new Date() });
    suspend(userId);
    const b = browser(t);
    expect((await viaGoogle(b, unlinked)).result).toMatchObject(refused);
    expect(t.deps.db.select().from(users).where(eq(users.id, userId)).get()).toMatchObject({ googleSub: null, emailVerified: false });
    expect(readOutbox(t.deps.env.OUTBOX_DIR).filter((m) => m.to === unlinked.email)).toHaveLength(0);
    expect(b.cookie("plinth_session")).toBeUndefined();

    // An account Google already signs in to.
    const linked = person();
    suspend(googleAccount(t, linked, "susg").userId);
    const c = browser(t);
    expect((await viaGoogle(c, linked)).result).toMatchObject(refused);
    expect(c.cookie("plinth_session")).toBeUndefined();
    expect(t.deps.db.select().from(sessions).all()).toHaveLength(0);
    expect(t.deps.db.select().from(signupAttempts).all()).toHaveLength(0);
  });

  it("rejects a forged state, a swapped nonce or verifier, a replayed answer and a provider error", async () => {
    const who = person();
    const forged = await viaGoogle(browser(t), who, "", (q) => q.set("state", "forged-state"));
    expect(forged.result).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.providerFailed } } });

    for (const field of ["nonce", "verifier"] as const) {
      const b = browser(t);
      const { callback } = await providerAnswer(b, who);
      const flow = readFlowCookie(b.cookie("plinth_oidc")!);
      flow[field] = `${flow[field]}x`;
      // Signed with the server's own key, so it is the provider's checks that refuse it.
      b.jar.set("plinth_oidc", signFlowCookie(t, flow));
      const res = await b.json("POST", "/api/auth/google/callback", { query: callback.search });
      expect(res.status, field).toBe(400);
    }

    const b = browser(t);
    const query = (await providerAnswer(b, who)).callback.search;
    const saved = b.cookie("plinth_oidc")!;
    expect((await b.json("POST", "/api/auth/google/callback", { query })).status).toBe(200);
    // The flow cookie is used up; putting it back does not make the code usable twice.
    expect((await b.json("POST", "/api/auth/google/callback", { query })).status).toBe(400);
    b.jar.set("plinth_oidc", saved);
    expect((await b.json("POST", "/api/auth/google/callback", { query })).status).toBe(400);

    const denied = browser(t);
    await denied.call("GET", "/api/auth/google");
    expect((await denied.json("POST", "/api/auth/google/callback", { query: "?error=access_denied&state=x" })).body.error.message).toBe(AUTH_TEXT.providerFailed);
  });

  it("refuses hostile input: no flow cookie, garbage cookie, oversized query, cross-origin post", async () => {
    expect((await browser(t).json("POST", "/api/auth/google/callback", { query: "?code=x&state=y" })).status).toBe(400);
    const b = browser(t);
    b.jar.set("plinth_oidc", "%%%not-base64%%%");
    expect((await b.json("POST", "/api/auth/google/callback", { query: "?code=x&state=y" })).status).toBe(400);
    expect((await browser(t).json("POST", "/api/auth/google/callback", { query: "x".repeat(5000) })).status).toBe(400);
    const cross = await t.app.request("/api/auth/google/callback", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: JSON.stringify({ query: "?code=x" }),
    });
    expect(cross.status).toBe(403);
  });

  it("signs the flow cookie: a changed one is refused with a clear message and signs nobody in", async () => {
    const who = person();
    googleAccount(t, who, "sig");
    const b = browser(t);
    const query = (await providerAnswer(b, who, "?next=%2Fdashboard%2Fbio")).callback.search;
    const raw = b.cookie("plinth_oidc")!;
    expect(readFlowCookie(raw)).toMatchObject({ next: "/dashboard/bio" });
    // Same signature, another next (or the signature alone changed): refused.
    const [value, mac] = decodeURIComponent(raw).split(".");
    const changed = Buffer.from(JSON.stringify({ ...readFlowCookie(raw), next: "/dashboard/links" })).toString("base64url");
    for (const forged of [encodeURIComponent(`${changed}.${mac}`), encodeURIComponent(`${value}.${"A".repeat(43)}=`), value!]) {
      b.jar.set("plinth_oidc", forged);
      const res = await b.json("POST", "/api/auth/google/callback", { query });
      expect(res).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.providerFlowInvalid } } });
      expect(b.cookie("plinth_session")).toBeUndefined();
    }
    // The untouched cookie still works (the answer was not used up by the refusals).
    b.jar.set("plinth_oidc", raw);
    expect((await b.json("POST", "/api/auth/google/callback", { query })).body).toEqual({ status: "signed_in", redirect: "/dashboard/bio" });
  });

  it("the key that signs the flow survives a restart", async () => {
    const who = person();
    googleAccount(t, who, "restart");
    const b = browser(t);
    const { callback } = await providerAnswer(b, who);
    // A new process: its own connection to the same database file, its own app.
    const db = openDatabase({ path: t.deps.env.DATABASE_PATH });
    try {
      const restarted = createServerApp({ ...t.deps, db });
      const res = await restarted.request("/api/auth/google/callback", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin", Cookie: `plinth_oidc=${b.cookie("plinth_oidc")}` },
        body: JSON.stringify({ query: callback.search }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "signed_in" });
    } finally {
      closeDatabase(db);
    }
  });

  it("checks the page to return to again at the callback, whatever the cookie holds", async () => {
    const who = person();
    googleAccount(t, who, "back");
    for (const next of ["//evil.example", "/dashboard/../\\evil.example", "/dashboard\\evil", "javascript:alert(1)", "https://evil.example/dashboard", "/dashboard/\u0000x"]) {
      const b = browser(t);
      const { callback } = await providerAnswer(b, who);
      b.jar.set("plinth_oidc", signFlowCookie(t, { ...readFlowCookie(b.cookie("plinth_oidc")!), next }));
      const res = await b.json("POST", "/api/auth/google/callback", { query: callback.search });
      expect(res.body, next).toEqual({ status: "signed_in", redirect: "/dashboard/links" });
    }
  });

  it("never redirects outside the dashboard after sign-in", async () => {
    const who = person();
    googleAccount(t, who, "next");
    for (const next of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)"]) {
      const { result } = await viaGoogle(browser(t), who, `?next=${encodeURIComponent(next)}`);
      expect(result.body.redirect, next).toBe("/dashboard/links");
    }
  });
});

/**
 * The same flows against two providers (issue 35): oauth2-mock-server, whose ID token carries the
 * e-mail, and oidc-provider, an OpenID-certified provider in its default configuration, whose ID
 * token carries only the subject (the e-mail is in UserInfo) and which refuses Google's own
 * `prompt=select_account`. Sign-up, the returning sign-in and every tampering are refused alike.
 */
interface Issuer {
  name: string;
  url: () => string;
  /** The provider's answer to `authorize` for `who`: the address it sends the browser back to. */
  answer(authorize: URL, who: Record<string, unknown>): Promise<URL>;
}

let certified: OidcProviderServer;
beforeAll(async () => {
  certified = await startOidcProvider({ clientId: "plinth-test-client", redirectUri: `${TEST_ORIGIN}/auth/callback` });
});
afterAll(async () => {
  await certified.stop();
});

const ISSUERS: Issuer[] = [
  {
    name: "oauth2-mock-server",
    url: () => provider.issuer.url!,
    async answer(authorize, who) {
      identity = who;
      const res = await fetch(authorize, { redirect: "manual" });
      return new URL(res.headers.get("location")!);
    },
  },
  {
    name: "oidc-provider",
    url: () => certified.issuer,
    async answer(authorize, who) {
      certified.signInAs(who);
      // Its interaction and resume steps, with the cookies a browser would keep on its host.
      const jar = new Map<string, string>();
      let at = authorize;
      for (let hop = 0; hop < 10; hop++) {
        const res = await fetch(at, { redirect: "manual", headers: { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
        for (const line of res.headers.getSetCookie()) {
          const [pair] = line.split(";");
          const eq = pair!.indexOf("=");
          jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
        }
        const location = res.headers.get("location");
        if (!location) throw new Error(`the provider answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
        at = new URL(location, at);
        if (at.href.startsWith(`${TEST_ORIGIN}/auth/callback`)) return at;
      }
      throw new Error("the provider never sent the browser back");
    },
  },
];

describe.each(ISSUERS)("against $name", (issuer) => {
  let app: TestApp;
  beforeEach(() => {
    app = createTestApp({ OIDC_CLIENT_ID: "plinth-test-client", OIDC_ISSUER: issuer.url() });
  });
  afterEach(() => app.close());

  async function answer(b: Browser, who: Record<string, unknown>, startQuery = "") {
    const start = await b.call("GET", `/api/auth/google${startQuery}`);
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get("location")!);
    return { authorize, callback: await issuer.answer(authorize, who) };
  }
  const post = (b: Browser, callback: URL) => b.json("POST", "/api/auth/google/callback", { query: callback.search });
  const nothingStored = () => {
    expect(app.deps.db.select().from(users).all()).toHaveLength(0);
    expect(app.deps.db.select().from(sessions).all()).toHaveLength(0);
  };

  it("sends no prompt to a provider that is not Google, and labels the button for single sign-on", async () => {
    const { authorize } = await answer(browser(app), person());
    expect(authorize.searchParams.has("prompt")).toBe(false);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(await (await app.app.request("/api/auth/providers")).json()).toEqual({ google: true, label: "Continue with single sign-on", googleLogo: false });
  });

  it("a new user signs up with the verified address; next time the provider signs them straight in", async () => {
    const who = person();
    const b = browser(app);
    const { callback } = await answer(b, who);
    expect(await post(b, callback)).toEqual({ status: 200, body: { status: "signup", redirect: "/auth/signup", email: who.email, username: null } });
    const name = `cert_${n}`;
    expect((await b.json("POST", "/api/auth/signup/username", { username: name })).status).toBe(200);
    expect((await b.json("POST", "/api/auth/signup/complete", { plan: "lite", agreedToTerms: true })).status).toBe(201);
    expect(app.deps.db.select().from(users).where(eq(users.email, who.email)).get()).toMatchObject({ googleSub: who.sub, passwordHash: null, emailVerified: true });

    const again = browser(app);
    expect(await post(again, (await answer(again, who, "?next=%2Fdashboard%2Fbio")).callback)).toEqual({ status: 200, body: { status: "signed_in", redirect: "/dashboard/bio" } });
    expect((await again.json("GET", "/api/me")).body.username).toBe(name);
  });

  it("refuses an address the provider has not verified", async () => {
    const b = browser(app);
    expect(await post(b, (await answer(b, { ...person(), email_verified: false })).callback)).toMatchObject({ status: 400, body: { error: { message: AUTH_TEXT.providerEmailUnverified } } });
    nothingStored();
  });

  it("refuses a forged state, a changed nonce or verifier, a code swapped in from another sign-in and another issuer, storing nothing", async () => {
    const who = person();
    const refused = { status: 400, body: { error: { message: AUTH_TEXT.providerFailed } } };

    const forged = browser(app);
    const state = (await answer(forged, who)).callback;
    state.searchParams.set("state", "forged-state");
    expect(await post(forged, state)).toMatchObject(refused);

    for (const field of ["nonce", "verifier"] as const) {
      const b = browser(app);
      const { callback } = await answer(b, who);
      b.jar.set("plinth_oidc", signFlowCookie(app, { ...readFlowCookie(b.cookie("plinth_oidc")!), [field]: `${readFlowCookie(b.cookie("plinth_oidc")!)[field]}x` }));
      expect(await post(b, callback), field).toMatchObject(refused);
    }

    // The victim's browser posts a code the attacker's sign-in got (with the victim's own state): PKCE refuses it.
    const victim = browser(app);
    const victims = (await answer(victim, who)).callback;
    const attacker = browser(app);
    const attackers = (await answer(attacker, person())).callback;
    const swapped = new URL(victims);
    swapped.searchParams.set("code", attackers.searchParams.get("code")!);
    expect(await post(victim, swapped)).toMatchObject(refused);

    // An answer that says it comes from another issuer (RFC 9207 `iss`).
    const b = browser(app);
    const callback = (await answer(b, who)).callback;
    callback.searchParams.set("iss", "https://evil.example");
    expect(await post(b, callback)).toMatchObject(refused);

    nothingStored();
    expect(app.deps.db.select().from(signupAttempts).all()).toHaveLength(0);
  });
});

describe("the provider's settings (issue 35)", () => {
  const base = { NODE_ENV: "test", DATA_DIR: "/tmp/unused", PUBLIC_ORIGIN: "https://plinth.example" };

  it("reads OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_BUTTON_LABEL, with the GOOGLE_* names as aliases", () => {
    expect(oidcSettings(parseEnv(base))).toBeNull();
    expect(oidcSettings(parseEnv({ ...base, OIDC_CLIENT_ID: "id", OIDC_CLIENT_SECRET: "s" }))).toEqual({
      issuer: "https://accounts.google.com",
      clientId: "id",
      clientSecret: "s",
      redirectUri: "https://plinth.example/auth/callback",
      label: "Continue with Google",
      google: true,
    });
    expect(oidcSettings(parseEnv({ ...base, GOOGLE_CLIENT_ID: "old-id", GOOGLE_CLIENT_SECRET: "old-s", GOOGLE_ISSUER: "https://sso.example.com" }))).toMatchObject({
      issuer: "https://sso.example.com",
      clientId: "old-id",
      clientSecret: "old-s",
      label: "Continue with single sign-on",
      google: false,
    });
    expect(oidcSettings(parseEnv({ ...base, OIDC_CLIENT_ID: "id", OIDC_ISSUER: "https://sso.example.com", OIDC_BUTTON_LABEL: " Sign in with Acme " }))).toMatchObject({ label: "Sign in with Acme", google: false });
    // The same value under both names is fine; two different ones are refused at boot, naming the older one.
    expect(oidcSettings(parseEnv({ ...base, OIDC_CLIENT_ID: "id", GOOGLE_CLIENT_ID: "id" }))).toMatchObject({ clientId: "id" });
    expect(() => parseEnv({ ...base, OIDC_CLIENT_ID: "id", GOOGLE_CLIENT_ID: "other" })).toThrow("GOOGLE_CLIENT_ID: is the older name of OIDC_CLIENT_ID, which is set to something else: keep only OIDC_CLIENT_ID");
    expect(() => parseEnv({ ...base, OIDC_CLIENT_ID: "id", OIDC_BUTTON_LABEL: "x".repeat(61) })).toThrow("OIDC_BUTTON_LABEL: must be 60 characters or fewer");
    expect(() => parseEnv({ ...base, OIDC_CLIENT_ID: "id", OIDC_BUTTON_LABEL: "Sign\u202ein" })).toThrow("OIDC_BUTTON_LABEL: must not hold control or invisible characters");
  });

  it("names the provider for the mail that says it was linked: Google, the label's name, OIDC_PROVIDER_NAME, or the issuer's host (ADR 202)", () => {
    expect(parseEnv({ ...base, OIDC_CLIENT_ID: "id" }).OIDC_PROVIDER_NAME).toBe("Google");
    expect(parseEnv({ ...base, OIDC_CLIENT_ID: "id", OIDC_ISSUER: "https://sso.example.com", OIDC_BUTTON_LABEL: "Continue with Acme ID" }).OIDC_PROVIDER_NAME).toBe("Acme ID");
    expect(parseEnv({ ...base, OIDC_CLIENT_ID: "id", OIDC_ISSUER: "https://sso.example.com", OIDC_BUTTON_LABEL: "Sign in with Keycloak" }).OIDC_PROVIDER_NAME).toBe("Keycloak");
    expect(parseEnv({ ...base, OIDC_CLIENT_ID: "id", OIDC_ISSUER: "https://sso.example.com", OIDC_BUTTON_LABEL: "Staff login" }).OIDC_PROVIDER_NAME).toBe("sso.example.com");
    expect(parseEnv({ ...base, OIDC_CLIENT_ID: "id", OIDC_ISSUER: "https://sso.example.com" }).OIDC_PROVIDER_NAME).toBe("sso.example.com");
    expect(parseEnv({ ...base, OIDC_CLIENT_ID: "id", OIDC_ISSUER: "https://sso.example.com", OIDC_PROVIDER_NAME: " Acme Workforce " }).OIDC_PROVIDER_NAME).toBe("Acme Workforce");
    expect(() => parseEnv({ ...base, OIDC_PROVIDER_NAME: "x".repeat(41) })).toThrow("OIDC_PROVIDER_NAME: must be 40 characters or fewer");
    expect(() => parseEnv({ ...base, OIDC_PROVIDER_NAME: "Acme\nID" })).toThrow("OIDC_PROVIDER_NAME: must not hold control or invisible characters");
  });

  it("keeps the mail's text for Google word for word, and names any other provider throughout (ADR 048, 202)", () => {
    const at = new Date("2026-11-28T10:30:00Z");
    const google = providerLinkedMail("ada@gmail.example", "https://plinth.example", at, "support@plinth.example", { name: "Google", label: "Continue with Google" });
    expect(google).toEqual({
      to: "ada@gmail.example",
      subject: "Google sign-in was added to your Plinth account",
      text: [
        `On November 28, 2026 at 10:30 UTC someone signed in to your Plinth account with "Continue with Google", using the Google account for ada@gmail.example.`,
        "From now on that Google account signs in to Plinth too. Your password still works as before.",
        "",
        "If this was you, there is nothing to do.",
        "",
        "If it was not you, someone has access to a Google account with your email address. Then:",
        "1. Reset your Plinth password, which signs out every session: https://plinth.example/auth/forgot-password",
        "2. Sign in and turn on two-factor authentication, so Google alone no longer lets anyone in: https://plinth.example/dashboard/account-settings?tab=security",
        "3. Secure your Google account, and write to support@plinth.example if you want Google sign-in removed from your Plinth account.",
      ].join("\n"),
    });
    const acme = providerLinkedMail("ada@acme.example", "https://plinth.example", at, "support@plinth.example", { name: "Acme ID", label: "Continue with Acme ID" });
    expect(acme.subject).toBe("Acme ID sign-in was added to your Plinth account");
    expect(acme.text).toContain('with "Continue with Acme ID", using the Acme ID account for ada@acme.example.');
    expect(acme.text).toContain("so Acme ID alone no longer lets anyone in");
    expect(acme.text).toContain("if you want Acme ID sign-in removed from your Plinth account.");
    expect(acme.text).not.toContain("Google");
  });

  it("asks only Google's issuer to let the person pick an account (prompt=select_account)", () => {
    const checks = { state: "s", nonce: "n", verifier: "v" };
    const google = oidcSettings(parseEnv({ ...base, OIDC_CLIENT_ID: "id" }))!;
    const other = oidcSettings(parseEnv({ ...base, OIDC_CLIENT_ID: "id", OIDC_ISSUER: "https://accounts.google.com.evil.example" }))!;
    expect(authorizationParameters(google, checks, "c")).toMatchObject({ prompt: "select_account", state: "s", nonce: "n", code_challenge: "c", code_challenge_method: "S256" });
    expect(other.google).toBe(false);
    expect(authorizationParameters(other, checks, "c")).not.toHaveProperty("prompt");
  });
});
