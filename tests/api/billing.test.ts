/**
 * Billing through the real test-mode provider: checkout with test cards, the subscription's life
 * (renewal, a declined renewal, retries, the end), cancelling with a reason and resuming, the
 * customer portal, invoices, and every refusal with its message. Renewals are driven by moving the
 * period end (and the job due then) into the past in the database and running the job queue, or by
 * the app's injected clock, never by waiting.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AppDeps } from "#api/context.ts";
import { jobsFor } from "#api/jobs/runner.ts";
import { billingCustomer, billingFor } from "#api/services/billing.ts";
import { BILLING_MESSAGES, CARD_MESSAGES, addMonths } from "#core/schemas/billing.ts";
import { invoices, jobs, subscriptionCancellations, testBillingEvents, testBillingInvoices, upgradeRequests, userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { CARDS, cardForm, checkoutSession, endPeriodNow, pay, profileOf, providerSubscription, retryNow, subscribe, tick } from "#tests/support/billing.ts";
import { mailsTo } from "#tests/support/mail.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const emailOf = (o: ApiOwner) => `${o.username}@example.com`;
const subjects = (o: ApiOwner) => mailsTo(t.deps.env.OUTBOX_DIR, emailOf(o)).map((m) => m.subject);
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const view = async (o: ApiOwner) => (await json(await o.call("GET", "/api/billing/subscription"))).body;

describe("checkout", () => {
  it("starts a hosted checkout on our own origin, for 8.99", async () => {
    const owner = createApiOwner(t, "lite");
    const res = await json(await owner.call("POST", "/api/billing/checkout", { returnPath: "/dashboard/links" }));
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^http:\/\/localhost:4321\/billing\/checkout\?session=cs_test_[a-z0-9]+$/);
    const id = new URL(res.body.url).searchParams.get("session")!;
    const session = await json(await owner.call("GET", `/api/billing/test/sessions/${id}`));
    expect(session.body).toMatchObject({ kind: "checkout", status: "open", email: emailOf(owner), amountCents: 899, cancelUrl: "http://localhost:4321/dashboard/links" });
    expect(session.body.successUrl).toBe("http://localhost:4321/dashboard/account-settings?tab=subscription&checkout=success");
  });

  it("refuses a return path that leaves the dashboard", async () => {
    const owner = createApiOwner(t, "lite");
    for (const returnPath of ["https://evil.example", "//evil.example", "/dashboard/../auth", "javascript:alert(1)"]) {
      expect((await owner.call("POST", "/api/billing/checkout", { returnPath })).status).toBe(400);
    }
  });

  it("a test card that pays makes the owner Plus: active, period end one month on, a paid invoice, paying since now, a receipt", async () => {
    const owner = createApiOwner(t, "lite");
    const before = Date.now();
    const res = await json(await pay(owner, await checkoutSession(owner)));
    expect(res.status).toBe(200);
    expect(res.body.redirectUrl).toContain("/dashboard/account-settings?tab=subscription&checkout=success");

    const p = profileOf(t, owner.userId);
    expect(p).toMatchObject({ planType: "plus", subscriptionStatus: "active_plus" });
    const start = providerSubscription(t, owner.userId).currentPeriodStart;
    expect(start.getTime()).toBeGreaterThanOrEqual(before);
    expect(p.currentPeriodEndDate!.getTime()).toBe(addMonths(start, 1).getTime());
    expect(p.payingSince!.getTime()).toBe(start.getTime());

    const v = await view(owner);
    expect(v).toMatchObject({ badge: "Active", subscriptionStatus: "active_plus", card: { brand: "Visa", last4: "4242" }, priceLabel: "$8.99 per month", testMode: true });
    expect(v.nextBillingDate).toBe(p.currentPeriodEndDate!.toISOString());

    const list = await json(await owner.call("GET", "/api/billing/invoices"));
    expect(list.body.invoices).toHaveLength(1);
    expect(list.body.invoices[0]).toMatchObject({ amountCents: 899, status: "paid", description: "Plinth Plus (monthly)", paymentMethod: "Visa ending in 4242" });
    expect(list.body.invoices[0].invoiceUrl).toBe(`http://localhost:4321/billing/invoice?id=${list.body.invoices[0].id}`);
    expect(subjects(owner)).toEqual([expect.stringMatching(/^Your Plinth receipt PLN-\d{6}$/)]);

    const me = await json(await owner.call("GET", "/api/me"));
    expect(me.body.plan).toMatchObject({ planBadge: "Plus", isPayingPlus: true, canSavePromoteLink: true });
  });

  it("pays once however often Pay is pressed", async () => {
    const owner = createApiOwner(t, "lite");
    const id = await checkoutSession(owner);
    const results = await Promise.all([pay(owner, id), pay(owner, id), pay(owner, id)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(1);
    expect(t.deps.db.select().from(testBillingInvoices).all()).toHaveLength(1);
    expect(subjects(owner)).toHaveLength(1);
  });

  it("a declined card leaves everything as it was and the session open for another card", async () => {
    const owner = createApiOwner(t, "lite");
    const id = await checkoutSession(owner);
    for (const [card, message] of [
      [CARDS.declined, CARD_MESSAGES.declined],
      [CARDS.insufficient, CARD_MESSAGES.insufficientFunds],
      ["4111 1111 1111 1111", CARD_MESSAGES.notTestCard],
    ] as const) {
      const res = await json(await pay(owner, id, card));
      expect(res.status, card).toBe(402);
      expect(res.body.error.message).toBe(message);
    }
    expect(profileOf(t, owner.userId)).toMatchObject({ planType: "lite", subscriptionStatus: null, payingSince: null });
    expect(t.deps.db.select().from(invoices).all()).toHaveLength(0);
    expect((await json(await owner.call("GET", `/api/billing/test/sessions/${id}`))).body.status).toBe("open");
    expect((await pay(owner, id)).status).toBe(200);
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("active_plus");
  });

  it("checks the card form with docs/product.md-style messages", async () => {
    const owner = createApiOwner(t, "lite");
    const id = await checkoutSession(owner);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...cardForm("4242 4242 4242 4241") }, CARD_MESSAGES.numberInvalid],
      [{ ...cardForm("") }, CARD_MESSAGES.numberRequired],
      [{ ...cardForm(CARDS.ok), expiry: "13 / 30" }, CARD_MESSAGES.expiryInvalid],
      [{ ...cardForm(CARDS.ok), expiry: "01 / 20" }, CARD_MESSAGES.expired],
      [{ ...cardForm(CARDS.ok), cvc: "12" }, CARD_MESSAGES.cvcInvalid],
      [{ ...cardForm(CARDS.ok), name: "  " }, CARD_MESSAGES.nameRequired],
    ];
    for (const [body, message] of cases) {
      const res = await json(await owner.call("POST", `/api/billing/test/sessions/${id}/pay`, body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
  });

  it("answers another owner's session as unknown, and refuses an expired one", async () => {
    const owner = createApiOwner(t, "lite");
    const other = createApiOwner(t, "lite");
    const id = await checkoutSession(owner);
    expect((await other.call("GET", `/api/billing/test/sessions/${id}`)).status).toBe(404);
    expect((await pay(other, id)).status).toBe(404);
    expect(profileOf(t, other.userId).planType).toBe("lite");
    const { testBillingSessions } = await import("#db/schema.ts");
    t.deps.db.update(testBillingSessions).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(testBillingSessions.id, id)).run();
    const res = await json(await pay(owner, id));
    expect(res.status).toBe(410);
    expect(res.body.error.message).toBe(CARD_MESSAGES.sessionExpired);
  });

  it("refuses a second subscription, and new checkout while past due", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const again = await json(await owner.call("POST", "/api/billing/checkout", {}));
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(BILLING_MESSAGES.alreadySubscribed);
    t.deps.db.update(userProfiles).set({ subscriptionStatus: "past_due_plus" }).where(eq(userProfiles.userId, owner.userId)).run();
    expect((await json(await owner.call("POST", "/api/billing/checkout", {}))).body.error.message).toBe(BILLING_MESSAGES.pastDueUseUpdate);
  });

  it("choosing Plus at signup records the choice and goes on to checkout", async () => {
    // Covered end to end in the signup tests; here the checkout half: an owner in their trial may pay.
    const owner = createApiOwner(t, "trial");
    await subscribe(owner);
    const me = await json(await owner.call("GET", "/api/me"));
    expect(me.body.plan).toMatchObject({ planBadge: "Plus", isTrialActive: true, canSavePromoteLink: true });
    expect(t.deps.db.select().from(upgradeRequests).where(eq(upgradeRequests.userId, owner.userId)).all()).toHaveLength(0);
  });
});

describe("renewal at the period end", () => {
  it("charges the card again and moves the period on by a month", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const sub = providerSubscription(t, owner.userId);
    endPeriodNow(t.deps.db, sub.id);
    const endedAt = providerSubscription(t, owner.userId).currentPeriodEnd;
    await tick(t);
    const p = profileOf(t, owner.userId);
    expect(p.subscriptionStatus).toBe("active_plus");
    expect(p.currentPeriodEndDate!.getTime()).toBe(addMonths(endedAt, 1).getTime());
    const rows = t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all();
    expect(rows.map((r) => r.status)).toEqual(["paid", "paid"]);
    expect(subjects(owner)).toHaveLength(2);
    // Paying since the first period, not the renewal.
    expect(p.payingSince!.getTime()).toBe(sub.currentPeriodStart.getTime());
  });

  it("a declined renewal makes the subscription past due with Plus kept; a new card in the portal settles it", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner, CARDS.declineRenewals);
    endPeriodNow(t.deps.db, providerSubscription(t, owner.userId).id);
    await tick(t);
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("past_due_plus");
    expect(await view(owner)).toMatchObject({ badge: "Past Due", subscriptionStatus: "past_due_plus" });
    expect((await json(await owner.call("GET", "/api/me"))).body.plan.effectivePlan).toBe("plus");
    expect(subjects(owner)).toContain("Your Plinth Plus payment failed");
    const open = t.deps.db.select().from(invoices).where(eq(invoices.status, "open")).all();
    expect(open).toHaveLength(1);

    const portal = await json(await owner.call("POST", "/api/billing/portal", {}));
    expect(portal.status).toBe(201);
    expect(portal.body.url).toMatch(/^http:\/\/localhost:4321\/billing\/portal\?session=bps_test_/);
    const id = new URL(portal.body.url).searchParams.get("session")!;
    const session = await json(await owner.call("GET", `/api/billing/test/sessions/${id}`));
    expect(session.body).toMatchObject({ kind: "portal", card: { last4: "0341" }, subscription: { status: "past_due", amountDueCents: 899 } });

    const declined = await json(await owner.call("POST", `/api/billing/test/sessions/${id}/payment-method`, cardForm(CARDS.declined)));
    expect(declined.status).toBe(402);
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("past_due_plus");

    const ok = await json(await owner.call("POST", `/api/billing/test/sessions/${id}/payment-method`, cardForm(CARDS.ok)));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ card: { brand: "Visa", last4: "4242" }, settledCents: 899, message: CARD_MESSAGES.paymentMethodUpdated });
    expect(await view(owner)).toMatchObject({ badge: "Active", card: { last4: "4242" } });
    expect(t.deps.db.select().from(invoices).where(eq(invoices.id, open[0]!.id)).get()!.status).toBe("paid");
  });

  it("ends the subscription when the retries run out: Lite, the page re-rendered, the owner told", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner, CARDS.declineRenewals);
    // A Plus-only setting on the published page: no branding.
    t.deps.db.update(userProfiles).set({ removeBranding: true }).where(eq(userProfiles.userId, owner.userId)).run();
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    const page = join(t.deps.env.PUBLISHED_DIR, owner.username, "index.html");
    expect(readFileSync(page, "utf8")).not.toContain("Powered by");

    const subId = providerSubscription(t, owner.userId).id;
    endPeriodNow(t.deps.db, subId);
    await tick(t);
    for (let i = 0; i < 3; i++) {
      expect(profileOf(t, owner.userId).subscriptionStatus, `retry ${i}`).toBe("past_due_plus");
      retryNow(t.deps.db, subId);
      await tick(t);
    }
    expect(profileOf(t, owner.userId)).toMatchObject({ planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null, payingSince: null });
    expect(await view(owner)).toMatchObject({ badge: "Lite" });
    expect(readFileSync(page, "utf8")).toContain("Powered by");
    expect(subjects(owner)).toContain("Your Plinth Plus subscription has ended");
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all().map((i) => i.status).sort()).toEqual(["paid", "uncollectible"]);
    // And a new subscription can start.
    await subscribe(owner);
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("active_plus");
  });

  it("renews when the injected clock reaches the period end, whenever the worker next runs (also after a restart)", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const sub = providerSubscription(t, owner.userId);
    // The same app seen by a worker whose clock the test moves: nothing in the database is edited.
    let clock = sub.currentPeriodEnd.getTime() - 1000;
    const later: AppDeps = { ...t.deps, now: () => new Date(clock) };
    // The billing provider is made before the worker starts, as the server does at start.
    billingFor(later);
    await jobsFor(later).tick();
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(1);
    // A day after the period end, as for a server that was off when it came.
    clock += 86_400_000;
    await jobsFor(later).tick();
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(2);
    expect(providerSubscription(t, owner.userId).currentPeriodEnd.getTime()).toBe(addMonths(sub.currentPeriodEnd, 1).getTime());
    expect(profileOf(t, owner.userId).currentPeriodEndDate!.getTime()).toBe(addMonths(sub.currentPeriodEnd, 1).getTime());
    // The next period's renewal is queued for its own end, and runs then, once.
    await jobsFor(later).tick();
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(2);
    clock = addMonths(sub.currentPeriodEnd, 1).getTime();
    await jobsFor(later).tick();
    await jobsFor(later).tick();
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(3);
  });

  it("queues again at start the due work of a database without its jobs (from before the queue, or restored)", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const sub = providerSubscription(t, owner.userId);
    t.deps.db.delete(jobs).run();
    const clock = sub.currentPeriodEnd.getTime() + 1000;
    const later: AppDeps = { ...t.deps, now: () => new Date(clock) };
    billingFor(later);
    await jobsFor(later).tick();
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(1);
    billingFor(later).testMode!.requeue();
    billingFor(later).testMode!.requeue();
    await jobsFor(later).tick();
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(2);
    expect(t.deps.db.select().from(testBillingEvents).all().every((e) => e.deliveredAt)).toBe(true);
  });
});

describe("cancelling", () => {
  it("keeps Plus until the period end with the reason kept; then Lite and the page re-rendered", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    t.deps.db.update(userProfiles).set({ removeBranding: true }).where(eq(userProfiles.userId, owner.userId)).run();
    await owner.call("POST", "/api/publish");
    const periodEnd = profileOf(t, owner.userId).currentPeriodEndDate!;

    const res = await json(await owner.call("POST", "/api/billing/cancel", { reason: "Other", otherText: "  Moving to paper  " }));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(BILLING_MESSAGES.cancelled);
    expect(res.body.subscription).toMatchObject({ badge: "Cancelled", subscriptionStatus: "canceled_plus", accessEndsAt: periodEnd.toISOString(), nextBillingDate: null });
    expect(t.deps.db.select().from(subscriptionCancellations).where(eq(subscriptionCancellations.userId, owner.userId)).get()!.reason).toBe("Moving to paper");
    expect(subjects(owner)).toContain("Your Plinth Plus subscription is cancelled");
    expect((await json(await owner.call("GET", "/api/me"))).body.plan.effectivePlan).toBe("plus");

    const again = await json(await owner.call("POST", "/api/billing/cancel", {}));
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(BILLING_MESSAGES.notCancelable);

    endPeriodNow(t.deps.db, providerSubscription(t, owner.userId).id);
    await tick(t);
    expect(profileOf(t, owner.userId)).toMatchObject({ planType: "lite", subscriptionStatus: null });
    expect(readFileSync(join(t.deps.env.PUBLISHED_DIR, owner.username, "index.html"), "utf8")).toContain("Powered by");
    expect(subjects(owner)).toContain("Your Plinth Plus subscription has ended");
    // No renewal was charged.
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(1);
  });

  it("takes a reason from the list or none, and refuses anything else", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    expect((await owner.call("POST", "/api/billing/cancel", { reason: "Because" })).status).toBe(400);
    expect((await owner.call("POST", "/api/billing/cancel", { reason: "Other", otherText: "x".repeat(501) })).status).toBe(400);
    expect((await owner.call("POST", "/api/billing/cancel", { reason: "Too expensive" })).status).toBe(200);
    expect(t.deps.db.select().from(subscriptionCancellations).get()!.reason).toBe("Too expensive");
  });

  it("resumes before the period ends, so the renewal is charged as usual", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    await owner.call("POST", "/api/billing/cancel", {});
    const res = await json(await owner.call("POST", "/api/billing/resume", {}));
    expect(res.body.subscription).toMatchObject({ badge: "Active" });
    expect((await owner.call("POST", "/api/billing/resume", {})).status).toBe(409);
    endPeriodNow(t.deps.db, providerSubscription(t, owner.userId).id);
    await tick(t);
    expect(profileOf(t, owner.userId).subscriptionStatus).toBe("active_plus");
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(2);
  });

  it("ends a past-due subscription at once", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner, CARDS.declineRenewals);
    endPeriodNow(t.deps.db, providerSubscription(t, owner.userId).id);
    await tick(t);
    const res = await json(await owner.call("POST", "/api/billing/cancel", { reason: "Technical issues" }));
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ badge: "Lite" });
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all().map((i) => i.status).sort()).toEqual(["paid", "void"]);
  });

  it("refuses to cancel, resume or open the portal without a subscription", async () => {
    const owner = createApiOwner(t, "trial");
    for (const path of ["/api/billing/cancel", "/api/billing/resume", "/api/billing/portal"]) {
      const res = await json(await owner.call("POST", path, {}));
      expect(res.status, path).toBe(409);
      expect(res.body.error.message).toBe(BILLING_MESSAGES.noSubscription);
    }
  });
});

describe("billing history", () => {
  it("is locked for Lite with the PLUS gate, open during the trial and for Plus", async () => {
    const lite = createApiOwner(t, "lite");
    const locked = await json(await lite.call("GET", "/api/billing/invoices"));
    expect(locked.status).toBe(402);
    expect(locked.body.error).toMatchObject({ message: "This feature requires Plinth Plus. Click to upgrade!", details: { feature: "billing_history" } });
    const trial = createApiOwner(t, "trial");
    expect((await json(await trial.call("GET", "/api/billing/invoices"))).body).toEqual({ invoices: [] });
  });

  it("shows one invoice only to its owner, even after the plan ended", async () => {
    const owner = createApiOwner(t, "lite");
    const other = createApiOwner(t, "plus");
    await subscribe(owner);
    const id = t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).get()!.id;
    const mine = await json(await owner.call("GET", `/api/billing/invoices/${id}`));
    expect(mine.body).toMatchObject({ invoice: { id, amountCents: 899, status: "paid" }, billedTo: { email: emailOf(owner), username: owner.username }, testMode: true });
    expect((await other.call("GET", `/api/billing/invoices/${id}`)).status).toBe(404);
    expect((await other.call("GET", "/api/billing/invoices/nope")).status).toBe(404);
    await owner.call("POST", "/api/billing/cancel", {});
    endPeriodNow(t.deps.db, providerSubscription(t, owner.userId).id);
    await tick(t);
    expect((await owner.call("GET", `/api/billing/invoices/${id}`)).status).toBe(200);
    expect((await owner.call("GET", "/api/billing/invoices")).status).toBe(402);
  });
});

describe("customer records", () => {
  it("makes one provider customer per owner and keeps it across subscriptions", async () => {
    const owner = createApiOwner(t, "lite");
    await checkoutSession(owner);
    const first = billingCustomer(t.deps.db, owner.userId)!.customerId;
    await checkoutSession(owner);
    expect(billingCustomer(t.deps.db, owner.userId)!.customerId).toBe(first);
  });
});
