/**
 * BILLING_PROVIDER=stripe end to end on the server: the real SDK talks to a local stand-in that
 * answers as Stripe's API reference documents (tests/support/stripe.ts), and Stripe-signed webhook
 * deliveries go through the real route into the same handler as test mode.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BILLING_MESSAGES, SUBSCRIPTION_TAB_PATH } from "#core/schemas/billing.ts";
import { LIMITS } from "#core/limits.ts";
import { billingCustomers, billingWebhookEvents, invoices, referralEarnings, userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createStripeProvider } from "#api/billing/stripe/provider.ts";
import { emailOf } from "#api/services/billing.ts";
import { AFFILIATE_MESSAGES } from "#core/schemas/affiliate.ts";
import { profileOf, requestKey, subscribe } from "#tests/support/billing.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import {
  signedDelivery,
  startStripeStandIn,
  stripeEvent,
  stripeInvoice,
  stripePrice,
  stripeSubscription,
  STRIPE_TEST_ENV,
  type StripeStandIn,
  type StripeSubscriptionBody,
} from "#tests/support/stripe.ts";

let t: TestApp;
let stripe: StripeStandIn;
const responses: string[] = [];

beforeEach(async () => {
  stripe = await startStripeStandIn();
  t = createTestApp({ ...STRIPE_TEST_ENV, STRIPE_API_BASE: stripe.base });
  responses.length = 0;
});
afterEach(async () => {
  t.close();
  await stripe.close();
});

const DAY = 86_400;
const nowS = () => Math.floor(Date.now() / 1000);

async function call(owner: ApiOwner, method: string, path: string, body?: unknown) {
  const res = await owner.call(method, path, body);
  const text = await res.text();
  responses.push(text);
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function deliver(event: object, opts: { at?: Date; secret?: string; header?: string; body?: string } = {}) {
  const { payload, header } = signedDelivery(event, opts);
  const res = await t.app.request("/api/billing/stripe/webhook", {
    method: "POST",
    body: opts.body ?? payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": opts.header ?? header },
  });
  const text = await res.text();
  responses.push(text);
  return { status: res.status, body: JSON.parse(text) };
}

const customerOf = (userId: string) => t.deps.db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId)).get()!;
const invoicesOf = (userId: string) => t.deps.db.select().from(invoices).where(eq(invoices.userId, userId)).all();

/** Checkout through the API, then Stripe's events for a completed session: subscription created, first invoice paid. */
/**
 * Subscribes through Checkout's webhooks. Stripe stamps events in whole seconds, which the product
 * takes as the end of that second; the default start is the second before this one, so an answer the
 * dashboard gets right after is never older than the last event, however fast the test runs.
 */
async function subscribeThroughStripe(owner: ApiOwner, created = nowS() - 1) {
  const res = await call(owner, "POST", "/api/billing/checkout", {});
  expect(res.status).toBe(201);
  const customer = customerOf(owner.userId).customerId;
  const sub = stripeSubscription({ customer, start: created, end: created + 30 * DAY });
  stripe.subscriptions.set(sub.id, sub);
  const session = { id: "cs_test_done", object: "checkout.session", mode: "subscription", customer, subscription: sub.id, client_reference_id: owner.userId, status: "complete", payment_status: "paid" };
  expect((await deliver(stripeEvent("checkout.session.completed", session, created))).status).toBe(200);
  expect((await deliver(stripeEvent("customer.subscription.created", sub, created))).status).toBe(200);
  const invoice = stripeInvoice({ customer, subscription: sub.id, status: "paid", amount: LIMITS.PLUS_PRICE_CENTS, start: created, end: created + 30 * DAY, reason: "subscription_create" });
  const paid = stripeEvent("invoice.paid", invoice, created);
  expect((await deliver(paid)).body).toEqual({ received: true, duplicate: false, ignored: false });
  return { customer, sub, invoice, paid, checkoutUrl: res.body.url as string };
}

const setSub = (sub: StripeSubscriptionBody, patch: Partial<StripeSubscriptionBody>) => {
  const next = { ...sub, ...patch };
  stripe.subscriptions.set(sub.id, next);
  return next;
};

