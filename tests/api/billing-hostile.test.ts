/**
 * The billing and affiliate routes under attack, with an owner who has something to lose: a paid
 * subscription with invoices, an open checkout and a customer-portal session, a rewards balance and
 * a payout request. Another signed-in owner tries the victim's ids, malformed, oversized and hostile
 * bodies; a forged cross-site request carries the victim's own cookie. Every answer is a 4xx with
 * the one error shape, and not one of the victim's billing rows (here or at the provider) changes.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AFFILIATE_MESSAGES } from "#core/schemas/affiliate.ts";
import { BILLING_MESSAGES, CARD_MESSAGES } from "#core/schemas/billing.ts";
import {
  balanceRenewals,
  billingCustomers,
  invoices,
  payoutRequests,
  referralEarnings,
  subscriptionCancellations,
  testBillingCustomers,
  testBillingInvoices,
  testBillingSessions,
  testBillingSubscriptions,
  userProfiles,
} from "#db/schema.ts";
import { createTestApp, sameOrigin, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { CARDS, cardForm, eligibleOwner, requestKey } from "#tests/support/billing.ts";
import { expectErrorShape } from "#tests/support/hostile.ts";
import type { ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let victim: ApiOwner;
let attacker: ApiOwner;
/** The victim's ids an attacker might have seen or guessed. */
const ids = { invoice: "", checkout: "", portal: "", payout: "", payoutKey: "", subscription: "" };
let routes: { method: string; path: string }[] = [];

const json = async (pending: Response | Promise<Response>) => {
  const res = await pending;
  return { status: res.status, body: (await res.json()) as any };
};
const isBilling = (path: string) => path.startsWith("/api/billing/") || path.startsWith("/api/affiliate/");

/** Everything of the victim's that billing can change, at the product and at the provider. */
function victimState(): string {
  const db = t.deps.db;
  const id = victim.userId;
  const customerIds = db
    .select({ id: testBillingCustomers.id })
    .from(testBillingCustomers)
    .where(eq(testBillingCustomers.userId, id))
    .all()
    .map((r) => r.id);
  const profile = db.select().from(userProfiles).where(eq(userProfiles.userId, id)).get()!;
  return JSON.stringify({
    plan: [profile.planType, profile.subscriptionStatus, profile.currentPeriodEndDate, profile.payingSince, profile.rewardsBalanceCents, profile.updatedAt],
    customer: db.select().from(billingCustomers).where(eq(billingCustomers.userId, id)).all(),
    invoices: db.select().from(invoices).where(eq(invoices.userId, id)).all(),
    payouts: db.select().from(payoutRequests).where(eq(payoutRequests.userId, id)).all(),
    renewals: db.select().from(balanceRenewals).where(eq(balanceRenewals.userId, id)).all(),
    cancellations: db.select().from(subscriptionCancellations).where(eq(subscriptionCancellations.userId, id)).all(),
    earnings: db.select().from(referralEarnings).where(eq(referralEarnings.referrerId, id)).all(),
    providerCustomers: db.select().from(testBillingCustomers).where(inArray(testBillingCustomers.id, customerIds)).all(),
    providerSessions: db.select().from(testBillingSessions).where(inArray(testBillingSessions.customerId, customerIds)).all(),
    providerSubscriptions: db.select().from(testBillingSubscriptions).where(inArray(testBillingSubscriptions.customerId, customerIds)).all(),
    providerInvoices: db.select().from(testBillingInvoices).where(inArray(testBillingInvoices.customerId, customerIds)).all(),
  });
}

const HOSTILE = `<script>alert(1)</script>"'><img src=x onerror=alert(1)>`;

function bodies(): (string | undefined)[] {
  let deep = "1";
  for (let i = 0; i < 500; i++) deep = `{"a":[${deep}]}`;
  return [
    undefined,
    "",
    "{",
    "null",
    "[]",
    '"text"',
    '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    deep,
    JSON.stringify({ otherText: "x".repeat(70 * 1024) }),
    JSON.stringify({
      // What each billing form takes, filled with the victim's ids and hostile values.
      userId: victim.userId,
      customerId: ids.subscription,
      subscriptionId: ids.subscription,
      invoiceId: ids.invoice,
      sessionId: ids.checkout,
      requestKey: ids.payoutKey,
      amount: 1e308,
      payoutEmail: `${HOSTILE}@paypal.example`,
      months: 1e9,
      totalCost: -1,
      reason: HOSTILE,
      otherText: HOSTILE,
      feature: "__proto__",
      returnPath: "javascript:alert(1)",
      number: CARDS.ok,
      expiry: "12 / 34",
      cvc: "123",
      name: HOSTILE,
    }),
  ];
}

