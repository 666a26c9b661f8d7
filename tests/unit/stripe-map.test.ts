/** Stripe's objects, shaped as its API reference documents them, mapped to the product's. */
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { billingEvent, invoiceObject, subscriptionObject, subscriptionStatus } from "#api/billing/stripe/map.ts";
import { BillingEventSchema } from "#api/billing/events.ts";
import { stripeEvent, stripeInvoice, stripeSubscription, STRIPE_TEST_ENV } from "#tests/support/stripe.ts";

const asInvoice = (v: object) => v as unknown as Stripe.Invoice;
const asSubscription = (v: object) => v as unknown as Stripe.Subscription;

describe("mapping Stripe's objects", () => {
  it("takes the subscription's period from its item, in milliseconds", () => {
    const sub = subscriptionObject(asSubscription(stripeSubscription({ id: "sub_1", customer: "cus_1", start: 1_800_000_000, end: 1_802_592_000 })))!;
    expect(sub).toMatchObject({ id: "sub_1", customer: "cus_1", status: "active", current_period_start: 1_800_000_000_000, current_period_end: 1_802_592_000_000, cancel_at_period_end: false, ended_at: null, card: null });
  });

  it("maps every Stripe status", () => {
    const expected: Record<string, string | null> = { active: "active", trialing: "active", past_due: "past_due", unpaid: "past_due", canceled: "canceled", incomplete_expired: "canceled", paused: "canceled", incomplete: null, something_new: null };
    for (const [status, ours] of Object.entries(expected)) expect(subscriptionStatus(status as Stripe.Subscription.Status), status).toBe(ours);
  });

  it("takes the invoice's period from its subscription line, not the invoice's own period, and keeps a long memo short", () => {
    const raw = { ...stripeInvoice({ id: "in_1", customer: "cus_1", subscription: "sub_1", status: "paid", amount: 899, start: 1_800_000_000, end: 1_802_592_000 }), description: "x".repeat(500) };
    const inv = invoiceObject(asInvoice(raw))!;
    expect(inv).toMatchObject({ id: "in_1", subscription: "sub_1", status: "paid", amount_cents: 899, period_start: 1_800_000_000_000, period_end: 1_802_592_000_000, paid_at: 1_800_000_060_000 });
    expect(inv.description).toHaveLength(200);
    expect(BillingEventSchema.safeParse(billingEvent(stripeEvent("invoice.paid", raw, 1_800_000_100) as unknown as Stripe.Event)).success).toBe(true);
  });

  it("takes the interval from the price, and none while a schedule holds the next price (ADR 110)", () => {
    const yearly = stripeSubscription({ customer: "cus_1", start: 1, end: 2, price: STRIPE_TEST_ENV.STRIPE_PRICE_YEARLY });
    expect(subscriptionObject(asSubscription(yearly))!.interval).toBe("year");
    expect(subscriptionObject(asSubscription(stripeSubscription({ customer: "cus_1", start: 1, end: 2 })))!.interval).toBe("month");
    const scheduled = { ...yearly, schedule: "sub_sched_1" };
    expect(subscriptionObject(asSubscription(scheduled))!.interval).toBeNull();
    const event = billingEvent(stripeEvent("customer.subscription.updated", scheduled, 1_800_000_000) as unknown as Stripe.Event);
    expect(BillingEventSchema.parse(event)).toMatchObject({ data: { object: { interval: null } } });
  });

  it("counts an event from the end of its second", () => {
    const event = billingEvent(stripeEvent("customer.subscription.updated", stripeSubscription({ customer: "cus_1", start: 1, end: 2 }), 1_800_000_000) as unknown as Stripe.Event)!;
    expect(event.created).toBe(1_800_000_000_999);
  });

  it("has no invoice for a draft or one without a subscription", () => {
    const base = stripeInvoice({ customer: "cus_1", subscription: "sub_1", status: "draft", amount: 1, start: 1, end: 2 });
    expect(invoiceObject(asInvoice(base))).toBeNull();
    expect(invoiceObject(asInvoice({ ...base, status: "open", parent: null }))).toBeNull();
  });
});