describe("Stripe: the calls the product makes", () => {
  it("creates the customer and a subscription-mode Checkout Session with the monthly price, each with its idempotency key", async () => {
    const owner = createApiOwner(t, "lite");
    const res = await call(owner, "POST", "/api/billing/checkout", {});
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const [customer, session] = stripe.calls;
    expect(customer).toMatchObject({ method: "POST", path: "/v1/customers", idempotencyKey: `plinth-customer-${owner.userId}` });
    expect(customer!.params).toEqual({ email: emailOf(t.deps.db, owner.userId), "metadata[userId]": owner.userId });
    expect(customer!.authorization).toBe(`Bearer ${STRIPE_TEST_ENV.STRIPE_SECRET_KEY}`);
    expect(session).toMatchObject({ method: "POST", path: "/v1/checkout/sessions" });
    expect(session!.idempotencyKey).toMatch(/^plinth-checkout-[0-9a-f-]{36}$/);
    expect(session!.params).toMatchObject({
      mode: "subscription",
      customer: customerOf(owner.userId).customerId,
      client_reference_id: owner.userId,
      "line_items[0][price]": STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY,
      "line_items[0][quantity]": "1",
      success_url: `${t.deps.env.PUBLIC_ORIGIN}${SUBSCRIPTION_TAB_PATH}&checkout=success`,
      cancel_url: `${t.deps.env.PUBLIC_ORIGIN}${SUBSCRIPTION_TAB_PATH}`,
      "metadata[userId]": owner.userId,
      "subscription_data[metadata][userId]": owner.userId,
    });
    expect(customerOf(owner.userId).provider).toBe("stripe");

    // A second attempt reuses the customer and makes a new session with a new key.
    await call(owner, "POST", "/api/billing/checkout", {});
    expect(stripe.calls.map((c) => c.path)).toEqual(["/v1/customers", "/v1/checkout/sessions", "/v1/checkout/sessions"]);
    expect(stripe.calls[2]!.idempotencyKey).not.toBe(session!.idempotencyKey);
  });

  it("asks for the yearly price when checkout says year", async () => {
    const provider = createStripeProvider({
      secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
      priceMonthly: STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY,
      priceYearly: STRIPE_TEST_ENV.STRIPE_PRICE_YEARLY,
      apiBase: stripe.base,
    });
    const input = { customerId: "cus_x", userId: "u1", amountCents: 0, successUrl: "https://plinth.test/ok", cancelUrl: "https://plinth.test/back" };
    await provider.createCheckoutSession({ ...input, interval: "year" });
    await provider.createCheckoutSession(input);
    expect(stripe.calls.map((c) => c.params["line_items[0][price]"])).toEqual([STRIPE_TEST_ENV.STRIPE_PRICE_YEARLY, STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY]);
    expect(provider.testMode).toBe(true);
  });

  it("ends the subscription now at Stripe before deleting the account, and lets Stripe's late events change nothing", async () => {
    const owner = createApiOwner(t, "lite");
    const { sub } = await subscribeThroughStripe(owner);
    const res = await call(owner, "DELETE", "/api/auth/account", { confirmUsername: owner.username, endSubscription: true });
    expect(res).toEqual({ status: 200, body: { deleted: true } });
    expect(stripe.calls.at(-1)).toMatchObject({ method: "DELETE", path: `/v1/subscriptions/${sub.id}` });
    const late = await deliver(stripeEvent("customer.subscription.deleted", stripe.subscriptions.get(sub.id)!, nowS() + 1));
    expect(late.status).toBe(200);
  });

  it("opens the customer portal for the owner's customer with the Subscription tab to come back to", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribeThroughStripe(owner);
    const res = await call(owner, "POST", "/api/billing/portal");
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    const portal = stripe.calls.find((c) => c.path === "/v1/billing_portal/sessions")!;
    expect(portal.params).toEqual({ customer: customerOf(owner.userId).customerId, return_url: expect.stringMatching(new RegExp(`^${t.deps.env.PUBLIC_ORIGIN}/`)) });
  });

  it("turns months paid from the rewards balance into one customer credit keyed by the renewal", async () => {
    const owner = createApiOwner(t, "lite");
    const { customer } = await subscribeThroughStripe(owner);
    t.deps.db.update(userProfiles).set({ rewardsBalanceCents: 5000 }).where(eq(userProfiles.userId, owner.userId)).run();
    const res = await call(owner, "POST", "/api/affiliate/renewals", { months: 2, totalCost: 17.98, requestKey: requestKey() });
    expect(res.status).toBe(201);
    const credits = stripe.calls.filter((c) => c.path === `/v1/customers/${customer}/balance_transactions`);
    expect(credits).toHaveLength(1);
    expect(credits[0]!.params).toMatchObject({ amount: String(-2 * LIMITS.PLUS_PRICE_CENTS), currency: "usd", "metadata[balanceRenewalId]": expect.any(String) });
    expect(credits[0]!.idempotencyKey).toBe(`plinth-balance-renewal-${credits[0]!.params["metadata[balanceRenewalId]"]}`);
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(5000 - 2 * LIMITS.PLUS_PRICE_CENTS);
  });

  it("gives the balance back when Stripe refuses the credit", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribeThroughStripe(owner);
    t.deps.db.update(userProfiles).set({ rewardsBalanceCents: 5000 }).where(eq(userProfiles.userId, owner.userId)).run();
    stripe.subscriptions.clear();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await call(owner, "POST", "/api/affiliate/renewals", { months: 1, totalCost: 8.99, requestKey: requestKey() });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Stripe refused reading a subscription: StripeInvalidRequestError/));
    warn.mockRestore();
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe(AFFILIATE_MESSAGES.renewalFailed);
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(5000);
  });
});

