/**
 * Getting paid (ADR 230): an owner's Stripe Connect account, its onboarding on the provider's page
 * and back, its state from `account.updated` events (signed, applied once, late ones ignored), and
 * the Express dashboard link; with the embedded test provider and with Stripe (the real SDK against
 * the local stand-in).
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { CONNECT_MESSAGES, platformFee } from "#core/connect.ts";
import { BILLING_MESSAGES } from "#core/schemas/billing.ts";
import { billingWebhookEvents, connectAccounts, testBillingEvents, testConnectAccounts } from "#db/schema.ts";
import { parseEnv } from "#api/env.server.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { clockedApp, signed } from "#tests/support/billing.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { signedDelivery, startStripeStandIn, stripeAccount, stripeEvent, STRIPE_TEST_ENV, type StripeStandIn } from "#tests/support/stripe.ts";

let t: TestApp;
let stripe: StripeStandIn | undefined;
afterEach(async () => {
  await t.close();
  await stripe?.close();
  stripe = undefined;
});

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const accountRow = (userId: string) => t.deps.db.select().from(connectAccounts).where(eq(connectAccounts.userId, userId)).get();
const linkIdOf = (url: string) => new URL(url).searchParams.get("link")!;
const postWebhook = (body: string, headers: Record<string, string>) => t.app.request("/api/billing/webhook", { method: "POST", body, headers });

async function startOnboarding(owner: ApiOwner): Promise<string> {
  const res = await json(await owner.call("POST", "/api/connect/onboarding"));
  expect(res.status).toBe(201);
  return res.body.url as string;
}

describe("Connect with the test provider", () => {
  it("goes from not connected to details needed to taking payments, through its onboarding page and its account.updated event", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const before = await json(await owner.call("GET", "/api/connect/account"));
    expect(before.body).toMatchObject({ state: "not_connected", label: "Not connected", chargesEnabled: false, payoutsEnabled: false, feePercent: 5, testMode: true });

    const url = await startOnboarding(owner);
    expect(url).toMatch(/^http:\/\/localhost:4321\/billing\/connect\?link=acctlink_test_/);
    expect((await json(await owner.call("GET", "/api/connect/account"))).body.state).toBe("details_needed");

    const page = await json(await owner.call("GET", `/api/connect/test/links/${linkIdOf(url)}`));
    expect(page.body).toMatchObject({ status: "open", email: `${owner.username}@example.com`, returnUrl: "http://localhost:4321/api/connect/onboarding/return" });

    const done = await json(await owner.call("POST", `/api/connect/test/links/${linkIdOf(url)}`, { outcome: "complete" }));
    expect(done.body.redirectUrl).toBe("http://localhost:4321/api/connect/onboarding/return");
    // The event was delivered to the webhook and applied before the answer.
    const events = t.deps.db.select().from(testBillingEvents).all().filter((e) => e.type === "account.updated");
    expect(events).toHaveLength(1);
    expect(events[0]!.deliveredAt).not.toBeNull();
    expect(JSON.parse(events[0]!.payload).account).toBe(accountRow(owner.userId)!.accountId);
    const after = await json(await owner.call("GET", "/api/connect/account"));
    expect(after.body).toMatchObject({ state: "enabled", label: "Can take payments", chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true });

    // Back from the provider: the Earnings screen.
    const back = await owner.call("GET", "/api/connect/onboarding/return");
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/dashboard/earnings?connect=return");
  });

  it("keeps one account per owner however often Get paid is pressed, and a used link sends the owner to a fresh one", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const first = await startOnboarding(owner);
    const second = await startOnboarding(owner);
    expect(linkIdOf(first)).not.toBe(linkIdOf(second));
    expect(t.deps.db.select().from(connectAccounts).all()).toHaveLength(1);
    expect(t.deps.db.select().from(testConnectAccounts).all()).toHaveLength(1);

    // "Later": the details stay needed; the link is spent, so pressing again goes to the refresh url.
    const later = await json(await owner.call("POST", `/api/connect/test/links/${linkIdOf(first)}`, { outcome: "later" }));
    expect(later.body.redirectUrl).toBe("http://localhost:4321/api/connect/onboarding/return");
    const again = await json(await owner.call("POST", `/api/connect/test/links/${linkIdOf(first)}`, { outcome: "complete" }));
    expect(again.body.redirectUrl).toBe("http://localhost:4321/api/connect/onboarding/refresh");
    expect((await json(await owner.call("GET", "/api/connect/account"))).body.state).toBe("details_needed");

    // The refresh url makes a new link and goes there.
    const refresh = await owner.call("GET", "/api/connect/onboarding/refresh");
    expect(refresh.status).toBe(303);
    expect(refresh.headers.get("location")).toMatch(/\/billing\/connect\?link=acctlink_test_/);
  });

  it("sends an expired onboarding link to its refresh url, by the app's clock", async () => {
    const clocked = clockedApp("2026-11-28T10:00:00Z");
    t = clocked.t;
    const owner = createApiOwner(t, "plus");
    const url = await startOnboarding(owner);
    clocked.setClock("2026-11-28T10:16:00Z");
    expect((await json(await owner.call("GET", `/api/connect/test/links/${linkIdOf(url)}`))).body.status).toBe("expired");
    const res = await json(await owner.call("POST", `/api/connect/test/links/${linkIdOf(url)}`, { outcome: "complete" }));
    expect(res.body.redirectUrl).toBe("http://localhost:4321/api/connect/onboarding/refresh");
    expect(accountRow(owner.userId)!.chargesEnabled).toBe(false);
  });

  it("answers another owner's onboarding link as unknown, and refuses hostile ids and outcomes", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const other = createApiOwner(t, "plus");
    const id = linkIdOf(await startOnboarding(owner));
    for (const res of [await other.call("GET", `/api/connect/test/links/${id}`), await other.call("POST", `/api/connect/test/links/${id}`, { outcome: "complete" })]) {
      const r = await json(res);
      expect(r.status).toBe(404);
      expect(r.body.error.message).toBe(CONNECT_MESSAGES.linkNotFound);
    }
    expect(accountRow(owner.userId)!.chargesEnabled).toBe(false);
    expect((await owner.call("GET", `/api/connect/test/links/${"x".repeat(101)}`)).status).toBe(404);
    expect((await owner.call("POST", `/api/connect/test/links/${id}`, { outcome: "<script>" })).status).toBe(400);
    expect((await owner.call("POST", `/api/connect/test/links/${id}`, "{")).status).toBe(400);
    // Signed out: no account, no onboarding.
    expect((await t.app.request("/api/connect/account")).status).toBe(401);
    expect((await t.app.request("/api/connect/onboarding", { method: "POST", headers: { "Sec-Fetch-Site": "same-origin" } })).status).toBe(401);
  });

  it("opens the Express dashboard only once onboarding is done", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const none = await json(await owner.call("POST", "/api/connect/dashboard"));
    expect(none).toMatchObject({ status: 409, body: { error: { message: CONNECT_MESSAGES.notConnected } } });
    const url = await startOnboarding(owner);
    const early = await json(await owner.call("POST", "/api/connect/dashboard"));
    expect(early).toMatchObject({ status: 409, body: { error: { message: CONNECT_MESSAGES.notOnboarded } } });
    await owner.call("POST", `/api/connect/test/links/${linkIdOf(url)}`, { outcome: "complete" });
    const ok = await json(await owner.call("POST", "/api/connect/dashboard"));
    expect(ok.status).toBe(201);
    expect(ok.body.url).toMatch(/\/billing\/connect\/dashboard\?account=acct_test_/);
  });
});

describe("Connect events on the webhook", () => {
  async function connectedOwner() {
    const owner = createApiOwner(t, "plus");
    await startOnboarding(owner);
    return { owner, accountId: accountRow(owner.userId)!.accountId };
  }
  const accountEvent = (accountId: string, patch: Partial<{ charges_enabled: boolean; payouts_enabled: boolean; details_submitted: boolean; details_needed: boolean }>, id = `evt_test_${Math.random().toString(36).slice(2)}`, created = Date.now()) =>
    JSON.stringify({
      id,
      created,
      type: "account.updated",
      account: accountId,
      data: { object: { object: "account", id: accountId, details_submitted: true, charges_enabled: true, payouts_enabled: false, details_needed: false, ...patch } },
    });

  it("refuses a forged, missing or stale signature with 400 and changes nothing", async () => {
    t = createTestApp();
    const { owner, accountId } = await connectedOwner();
    const body = accountEvent(accountId, {});
    const cases: Record<string, string>[] = [
      { "Content-Type": "application/json" },
      { "Content-Type": "application/json", "Plinth-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
      signed(t, body, new Date(Date.now() - 10 * 60 * 1000)),
      // Signed for another body.
      { ...signed(t, accountEvent(accountId, { payouts_enabled: true })) },
    ];
    for (const headers of cases) {
      const res = await json(await postWebhook(body, headers));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(BILLING_MESSAGES.webhookSignature);
    }
    expect(accountRow(owner.userId)!.chargesEnabled).toBe(false);
    expect(t.deps.db.select().from(billingWebhookEvents).all()).toHaveLength(0);
  });

  it("applies a replayed event once, records each event with its effect, and ignores a late one about an older state", async () => {
    t = createTestApp();
    const { owner, accountId } = await connectedOwner();
    const body = accountEvent(accountId, { payouts_enabled: false }, "evt_test_connect_1", Date.now());
    const replies = await Promise.all([postWebhook(body, signed(t, body)), postWebhook(body, signed(t, body))]);
    const answers = await Promise.all(replies.map((r) => r.json()));
    expect(answers.map((a: any) => a.duplicate).sort()).toEqual([false, true]);
    expect(accountRow(owner.userId)).toMatchObject({ chargesEnabled: true, payoutsEnabled: false });
    expect(t.deps.db.select().from(billingWebhookEvents).where(eq(billingWebhookEvents.id, "evt_test_connect_1")).all()).toHaveLength(1);

    // An event made before the one applied, arriving after it, changes nothing.
    const older = accountEvent(accountId, { charges_enabled: false }, "evt_test_connect_0", Date.now() - 60_000);
    expect((await postWebhook(older, signed(t, older))).status).toBe(200);
    expect(accountRow(owner.userId)!.chargesEnabled).toBe(true);
    // A newer one does.
    const newer = accountEvent(accountId, { payouts_enabled: true }, "evt_test_connect_2", Date.now() + 1000);
    expect((await postWebhook(newer, signed(t, newer))).status).toBe(200);
    expect(accountRow(owner.userId)!.payoutsEnabled).toBe(true);
    expect((await json(await owner.call("GET", "/api/connect/account"))).body.state).toBe("enabled");
  });

  it("changes nothing for an unknown account, or an event whose object is another account than its own", async () => {
    t = createTestApp();
    const { owner, accountId } = await connectedOwner();
    const other = await connectedOwner();
    const unknown = accountEvent("acct_test_nobody", {});
    expect((await postWebhook(unknown, signed(t, unknown))).status).toBe(200);
    // Says it is about the owner's account, but carries the other account's object.
    const mixed = JSON.stringify({ ...JSON.parse(accountEvent(other.accountId, {})), account: accountId });
    expect((await postWebhook(mixed, signed(t, mixed))).status).toBe(200);
    expect(accountRow(owner.userId)!.chargesEnabled).toBe(false);
    expect(accountRow(other.owner.userId)!.chargesEnabled).toBe(false);
  });

  it("refuses a signed Connect event that is malformed or hostile with 400, and records nothing", async () => {
    t = createTestApp();
    const { owner, accountId } = await connectedOwner();
    const good = JSON.parse(accountEvent(accountId, {}));
    const bad = [
      { ...good, type: "account.deleted" },
      { ...good, account: "x".repeat(101) },
      { ...good, data: { object: { ...good.data.object, charges_enabled: "yes" } } },
      { ...good, created: -1 },
      { ...good, id: "" },
    ];
    for (const event of bad) {
      const body = JSON.stringify(event);
      const res = await json(await postWebhook(body, signed(t, body)));
      expect(res.status, body).toBe(400);
      expect(res.body.error.message).toBe(BILLING_MESSAGES.webhookPayload);
    }
    expect(accountRow(owner.userId)!.chargesEnabled).toBe(false);
    expect(t.deps.db.select().from(billingWebhookEvents).all()).toHaveLength(0);
  });
});

describe("Connect with Stripe", () => {
  const CONNECT_SECRET = "whsec_PlinthConnectStandInSecret00";
  const stripeApp = async (extra: Record<string, string> = { STRIPE_CONNECT: "1", STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET }) => {
    stripe = await startStripeStandIn();
    t = createTestApp({ ...STRIPE_TEST_ENV, STRIPE_API_BASE: stripe.base, ...extra });
  };
  const deliverConnect = async (event: object, secret = CONNECT_SECRET) => {
    const { payload, header } = signedDelivery(event, { secret });
    return json(await t.app.request("/api/connect/stripe/webhook", { method: "POST", body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": header } }));
  };
  const connectEvent = (type: string, object: object, account: string, created = Math.floor(Date.now() / 1000) - 1) => ({ ...stripeEvent(type, object, created), account });

  it("makes an Express account once per owner and an onboarding Account Link with the return and refresh urls", async () => {
    await stripeApp();
    const owner = createApiOwner(t, "plus");
    const url = await startOnboarding(owner);
    await startOnboarding(owner);
    expect(url).toMatch(/^https:\/\/connect\.stripe\.com\/setup\/e\/acct_/);
    const created = stripe!.calls.filter((c) => c.path === "/v1/accounts");
    expect(created).toHaveLength(1);
    expect(created[0]!.params).toMatchObject({
      type: "express",
      email: `${owner.username}@example.com`,
      "metadata[userId]": owner.userId,
      "capabilities[card_payments][requested]": "true",
      "capabilities[transfers][requested]": "true",
    });
    expect(created[0]!.idempotencyKey).toBe(`plinth-connect-account-${owner.userId}`);
    const links = stripe!.calls.filter((c) => c.path === "/v1/account_links");
    expect(links).toHaveLength(2);
    expect(links[0]!.params).toEqual({
      account: accountRow(owner.userId)!.accountId,
      type: "account_onboarding",
      return_url: "http://localhost:4321/api/connect/onboarding/return",
      refresh_url: "http://localhost:4321/api/connect/onboarding/refresh",
    });
  });

  it("reads the account at once on the return, then follows account.updated; late and replayed events change nothing", async () => {
    await stripeApp();
    const owner = createApiOwner(t, "plus");
    await startOnboarding(owner);
    const id = accountRow(owner.userId)!.accountId;
    // Details sent, Stripe still verifying: pending.
    stripe!.accounts.set(id, { ...stripe!.accounts.get(id)!, details_submitted: true, requirements: { ...stripe!.accounts.get(id)!.requirements, currently_due: [] } });
    expect((await owner.call("GET", "/api/connect/onboarding/return")).status).toBe(303);
    expect((await json(await owner.call("GET", "/api/connect/account"))).body.state).toBe("pending");

    const enabled = stripeAccount({ id, email: null, onboarded: true });
    const event = connectEvent("account.updated", enabled, id);
    expect((await deliverConnect(event)).body).toEqual({ received: true, duplicate: false, ignored: false });
    expect((await deliverConnect(event)).body).toEqual({ received: true, duplicate: true, ignored: false });
    expect((await json(await owner.call("GET", "/api/connect/account"))).body).toMatchObject({ state: "enabled", payoutsEnabled: true });

    // Stripe asks for more: details needed again, and payouts stop.
    const more = stripeAccount({ id, email: null, onboarded: true, currentlyDue: ["individual.verification.document"] });
    const asked = connectEvent("account.updated", { ...more, charges_enabled: false, payouts_enabled: false }, id, Math.floor(Date.now() / 1000) + 1);
    expect((await deliverConnect(asked)).status).toBe(200);
    expect((await json(await owner.call("GET", "/api/connect/account"))).body).toMatchObject({ state: "details_needed", payoutsEnabled: false });
    // The older "enabled" state, sent again under a new id, is late: ignored.
    expect((await deliverConnect(connectEvent("account.updated", enabled, id, Math.floor(Date.now() / 1000) - 5))).status).toBe(200);
    expect(accountRow(owner.userId)!.chargesEnabled).toBe(false);
  });

  it("refuses a Connect event signed with billing's secret, a stale one and a tampered one, and acknowledges events it has no state for", async () => {
    await stripeApp();
    const owner = createApiOwner(t, "plus");
    await startOnboarding(owner);
    const id = accountRow(owner.userId)!.accountId;
    const event = connectEvent("account.updated", stripeAccount({ id, email: null, onboarded: true }), id);
    expect((await deliverConnect(event, STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET)).status).toBe(400);
    const stale = signedDelivery(event, { secret: CONNECT_SECRET, at: new Date(Date.now() - 10 * 60 * 1000) });
    const staleRes = await t.app.request("/api/connect/stripe/webhook", { method: "POST", body: stale.payload, headers: { "Stripe-Signature": stale.header } });
    expect(staleRes.status).toBe(400);
    const fresh = signedDelivery(event, { secret: CONNECT_SECRET });
    const tampered = await t.app.request("/api/connect/stripe/webhook", { method: "POST", body: fresh.payload.replace('"charges_enabled":true', '"charges_enabled":false'), headers: { "Stripe-Signature": fresh.header } });
    expect(tampered.status).toBe(400);
    expect(accountRow(owner.userId)!.chargesEnabled).toBe(false);
    expect((await deliverConnect(connectEvent("payout.paid", { id: "po_1", object: "payout" }, id))).body).toEqual({ received: true, duplicate: false, ignored: true });
  });

  it("gives a Login Link to the Express dashboard for an onboarded account, and a 502 with the screen's message when Stripe refuses", async () => {
    await stripeApp();
    const owner = createApiOwner(t, "plus");
    await startOnboarding(owner);
    const id = accountRow(owner.userId)!.accountId;
    stripe!.accounts.set(id, stripeAccount({ id, email: null, onboarded: true }));
    await owner.call("GET", "/api/connect/onboarding/return");
    const ok = await json(await owner.call("POST", "/api/connect/dashboard"));
    expect(ok.status).toBe(201);
    expect(ok.body.url).toMatch(/^https:\/\/connect\.stripe\.com\/express\//);
    expect(stripe!.calls.some((c) => c.path === `/v1/accounts/${id}/login_links`)).toBe(true);
    stripe!.failNext(400, /login_links/);
    const failed = await json(await owner.call("POST", "/api/connect/dashboard"));
    expect(failed).toMatchObject({ status: 502, body: { error: { message: CONNECT_MESSAGES.dashboardFailed } } });
  });

  it("has no Connect webhook without STRIPE_CONNECT=1, nor with the test provider", async () => {
    await stripeApp({});
    const event = connectEvent("account.updated", stripeAccount({ email: null }), "acct_1");
    expect((await deliverConnect(event)).status).toBe(404);
    await t.close();
    t = createTestApp();
    expect((await deliverConnect(event)).status).toBe(404);
    // keeps afterEach's close() harmless
  });
});

describe("PLATFORM_FEE_PERCENT and the Connect settings", () => {
  it("defaults to 5%, is checked at boot, and the fee is rounded to the nearest unit and never above the amount", () => {
    t = createTestApp({ PLATFORM_FEE_PERCENT: "7.5" });
    expect(t.deps.env.PLATFORM_FEE_PERCENT).toBe(7.5);
    const base = { NODE_ENV: "test", DATA_DIR: t.dir, PUBLIC_ORIGIN: "http://localhost:4321" };
    expect(parseEnv(base).PLATFORM_FEE_PERCENT).toBe(5);
    for (const bad of ["-1", "51", "five"]) expect(() => parseEnv({ ...base, PLATFORM_FEE_PERCENT: bad })).toThrow(/PLATFORM_FEE_PERCENT/);
    expect(() => parseEnv({ ...base, ...STRIPE_TEST_ENV, STRIPE_CONNECT: "1" })).toThrow(/STRIPE_CONNECT_WEBHOOK_SECRET/);
    expect(() => parseEnv({ ...base, ...STRIPE_TEST_ENV, STRIPE_CONNECT: "1", STRIPE_CONNECT_WEBHOOK_SECRET: "nope" })).toThrow(/STRIPE_CONNECT_WEBHOOK_SECRET/);
    expect(() => parseEnv({ ...base, STRIPE_CONNECT: "yes" })).toThrow(/STRIPE_CONNECT/);
    expect(platformFee(500, 5)).toBe(25);
    expect(platformFee(199, 5)).toBe(10); // 9.95 rounds up
    expect(platformFee(190, 5)).toBe(10); // 9.5 rounds half up
    expect(platformFee(100, 0)).toBe(0);
    expect(platformFee(1, 50)).toBe(1);
  });
});