function paths(path: string): string[] {
  if (!path.includes(":")) return [path];
  const values = [ids.invoice, ids.checkout, ids.portal, ids.payout, "nope", "..%2F..%2Fetc%2Fpasswd", "x".repeat(300), "%00", "1 OR 1=1"];
  return values.map((v) => path.replace(/:[A-Za-z]+/g, v));
}

beforeAll(async () => {
  t = createTestApp();
  victim = await eligibleOwner(t, 5000);
  const payout = await json(victim.call("POST", "/api/affiliate/payouts", { amount: 20, payoutEmail: "victim@paypal.example", requestKey: requestKey() }));
  expect(payout.status, "victim setup").toBe(201);
  ids.payout = payout.body.payout.id;
  ids.payoutKey = t.deps.db.select().from(payoutRequests).where(eq(payoutRequests.id, ids.payout)).get()!.requestKey!;
  ids.invoice = t.deps.db.select().from(invoices).where(eq(invoices.userId, victim.userId)).get()!.id;
  ids.subscription = t.deps.db.select().from(billingCustomers).where(eq(billingCustomers.userId, victim.userId)).get()!.subscriptionId!;
  const portal = await json(victim.call("POST", "/api/billing/portal"));
  ids.portal = new URL(portal.body.url).searchParams.get("session")!;
  // An open checkout of the victim's: made while Lite, before the subscription, is the realistic
  // case; here one is made directly at the provider for the victim's customer.
  const customerId = t.deps.db.select().from(billingCustomers).where(eq(billingCustomers.userId, victim.userId)).get()!.customerId;
  const session = await (await import("#api/services/billing.ts")).billingFor(t.deps).provider.createCheckoutSession({
    customerId,
    userId: victim.userId,
    amountCents: 899,
    successUrl: `${TEST_ORIGIN}/dashboard`,
    cancelUrl: `${TEST_ORIGIN}/dashboard`,
  });
  ids.checkout = session.id;

  attacker = await eligibleOwner(t, 5000);

  routes = t.app.routes.filter((r) => isBilling(r.path) && !r.path.endsWith("*") && r.method !== "ALL").map((r) => ({ method: r.method, path: r.path }));
});
afterAll(() => t.close());