describe("Stripe: the subscription's life through its webhook", () => {
  it("goes checkout → paid → past due → paid again → cancelled at period end → resumed → deleted", async () => {
    const referrer = createApiOwner(t, "plus");
    const owner = createApiOwner(t, "lite");
    t.deps.db.update(userProfiles).set({ referredBy: referrer.userId }).where(eq(userProfiles.userId, owner.userId)).run();
    const start = nowS() - 40 * DAY;
    let { customer, sub } = await subscribeThroughStripe(owner, start);
    expect(profileOf(t, owner.userId)).toMatchObject({ planType: "plus", subscriptionStatus: "active_plus" });
    expect(profileOf(t, owner.userId).currentPeriodEndDate?.getTime()).toBe((start + 30 * DAY) * 1000);
    const [first] = invoicesOf(owner.userId);
    expect(first).toMatchObject({ status: "paid", amountCents: LIMITS.PLUS_PRICE_CENTS, periodStart: new Date(start * 1000), periodEnd: new Date((start + 30 * DAY) * 1000) });
    expect(first!.invoiceUrl).toMatch(/^https:\/\/invoice\.stripe\.com\//);
    expect(profileOf(t, referrer.userId).rewardsBalanceCents).toBe(Math.round(LIMITS.PLUS_PRICE_CENTS * 0.2));

    // The renewal fails: Stripe sends the failed invoice and the subscription past due.
    const renewAt = start + 30 * DAY;
    const failed = stripeInvoice({ customer, subscription: sub.id, status: "open", amount: LIMITS.PLUS_PRICE_CENTS, start: renewAt, end: renewAt + 30 * DAY, nextAttempt: renewAt + 3 * DAY });
    await deliver(stripeEvent("invoice.payment_failed", failed, renewAt));
    sub = setSub(sub, { status: "past_due", items: { ...sub.items, data: [{ ...sub.items.data[0]!, current_period_start: renewAt, current_period_end: renewAt + 30 * DAY }] } });
    await deliver(stripeEvent("customer.subscription.updated", sub, renewAt));
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("past_due_plus");
    expect(t.outbox().some((m) => /payment/i.test(m) && m.includes(emailOf(t.deps.db, owner.userId)!))).toBe(true);

    // The card is updated in the portal and Stripe retries: paid, active again.
    const retryAt = renewAt + 3 * DAY;
    await deliver(stripeEvent("invoice.paid", { ...failed, status: "paid", amount_paid: failed.amount_due, amount_remaining: 0, attempt_count: 2, status_transitions: { ...failed.status_transitions, paid_at: retryAt } }, retryAt));
    sub = setSub(sub, { status: "active" });
    await deliver(stripeEvent("customer.subscription.updated", sub, retryAt));
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("active_plus");
    expect(invoicesOf(owner.userId).find((i) => i.id === failed.id)).toMatchObject({ status: "paid" });
    expect(profileOf(t, referrer.userId).rewardsBalanceCents).toBe(2 * Math.round(LIMITS.PLUS_PRICE_CENTS * 0.2));

    // Cancel with a reason: the subscription API is asked to cancel at the period end.
    const cancelled = await call(owner, "POST", "/api/billing/cancel", { reason: "Too expensive" });
    expect(cancelled.status).toBe(200);
    const update = stripe.calls.filter((c) => c.path === `/v1/subscriptions/${sub.id}`).at(-1)!;
    expect(update).toMatchObject({ method: "POST", params: { cancel_at_period_end: "true" } });
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("canceled_plus");
    expect(profileOf(t, owner.userId).currentPeriodEndDate?.getTime()).toBe((renewAt + 30 * DAY) * 1000);

    // Resume takes it back.
    expect((await call(owner, "POST", "/api/billing/resume")).status).toBe(200);
    expect(stripe.calls.filter((c) => c.path === `/v1/subscriptions/${sub.id}`).at(-1)!.params).toEqual({ cancel_at_period_end: "false" });
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("active_plus");

    // Stripe ends it (e.g. from the portal): back to Lite.
    const endAt = nowS();
    await deliver(stripeEvent("customer.subscription.deleted", { ...stripe.subscriptions.get(sub.id)!, status: "canceled", ended_at: endAt }, endAt));
    expect(profileOf(t, owner.userId)).toMatchObject({ planType: "lite", subscriptionStatus: null });
    expect(customerOf(owner.userId).subscriptionId).toBeNull();
  });

  it("maps trialing to active, unpaid to past due, and acknowledges incomplete, drafts and unknown events without a change", async () => {
    const owner = createApiOwner(t, "lite");
    const { customer, sub } = await subscribeThroughStripe(owner, nowS() - 10);
    const at = nowS();
    await deliver(stripeEvent("customer.subscription.updated", { ...sub, status: "unpaid" }, at));
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("past_due_plus");
    await deliver(stripeEvent("customer.subscription.updated", { ...sub, status: "trialing" }, at + 1));
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("active_plus");
    const before = profileOf(t, owner.userId);
    for (const event of [
      stripeEvent("customer.subscription.updated", { ...sub, status: "incomplete" }, at + 2),
      stripeEvent("invoice.paid", stripeInvoice({ customer, subscription: sub.id, status: "draft", amount: 1, start: at, end: at + DAY }), at + 2),
      stripeEvent("customer.updated", { id: customer, object: "customer" }, at + 2),
    ]) {
      expect((await deliver(event)).body).toEqual({ received: true, duplicate: false, ignored: true });
    }
    expect(profileOf(t, owner.userId)).toEqual(before);
    expect(invoicesOf(owner.userId)).toHaveLength(1);
  });

  it("applies a retried delivery once: one invoice, one commission, one receipt", async () => {
    const referrer = createApiOwner(t, "plus");
    const owner = createApiOwner(t, "lite");
    t.deps.db.update(userProfiles).set({ referredBy: referrer.userId }).where(eq(userProfiles.userId, owner.userId)).run();
    const { paid, invoice } = await subscribeThroughStripe(owner);
    const mails = t.outbox().length;
    const retries = await Promise.all([deliver(paid), deliver(paid)]);
    for (const r of retries) expect(r.body).toEqual({ received: true, duplicate: true, ignored: false });
    // The same invoice in a new event (Stripe sends invoice.paid and, say, a resend) pays no second commission.
    await deliver(stripeEvent("invoice.paid", invoice, paid.created + 1));
    expect(t.deps.db.select().from(referralEarnings).all()).toHaveLength(1);
    expect(profileOf(t, referrer.userId).rewardsBalanceCents).toBe(Math.round(LIMITS.PLUS_PRICE_CENTS * 0.2));
    expect(invoicesOf(owner.userId)).toHaveLength(1);
    expect(t.outbox()).toHaveLength(mails);
  });

  it("ignores an event about an older state that arrives late", async () => {
    const owner = createApiOwner(t, "lite");
    const { sub } = await subscribeThroughStripe(owner, nowS() - 100);
    const at = nowS();
    await deliver(stripeEvent("customer.subscription.updated", { ...sub, cancel_at_period_end: true }, at));
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("canceled_plus");
    // Older: the past-due state from before the cancellation.
    await deliver(stripeEvent("customer.subscription.updated", { ...sub, status: "past_due" }, at - 50));
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("canceled_plus");
    // A paid invoice never goes back to open whatever order the events come in.
    const inv = invoicesOf(owner.userId)[0]!;
    const stale = stripeInvoice({ id: inv.id, customer: customerOf(owner.userId).customerId, subscription: sub.id, status: "open", amount: LIMITS.PLUS_PRICE_CENTS, start: at - 100, end: at + 30 * DAY });
    await deliver(stripeEvent("invoice.payment_failed", stale, at - 99));
    expect(invoicesOf(owner.userId)[0]!.status).toBe("paid");
  });

  it("refuses a bad signature, an old timestamp, a tampered body and a missing header with 400, and changes nothing", async () => {
    const owner = createApiOwner(t, "lite");
    const { sub } = await subscribeThroughStripe(owner);
    const before = { profile: profileOf(t, owner.userId), events: t.deps.db.select().from(billingWebhookEvents).all().length };
    const event = stripeEvent("customer.subscription.deleted", { ...sub, status: "canceled", ended_at: nowS() }, nowS() + 5);
    const good = signedDelivery(event);
    const cases = [
      { secret: "whsec_SomeoneElsesSecret0000000" },
      { at: new Date(Date.now() - 10 * 60 * 1000) },
      // Stripe's SDK lets any future timestamp through: more than five minutes ahead is refused too.
      { at: new Date(Date.now() + 6 * 60 * 1000) },
      { at: new Date(Date.now() + 60 * 60 * 1000) },
      { body: good.payload.replace('"canceled"', '"active"'), header: good.header },
      { header: "" },
      { header: "t=1,v1=zz" },
      { header: "x".repeat(5000) },
    ];
    for (const c of cases) {
      const res = await deliver(event, c);
      expect(res.status, JSON.stringify(c).slice(0, 80)).toBe(400);
      expect(res.body.error.message).toBe(BILLING_MESSAGES.webhookSignature);
    }
    // A valid signature for another body.
    const res = await t.app.request("/api/billing/stripe/webhook", { method: "POST", body: "{}", headers: { "Stripe-Signature": good.header } });
    expect(res.status).toBe(400);
    expect(profileOf(t, owner.userId)).toEqual(before.profile);
    expect(t.deps.db.select().from(billingWebhookEvents).all()).toHaveLength(before.events);
  });

  it("refuses a signed body that is not JSON, and a signed event with a malformed object, with 400", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribeThroughStripe(owner);
    const before = t.deps.db.select().from(billingWebhookEvents).all().length;
    const notJson = "{not json";
    const sig = (await import("stripe")).default.webhooks.generateTestHeaderString({ payload: notJson, secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET });
    const a = await t.app.request("/api/billing/stripe/webhook", { method: "POST", body: notJson, headers: { "Stripe-Signature": sig } });
    expect(a.status).toBe(400);
    expect(((await a.json()) as any).error.message).toBe(BILLING_MESSAGES.webhookPayload);
    const b = await deliver(stripeEvent("invoice.paid", { id: "in_x", object: "invoice", customer: "cus_x", parent: { subscription_details: { subscription: "sub_x" } }, status: "paid", lines: { data: [] } }, nowS()));
    expect(b.status).toBe(400);
    expect(b.body.error.message).toBe(BILLING_MESSAGES.webhookPayload);
    expect(t.deps.db.select().from(billingWebhookEvents).all()).toHaveLength(before);
  });
});

