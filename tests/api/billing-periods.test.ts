/**
 * Billing periods on the app's injected clock (AppDeps.now, which the test-mode provider's clock
 * follows), moved to each period end (issue 23, ADR 103): renewals keep the billing day (from
 * 2027-01-31: Feb 28, Mar 31, Apr 30, as hosted providers do), and Plinth Plus yearly: checkout at
 * the yearly price, a year's period, a yearly renewal, switching at renewal, the Subscription tab's
 * price, and the referrer's 20% of what was paid.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BillingEventSchema } from "#api/billing/events.ts";
import { extendSubscriptionFromBalance } from "#api/services/billing.ts";
import { PLUS_YEARLY_PRICE_CENTS } from "#core/schemas/billing.ts";
import { invoices, referralEarnings, testBillingSessions, userProfiles } from "#db/schema.ts";
import type { TestApp } from "#tests/support/app.ts";
import { checkoutSession, clockedApp, pay, profileOf, providerSubscription, subscribe, type ClockedApp } from "#tests/support/billing.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let app: ClockedApp;
beforeEach(() => {
  app = clockedApp("2027-01-31T10:00:00.000Z");
  t = app.t;
});
afterEach(() => t.close());

const day = (d: Date | null) => d?.toISOString() ?? null;

describe("renewal keeps the billing day", () => {
  it("from Jan 31: Feb 28, Mar 31, Apr 30, each renewal invoiced for its period", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const ends = [day(profileOf(t, owner.userId).currentPeriodEndDate)];
    for (let i = 0; i < 3; i++) {
      // The moment the period ends, and not a millisecond earlier, the provider renews.
      await app.renewAtPeriodEnd(owner.userId);
      ends.push(day(profileOf(t, owner.userId).currentPeriodEndDate));
    }
    expect(ends).toEqual(["2027-02-28T10:00:00.000Z", "2027-03-31T10:00:00.000Z", "2027-04-30T10:00:00.000Z", "2027-05-31T10:00:00.000Z"]);
    const periods = t.deps.db
      .select({ start: invoices.periodStart, end: invoices.periodEnd, status: invoices.status })
      .from(invoices)
      .where(eq(invoices.userId, owner.userId))
      .orderBy(invoices.createdAt)
      .all()
      .map((r) => `${day(r.start)?.slice(0, 10)}..${day(r.end)?.slice(0, 10)} ${r.status}`);
    expect(periods).toEqual(["2027-01-31..2027-02-28 paid", "2027-02-28..2027-03-31 paid", "2027-03-31..2027-04-30 paid", "2027-04-30..2027-05-31 paid"]);
  });

  it("months paid from the rewards balance end on the billing day too", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    app.setClock("2027-02-10T09:00:00.000Z");
    // Feb 28 + 1 month on the 31st billing day: Mar 31, not Mar 28.
    expect(day(await extendSubscriptionFromBalance(t.deps, owner.userId, 1, { amountCents: 899, reference: "renewal-1" }))).toBe("2027-03-31T10:00:00.000Z");
    expect(day(profileOf(t, owner.userId).currentPeriodEndDate)).toBe("2027-03-31T10:00:00.000Z");
  });
});

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const invoicesOf = (o: ApiOwner) => t.deps.db.select().from(invoices).where(eq(invoices.userId, o.userId)).orderBy(invoices.createdAt).all();

async function subscribeYearly(owner: ApiOwner): Promise<void> {
  const res = await pay(owner, await checkoutSession(owner, { interval: "year" }));
  expect(res.status).toBe(200);
}

describe("Plinth Plus yearly", () => {
  it("costs ten months: 89.90 a year", () => {
    expect(PLUS_YEARLY_PRICE_CENTS).toBe(8990);
  });

  it("reads a subscription event from before yearly billing (no interval) as monthly, and refuses an unknown interval", () => {
    const sub = { object: "subscription", id: "sub_1", customer: "cus_1", status: "active", current_period_start: 1, current_period_end: 2, cancel_at_period_end: false, ended_at: null, card: null };
    const event = (object: object) => ({ id: "evt_1", created: 1, type: "customer.subscription.updated", data: { object } });
    const old = BillingEventSchema.parse(event(sub));
    expect(old.type === "customer.subscription.updated" && old.data.object.interval).toBe("month");
    expect(BillingEventSchema.safeParse(event({ ...sub, interval: "week" })).success).toBe(false);
  });

  it("checks out at the yearly price and runs a year from the billing day, then renews for another year", async () => {
    const owner = createApiOwner(t, "lite");
    const id = await checkoutSession(owner, { interval: "year" });
    const session = await json(await owner.call("GET", `/api/billing/test/sessions/${id}`));
    expect(session.body).toMatchObject({ amountCents: 8990, interval: "year", description: "Plinth Plus (yearly)" });
    expect((await pay(owner, id)).status).toBe(200);

    expect(profileOf(t, owner.userId).currentPeriodEndDate!.toISOString()).toBe("2028-01-31T10:00:00.000Z");
    const view = await json(await owner.call("GET", "/api/billing/subscription"));
    expect(view.body).toMatchObject({ badge: "Active", interval: "year", priceCents: 8990, priceLabel: "$89.90 per year", nextBillingDate: "2028-01-31T10:00:00.000Z" });

    await app.renewAtPeriodEnd(owner.userId);
    expect(profileOf(t, owner.userId).currentPeriodEndDate!.toISOString()).toBe("2029-01-31T10:00:00.000Z");
    expect(invoicesOf(owner).map((i) => [i.amountCents, i.description, i.status])).toEqual([
      [8990, "Plinth Plus (yearly)", "paid"],
      [8990, "Plinth Plus (yearly)", "paid"],
    ]);
  });

  it("a monthly checkout is unchanged: 8.99 for a month", async () => {
    const owner = createApiOwner(t, "lite");
    const res = await pay(owner, await checkoutSession(owner, { interval: "month" }));
    expect(res.status).toBe(200);
    expect(profileOf(t, owner.userId).currentPeriodEndDate!.toISOString()).toBe("2027-02-28T10:00:00.000Z");
    const view = await json(await owner.call("GET", "/api/billing/subscription"));
    expect(view.body).toMatchObject({ interval: "month", priceCents: 899, priceLabel: "$8.99 per month" });
    expect(invoicesOf(owner).map((i) => [i.amountCents, i.description])).toEqual([[899, "Plinth Plus (monthly)"]]);
  });

  it("the referrer earns 20% of what was paid: 17.98 on a year", async () => {
    const referrer = createApiOwner(t, "plus");
    const owner = createApiOwner(t, "lite");
    t.deps.db.update(userProfiles).set({ referredBy: referrer.userId }).where(eq(userProfiles.userId, owner.userId)).run();
    await subscribeYearly(owner);
    const earnings = t.deps.db.select().from(referralEarnings).where(eq(referralEarnings.referrerId, referrer.userId)).all();
    expect(earnings.map((e) => [e.paymentCents, e.commissionCents, e.billingPeriod])).toEqual([[8990, 1798, "annual"]]);
    expect(profileOf(t, referrer.userId).rewardsBalanceCents).toBe(1798);
  });

  it("refuses an interval that is not monthly or yearly, and creates no session", async () => {
    const owner = createApiOwner(t, "lite");
    for (const interval of ["week", "YEAR", "", 12, null]) {
      const res = await json(await owner.call("POST", "/api/billing/checkout", { interval }));
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain("Choose monthly or yearly billing");
    }
    expect(t.deps.db.select().from(testBillingSessions).all()).toEqual([]);
  });
});

describe("switching between monthly and yearly at renewal", () => {
  it("monthly to yearly: the paid month runs out, then a year is charged at the yearly price; and back", async () => {
    const owner = createApiOwner(t, "lite");
    expect((await pay(owner, await checkoutSession(owner))).status).toBe(200);
    const res = await json(await owner.call("POST", "/api/billing/interval", { interval: "year" }));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Your billing changes at your next renewal");
    expect(res.body.subscription).toMatchObject({ interval: "year", priceLabel: "$89.90 per year", nextBillingDate: "2027-02-28T10:00:00.000Z" });
    // Nothing is charged now: one invoice, the month.
    expect(invoicesOf(owner)).toHaveLength(1);

    await app.renewAtPeriodEnd(owner.userId);
    expect(profileOf(t, owner.userId).currentPeriodEndDate!.toISOString()).toBe("2028-02-29T10:00:00.000Z");
    expect(invoicesOf(owner).map((i) => [i.amountCents, i.description])).toEqual([
      [899, "Plinth Plus (monthly)"],
      [8990, "Plinth Plus (yearly)"],
    ]);

    expect((await json(await owner.call("POST", "/api/billing/interval", { interval: "month" }))).body.subscription).toMatchObject({ interval: "month", priceLabel: "$8.99 per month" });
    await app.renewAtPeriodEnd(owner.userId);
    // Back to months on the billing day (the 31st): Feb 29 2028 + 1 month is Mar 31.
    expect(profileOf(t, owner.userId).currentPeriodEndDate!.toISOString()).toBe("2028-03-31T10:00:00.000Z");
    expect(invoicesOf(owner).at(-1)).toMatchObject({ amountCents: 899, description: "Plinth Plus (monthly)" });
  });

  it("asking for the interval already billed changes nothing", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribeYearly(owner);
    const res = await json(await owner.call("POST", "/api/billing/interval", { interval: "year" }));
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ interval: "year", priceCents: 8990 });
    expect(providerSubscription(t, owner.userId)).toMatchObject({ interval: "year", amountCents: 8990 });
  });

  it("is refused without a subscription, when cancelled, and for a bad interval, changing nothing", async () => {
    const lite = createApiOwner(t, "lite");
    expect((await json(await lite.call("POST", "/api/billing/interval", { interval: "year" }))).status).toBe(409);
    const owner = createApiOwner(t, "lite");
    expect((await pay(owner, await checkoutSession(owner))).status).toBe(200);
    expect((await owner.call("POST", "/api/billing/cancel", {})).status).toBe(200);
    const res = await json(await owner.call("POST", "/api/billing/interval", { interval: "year" }));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("Only an active subscription can change how it is billed. Resume it or settle the failed payment first.");
    for (const body of [{ interval: "fortnight" }, {}, "not json"]) expect((await owner.call("POST", "/api/billing/interval", body)).status).toBe(400);
    expect(providerSubscription(t, owner.userId)).toMatchObject({ interval: "month", amountCents: 899 });
  });
});