describe("billing and affiliate routes under hostile input", () => {
  it("finds every billing and affiliate route", () => {
    const found = routes.map((r) => `${r.method} ${r.path}`);
    for (const route of [
      "GET /api/billing/subscription",
      "POST /api/billing/checkout",
      "POST /api/billing/cancel",
      "POST /api/billing/resume",
      "POST /api/billing/portal",
      "GET /api/billing/invoices",
      "GET /api/billing/invoices/:id",
      "POST /api/billing/webhook",
      "GET /api/billing/test/sessions/:id",
      "POST /api/billing/test/sessions/:id/pay",
      "POST /api/billing/test/sessions/:id/payment-method",
      "GET /api/affiliate/dashboard",
      "GET /api/affiliate/earnings",
      "GET /api/affiliate/eligibility",
      "GET /api/affiliate/payouts",
      "POST /api/affiliate/payouts",
      "POST /api/affiliate/renewals",
    ]) {
      expect(found).toContain(route);
    }
  });

  it("answers another owner's hostile requests with a 4xx, never a 500, and the victim's billing is untouched", async () => {
    const before = victimState();
    for (const r of routes) {
      for (const path of paths(r.path)) {
        for (const body of bodies()) {
          const res = await t.app.request(path, {
            method: r.method,
            headers: sameOrigin({ Cookie: attacker.cookie }),
            ...(body === undefined || r.method === "GET" ? {} : { body }),
          });
          expectErrorShape(res.status, await res.text(), `${r.method} ${path} ${String(body).slice(0, 40)}`);
        }
      }
    }
    expect(victimState()).toBe(before);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  }, 120_000);

  it("answers the victim's invoice, checkout and portal ids as unknown to another owner", async () => {
    const before = victimState();
    const invoice = await json(attacker.call("GET", `/api/billing/invoices/${ids.invoice}`));
    expect(invoice).toMatchObject({ status: 404, body: { error: { message: BILLING_MESSAGES.invoiceNotFound } } });
    for (const session of [ids.checkout, ids.portal]) {
      const seen = await json(attacker.call("GET", `/api/billing/test/sessions/${session}`));
      expect(seen).toMatchObject({ status: 404, body: { error: { message: CARD_MESSAGES.sessionNotFound } } });
    }
    // Paying the victim's checkout, or putting a card on the victim's account, as someone else.
    const pay = await json(attacker.call("POST", `/api/billing/test/sessions/${ids.checkout}/pay`, cardForm(CARDS.ok)));
    expect(pay).toMatchObject({ status: 404, body: { error: { message: CARD_MESSAGES.sessionNotFound } } });
    const card = await json(attacker.call("POST", `/api/billing/test/sessions/${ids.portal}/payment-method`, cardForm(CARDS.declineRenewals)));
    expect(card).toMatchObject({ status: 404, body: { error: { message: CARD_MESSAGES.sessionNotFound } } });
    // The victim's payout is not in the attacker's list, and replaying its key makes the attacker's own.
    expect((await json(attacker.call("GET", "/api/affiliate/payouts"))).body.payouts.map((p: { id: string }) => p.id)).not.toContain(ids.payout);
    expect(victimState()).toBe(before);
  });

  it("refuses bodies over the JSON limit with 413 and the message, before anything is written", async () => {
    const before = victimState();
    const big = JSON.stringify({ amount: 25, payoutEmail: "v@paypal.example", requestKey: requestKey(), pad: "x".repeat(200 * 1024) });
    for (const path of ["/api/affiliate/payouts", "/api/affiliate/renewals", "/api/billing/cancel", "/api/billing/checkout", `/api/billing/test/sessions/${ids.portal}/payment-method`]) {
      const res = await json(victim.call("POST", path, big));
      expect(res, path).toMatchObject({ status: 413, body: { error: { message: "Request body is too large" } } });
    }
    expect(victimState()).toBe(before);
  });

  it("refuses malformed JSON with 400 and writes nothing", async () => {
    const before = victimState();
    for (const path of ["/api/affiliate/payouts", "/api/affiliate/renewals", "/api/billing/cancel", "/api/billing/checkout", `/api/billing/test/sessions/${ids.portal}/payment-method`]) {
      const res = await json(victim.call("POST", path, "{\"amount\": 25,"));
      expect(res.status, path).toBe(400);
      expect(typeof res.body.error.message, path).toBe("string");
    }
    expect(victimState()).toBe(before);
  });

  it("keeps hostile text out: scripts in the PayPal e-mail are refused, a cancel reason outside the list too", async () => {
    const before = victimState();
    const payout = await json(victim.call("POST", "/api/affiliate/payouts", { amount: 25, payoutEmail: `${HOSTILE}@paypal.example`, requestKey: requestKey() }));
    expect(payout).toMatchObject({ status: 400, body: { error: { message: AFFILIATE_MESSAGES.paypalInvalid } } });
    const cancel = await json(victim.call("POST", "/api/billing/cancel", { reason: HOSTILE }));
    expect(cancel.status).toBe(400);
    const checkout = await json(victim.call("POST", "/api/billing/checkout", { returnPath: "javascript:alert(1)" }));
    expect(checkout.status).toBe(400);
    expect(victimState()).toBe(before);
  });

  it("refuses every state-changing billing request from another site that carries the victim's cookie (403)", async () => {
    const before = victimState();
    const bodyFor: Record<string, unknown> = {
      "/api/billing/cancel": { reason: "Too expensive" },
      "/api/affiliate/payouts": { amount: 25, payoutEmail: "attacker@paypal.example", requestKey: requestKey() },
      "/api/affiliate/renewals": { months: 1, requestKey: requestKey() },
    };
    const forged: Record<string, string>[] = [{ Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }, { Origin: "null" }, { Origin: `${TEST_ORIGIN}.evil.example` }, {}];
    for (const r of routes.filter((x) => x.method !== "GET")) {
      const path = r.path.replace(":id", r.path.includes("/pay") ? ids.checkout : ids.portal);
      for (const headers of forged) {
        const body = bodyFor[path] ?? (path.includes("/test/") ? cardForm(CARDS.ok) : {});
        const res = await t.app.request(path, { method: r.method, headers: { "Content-Type": "application/json", Cookie: victim.cookie, ...headers }, body: JSON.stringify(body) });
        // The webhook takes no cookie: a signature is its only proof, so it says 400 or 403, never yes.
        if (path === "/api/billing/webhook") expect([400, 403], `${path} ${JSON.stringify(headers)}`).toContain(res.status);
        else expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect(victimState()).toBe(before);
  });

  it("answers every owner route without a session with 401", async () => {
    // The webhooks (test mode's and Stripe's) take no session: a signature is their proof.
    for (const r of routes.filter((x) => !x.path.endsWith("/webhook"))) {
      const path = r.path.replace(":id", ids.checkout);
      const res = await t.app.request(path, { method: r.method, headers: sameOrigin(), ...(r.method === "GET" ? {} : { body: "{}" }) });
      expect(res.status, `${r.method} ${path}`).toBe(401);
    }
  });
});