describe("Stripe: switching between monthly and yearly at renewal (ADR 110)", () => {
  const MONTHLY = STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY;
  const YEARLY = STRIPE_TEST_ENV.STRIPE_PRICE_YEARLY;
  const pick = (v: Record<string, unknown>) => ({ badge: v.badge, subscriptionStatus: v.subscriptionStatus, interval: v.interval, priceCents: v.priceCents, priceLabel: v.priceLabel });
  const callsAfter = (n: number) => stripe.calls.slice(n).map((c) => `${c.method} ${c.path}`);
  /** A Stripe subscriber with a switch to yearly pending; `before` counts the calls made so far. */
  async function pendingYearly() {
    const owner = createApiOwner(t, "lite");
    const { sub } = await subscribeThroughStripe(owner);
    expect((await call(owner, "POST", "/api/billing/interval", { interval: "year" })).status).toBe(200);
    return { owner, sub, schedule: [...stripe.schedules.values()][0]!, before: stripe.calls.length };
  }

  it("schedules the yearly price from the renewal: a schedule made from the subscription, then its two phases; the pending switch shows as in test mode", async () => {
    const owner = createApiOwner(t, "lite");
    const start = nowS() - 10 * DAY;
    const { sub, customer } = await subscribeThroughStripe(owner, start);
    const periodEnd = start + 30 * DAY;
    const before = stripe.calls.length;
    const res = await call(owner, "POST", "/api/billing/interval", { interval: "year" });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(BILLING_MESSAGES.intervalSwitched);

    const schedule = [...stripe.schedules.values()][0]!;
    expect(callsAfter(before)).toEqual([`GET /v1/subscriptions/${sub.id}`, "POST /v1/subscription_schedules", `POST /v1/subscription_schedules/${schedule.id}`]);
    const [, create, update] = stripe.calls.slice(before);
    expect(create!.params).toEqual({ from_subscription: sub.id });
    expect(create!.idempotencyKey).toMatch(/^plinth-schedule-[0-9a-f-]{36}$/);
    expect(update!.params).toEqual({
      end_behavior: "release",
      "phases[0][items][0][price]": MONTHLY,
      "phases[0][items][0][quantity]": "1",
      "phases[0][start_date]": String(start),
      "phases[0][end_date]": String(periodEnd),
      "phases[1][items][0][price]": YEARLY,
      "phases[1][items][0][quantity]": "1",
      "phases[1][duration][interval]": "year",
      "phases[1][duration][interval_count]": "1",
    });
    expect(update!.idempotencyKey).toMatch(/^plinth-schedule-phases-[0-9a-f-]{36}$/);
    expect(schedule.phases.map((p) => [p.items[0]!.price, p.start_date, p.end_date])).toEqual([
      [MONTHLY, start, periodEnd],
      [YEARLY, periodEnd, periodEnd + 365 * DAY],
    ]);

    // The dashboard shows the pending switch as test mode does; the paid month runs its course.
    const view = (await call(owner, "GET", "/api/billing/subscription")).body;
    expect(view).toMatchObject({ badge: "Active", interval: "year", priceLabel: "$89.90 per year", nextBillingDate: new Date(periodEnd * 1000).toISOString() });
    const testMode = createTestApp();
    try {
      const other = createApiOwner(testMode, "lite");
      await subscribe(other);
      expect((await other.call("POST", "/api/billing/interval", { interval: "year" })).status).toBe(200);
      expect(pick(view)).toEqual(pick((await (await other.call("GET", "/api/billing/subscription")).json()) as Record<string, unknown>));
    } finally {
      testMode.close();
    }

    // Stripe's event for the schedule taking the subscription over (still the monthly price) keeps the switch.
    const attached = await deliver(stripeEvent("customer.subscription.updated", stripe.subscriptions.get(sub.id)!, nowS()));
    expect(attached.body).toEqual({ received: true, duplicate: false, ignored: false });
    expect(customerOf(owner.userId).billingInterval).toBe("year");

    // The renewal: the second phase puts the yearly price on the subscription, and a year is paid.
    const current = stripe.subscriptions.get(sub.id)!;
    const yearly = { ...current, items: { ...current.items, data: [{ ...current.items.data[0]!, price: stripePrice(YEARLY), current_period_start: periodEnd, current_period_end: periodEnd + 365 * DAY }] } };
    const renewed = stripeEvent("customer.subscription.updated", yearly, nowS() + 1);
    expect((await deliver(renewed)).body).toEqual({ received: true, duplicate: false, ignored: false });
    expect((await deliver(renewed)).body).toEqual({ received: true, duplicate: true, ignored: false });
    expect((await deliver(stripeEvent("invoice.paid", stripeInvoice({ customer, subscription: sub.id, status: "paid", amount: 8990, start: periodEnd, end: periodEnd + 365 * DAY }), nowS() + 1))).status).toBe(200);
    expect(profileOf(t, owner.userId).currentPeriodEndDate?.getTime()).toBe((periodEnd + 365 * DAY) * 1000);
    expect(invoicesOf(owner.userId).map((i) => i.amountCents)).toEqual([LIMITS.PLUS_PRICE_CENTS, 8990]);
    // After its last phase the schedule lets go: the subscription on its own, yearly.
    expect((await deliver(stripeEvent("customer.subscription.updated", { ...yearly, schedule: null }, nowS() + 2))).status).toBe(200);
    expect((await call(owner, "GET", "/api/billing/subscription")).body).toMatchObject({ interval: "year", priceLabel: "$89.90 per year" });
  });

  it("takes a pending switch back by releasing the schedule: the monthly price stays", async () => {
    const { owner, sub, schedule, before } = await pendingYearly();
    const res = await call(owner, "POST", "/api/billing/interval", { interval: "month" });
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ interval: "month", priceLabel: "$8.99 per month" });
    expect(callsAfter(before)).toEqual([`GET /v1/subscriptions/${sub.id}`, `POST /v1/subscription_schedules/${schedule.id}/release`]);
    expect(stripe.calls.at(-1)).toMatchObject({ params: {}, idempotencyKey: `plinth-schedule-release-${schedule.id}` });
    expect(stripe.schedules.get(schedule.id)).toMatchObject({ status: "released", subscription: null, released_subscription: sub.id });
    expect(stripe.subscriptions.get(sub.id)!.schedule).toBeNull();
    // Stripe's event for the release agrees; asking for the monthly price again sends nothing more.
    expect((await deliver(stripeEvent("customer.subscription.updated", stripe.subscriptions.get(sub.id)!, nowS() + 1))).status).toBe(200);
    expect(customerOf(owner.userId).billingInterval).toBe("month");
    const again = stripe.calls.length;
    expect((await call(owner, "POST", "/api/billing/interval", { interval: "month" })).status).toBe(200);
    expect(callsAfter(again)).toEqual([`GET /v1/subscriptions/${sub.id}`]);
  });

  it("cancelling while a switch is pending releases the schedule first, as Stripe requires; the subscription ends on its monthly price", async () => {
    const { owner, sub, schedule, before } = await pendingYearly();
    const res = await call(owner, "POST", "/api/billing/cancel", { reason: "Too expensive" });
    expect(res.status).toBe(200);
    expect(callsAfter(before)).toEqual([`GET /v1/subscriptions/${sub.id}`, `POST /v1/subscription_schedules/${schedule.id}/release`, `POST /v1/subscriptions/${sub.id}`]);
    expect(stripe.calls.at(-1)!.params).toEqual({ cancel_at_period_end: "true" });
    expect(res.body.subscription).toMatchObject({ badge: "Cancelled", interval: "month" });
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("canceled_plus");
  });

  it("deleting the account while a switch is pending releases the schedule, then ends the subscription now", async () => {
    const { owner, sub, schedule, before } = await pendingYearly();
    const res = await call(owner, "DELETE", "/api/auth/account", { confirmUsername: owner.username, endSubscription: true });
    expect(res).toEqual({ status: 200, body: { deleted: true } });
    expect(callsAfter(before)).toEqual([`GET /v1/subscriptions/${sub.id}`, `POST /v1/subscription_schedules/${schedule.id}/release`, `DELETE /v1/subscriptions/${sub.id}`]);
  });

  it("lets go of the schedule it made when Stripe refuses its phases, answers 502 with the screen's message, and changes nothing", async () => {
    const owner = createApiOwner(t, "lite");
    const { sub } = await subscribeThroughStripe(owner);
    const view = (await call(owner, "GET", "/api/billing/subscription")).body;
    stripe.failNext(400, /^\/v1\/subscription_schedules\/[^/]+$/);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await call(owner, "POST", "/api/billing/interval", { interval: "year" });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Stripe refused scheduling the switch: StripeInvalidRequestError/));
    warn.mockRestore();
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe(BILLING_MESSAGES.intervalFailed);
    const [schedule] = [...stripe.schedules.values()];
    expect(schedule).toMatchObject({ status: "released", released_subscription: sub.id });
    expect(stripe.calls.at(-1)).toMatchObject({ path: `/v1/subscription_schedules/${schedule!.id}/release` });
    expect(stripe.subscriptions.get(sub.id)!.schedule).toBeNull();
    expect((await call(owner, "GET", "/api/billing/subscription")).body).toEqual(view);
    expect(customerOf(owner.userId).billingInterval).toBe("month");
  });
});

