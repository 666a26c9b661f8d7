/**
 * The webhook as a hosted provider would call it: no session, a signed raw body. A missing, forged
 * or stale signature, a malformed event, a replayed event and a late event about an older state all
 * change nothing.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BILLING_MESSAGES } from "#core/schemas/billing.ts";
import { billingWebhookEvents, invoices, referralEarnings, testBillingEvents, userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { deliveryRetriesDueNow, endPeriodNow, profileOf, providerSubscription, signed, subscribe, tick } from "#tests/support/billing.ts";
import { createApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const post = (body: string, headers: Record<string, string>) => t.app.request("/api/billing/webhook", { method: "POST", body, headers });
const deliveredEvents = () => t.deps.db.select().from(testBillingEvents).all();

describe("the billing webhook", () => {
  it("refuses a missing, forged or stale signature, and a malformed body, with 400", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const event = deliveredEvents().find((e) => e.type === "invoice.paid")!;
    const body = event.payload;
    const cases: Record<string, string>[] = [
      { "Content-Type": "application/json" },
      { "Content-Type": "application/json", "Plinth-Signature": "t=1,v1=00" },
      { "Content-Type": "application/json", "Plinth-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
      signed(t, body, new Date(Date.now() - 10 * 60 * 1000)),
      // One hex digit of a valid signature changed (to another digit, whatever it was).
      { ...signed(t, body), "Plinth-Signature": signed(t, body)["Plinth-Signature"]!.replace(/v1=(.)/, (_, c: string) => `v1=${c === "0" ? "1" : "0"}`) },
    ];
    for (const headers of cases) {
      const res = await post(body, headers);
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(((await res.json()) as any).error.message).toBe(BILLING_MESSAGES.webhookSignature);
    }
    // Signed, but not an event we understand.
    for (const bad of ["{", "null", JSON.stringify({ id: "evt_x", created: 1, type: "invoice.paid", data: { object: { id: 1 } } })]) {
      const res = await post(bad, signed(t, bad));
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.message).toBe(BILLING_MESSAGES.webhookPayload);
    }
  });

  it("ignores a replayed event: one invoice, one commission, one receipt", async () => {
    const referrer = createApiOwner(t, "plus");
    const owner = createApiOwner(t, "lite");
    t.deps.db.update(userProfiles).set({ referredBy: referrer.userId }).where(eq(userProfiles.userId, owner.userId)).run();
    await subscribe(owner);
    expect(profileOf(t, referrer.userId).rewardsBalanceCents).toBe(180);
    const event = deliveredEvents().find((e) => e.type === "invoice.paid")!;
    const replays = await Promise.all([post(event.payload, signed(t, event.payload)), post(event.payload, signed(t, event.payload))]);
    for (const res of replays) {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true, duplicate: true });
    }
    expect(profileOf(t, referrer.userId).rewardsBalanceCents).toBe(180);
    expect(t.deps.db.select().from(referralEarnings).all()).toHaveLength(1);
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(1);
  });

  it("pays one commission per invoice even when the same invoice arrives in a new event", async () => {
    const referrer = createApiOwner(t, "plus");
    const owner = createApiOwner(t, "lite");
    t.deps.db.update(userProfiles).set({ referredBy: referrer.userId }).where(eq(userProfiles.userId, owner.userId)).run();
    await subscribe(owner);
    const event = JSON.parse(deliveredEvents().find((e) => e.type === "invoice.paid")!.payload);
    const copy = JSON.stringify({ ...event, id: "evt_test_copy", created: Date.now() });
    expect((await post(copy, signed(t, copy))).status).toBe(200);
    expect(profileOf(t, referrer.userId).rewardsBalanceCents).toBe(180);
  });

  it("ignores a late event about an older state of the subscription", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    endPeriodNow(t.deps.db, providerSubscription(t, owner.userId).id);
    await tick(t);
    const renewed = profileOf(t, owner.userId).currentPeriodEndDate!.getTime();
    const created = JSON.parse(deliveredEvents().find((e) => e.type === "customer.subscription.created")!.payload);
    const late = JSON.stringify({ ...created, id: "evt_test_late", type: "customer.subscription.updated" });
    expect((await post(late, signed(t, late))).status).toBe(200);
    expect(profileOf(t, owner.userId).currentPeriodEndDate!.getTime()).toBe(renewed);
  });

  it("ignores events about customers it does not know", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const event = JSON.parse(deliveredEvents().find((e) => e.type === "invoice.paid")!.payload);
    event.id = "evt_test_stranger";
    event.data.object.customer = "cus_unknown";
    event.data.object.id = "in_test_stranger";
    const body = JSON.stringify(event);
    expect((await post(body, signed(t, body))).status).toBe(200);
    expect(t.deps.db.select().from(invoices).where(eq(invoices.id, "in_test_stranger")).get()).toBeUndefined();
  });

  it("records every event it handled, and every provider event was delivered in order", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const events = deliveredEvents();
    expect(events.map((e) => e.type)).toEqual(["customer.subscription.created", "invoice.paid", "checkout.session.completed"]);
    expect(events.every((e) => e.deliveredAt)).toBe(true);
    expect(t.deps.db.select().from(billingWebhookEvents).all().map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
  });

  it("refuses a webhook call that carries an owner's cookie from another site (403)", async () => {
    const owner = createApiOwner(t, "lite");
    const res = await t.app.request("/api/billing/webhook", { method: "POST", body: "{}", headers: { Cookie: owner.cookie, Origin: "https://evil.example" } });
    expect(res.status).toBe(403);
  });
});

describe("delivery", () => {
  it("keeps an event the webhook did not accept and delivers it, in order, on the next wake-up", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const sub = providerSubscription(t, owner.userId);
    endPeriodNow(t.deps.db, sub.id);
    // The product cannot write invoices for a moment (a trigger refuses them), so the event is not accepted.
    t.deps.db.$client.exec(`CREATE TEMP TRIGGER block_invoices BEFORE INSERT ON invoices BEGIN SELECT RAISE(ABORT, 'unavailable'); END;`);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      await tick(t);
    } finally {
      console.error = original;
    }
    expect(errors.length).toBeGreaterThan(0);
    const pending = t.deps.db.select().from(testBillingEvents).all().filter((e) => !e.deliveredAt);
    expect(pending.map((e) => e.type)).toEqual(["invoice.paid", "customer.subscription.updated"]);
    t.deps.db.$client.exec("DROP TRIGGER block_invoices");
    deliveryRetriesDueNow(t.deps.db);
    await tick(t);
    expect(t.deps.db.select().from(testBillingEvents).all().every((e) => e.deliveredAt)).toBe(true);
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(2);
  });
});