describe("Stripe: secrets", () => {
  it("never logs or answers with the secret key or the webhook secret, even when Stripe refuses a call", async () => {
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) => vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === "string" ? a : JSON.stringify(a))).join(" "))));
    try {
      const owner = createApiOwner(t, "lite");
      const { sub } = await subscribeThroughStripe(owner);
      await call(owner, "GET", "/api/billing/subscription");
      await call(owner, "POST", "/api/billing/portal");
      stripe.failNext(402);
      const refused = await call(owner, "POST", "/api/billing/cancel", { reason: "Too expensive" });
      expect(refused.status).toBe(502);
      expect(refused.body.error.message).toBe(BILLING_MESSAGES.cancelFailed);
      await deliver(stripeEvent("customer.subscription.updated", sub, nowS()), { secret: "whsec_WrongSecret000000000" });
      await deliver(stripeEvent("customer.subscription.updated", sub, nowS()), { at: new Date(Date.now() - 3_600_000) });
      const fresh = createApiOwner(t, "lite");
      stripe.failNext(401);
      expect((await call(fresh, "POST", "/api/billing/checkout", {})).body.error.message).toBe(BILLING_MESSAGES.checkoutFailed);
      expect(logged.some((l) => l.startsWith("Stripe refused creating a customer: StripeAuthenticationError"))).toBe(true);
    } finally {
      for (const s of spies) s.mockRestore();
    }
    const everything = [...responses, ...logged, ...t.outbox()].join("\n");
    expect(responses.length).toBeGreaterThan(5);
    for (const secret of [STRIPE_TEST_ENV.STRIPE_SECRET_KEY, STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET]) {
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(secret.slice(-12));
    }
  });
});

describe("the test-mode webhook with Stripe", () => {
  it("does not exist: a Stripe-shaped event signed with Stripe's secret for /api/billing/webhook is 404 and changes nothing", async () => {
    const owner = createApiOwner(t, "lite");
    const { sub } = await subscribeThroughStripe(owner);
    const before = { profile: profileOf(t, owner.userId), events: t.deps.db.select().from(billingWebhookEvents).all().length };
    const { payload, header } = signedDelivery(stripeEvent("customer.subscription.deleted", { ...sub, status: "canceled", ended_at: nowS() }, nowS() + 5));
    const res = await t.app.request("/api/billing/webhook", { method: "POST", body: payload, headers: { "Content-Type": "application/json", "Plinth-Signature": header, "Stripe-Signature": header } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error.message).toBe("Not found");
    expect(profileOf(t, owner.userId)).toEqual(before.profile);
    expect(t.deps.db.select().from(billingWebhookEvents).all()).toHaveLength(before.events);
  });
});

describe("Stripe's webhook in test mode", () => {
  it("does not exist: a Stripe-signed delivery is 404 and changes nothing", async () => {
    const testMode = createTestApp();
    try {
      const { payload, header } = signedDelivery(stripeEvent("customer.subscription.deleted", { id: "sub_x" }, nowS()));
      const res = await testMode.app.request("/api/billing/stripe/webhook", { method: "POST", body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": header } });
      expect(res.status).toBe(404);
      expect(testMode.deps.db.select().from(billingWebhookEvents).all()).toHaveLength(0);
    } finally {
      testMode.close();
    }
  });
});
