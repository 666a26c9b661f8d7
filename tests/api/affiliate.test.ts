/**
 * The affiliate programme against the real database and the test-mode provider: the referral link
 * through signup, 20% of every paid invoice, the dashboard and monthly rows, payout eligibility and
 * every payout and renewal rule, double submits and races, and the balance never below zero.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DASH } from "#core/dashboard-texts.ts";
import { AFFILIATE_MESSAGES, REFERRAL_COOKIE } from "#core/schemas/affiliate.ts";
import { addMonths } from "#core/schemas/billing.ts";
import { invoices, payoutRequests, referralEarnings, userProfiles } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { browser } from "#tests/support/auth-client.ts";
import { CARDS, eligibleOwner, endPeriodNow, profileOf, providerSubscription, requestKey, subscribe, tick } from "#tests/support/billing.ts";
import { lastMailTo, mailsTo, sixDigitCode } from "#tests/support/mail.ts";
import { createApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const json = async (pending: Response | Promise<Response>) => {
  const res = await pending;
  return { status: res.status, body: (await res.json()) as any };
};
const setProfile = (userId: string, values: Partial<typeof userProfiles.$inferInsert>) =>
  t.deps.db.update(userProfiles).set(values).where(eq(userProfiles.userId, userId)).run();

describe("the referral link", () => {
  it("a visit with ?ref= is remembered through signup, and the referrer earns 20% of every paid invoice", async () => {
    const referrer = createApiOwner(t, "plus");
    const { referralId } = profileOf(t, referrer.userId);
    const dash = await json(await referrer.call("GET", "/api/affiliate/dashboard"));
    expect(dash.body.referralUrl).toBe(`${TEST_ORIGIN}/?ref=${referralId}`);

    // The landing page as the built site serves it: a file.
    mkdirSync(t.deps.env.SITE_DIR, { recursive: true });
    writeFileSync(join(t.deps.env.SITE_DIR, "index.html"), "<!doctype html><title>Plinth</title>");
    const b = browser(t);
    const landing = await b.call("GET", `/?ref=${referralId}`);
    expect(landing.status).toBe(200);
    expect(b.cookie(REFERRAL_COOKIE)).toBe(referralId);
    // It carries a visitor's cookie: no shared cache may keep it. The plain landing page stays cacheable.
    expect(landing.headers.get("cache-control")).toBe("private, no-store");
    expect((await browser(t).call("GET", "/")).headers.get("cache-control")).not.toMatch(/private|no-store/);
    const who = { username: `ref_${randomBytes(3).toString("hex")}`, email: `ref_${randomBytes(3).toString("hex")}@example.com` };
    expect((await b.json("POST", "/api/auth/signup/start", who)).status).toBe(200);
    expect((await b.json("POST", "/api/auth/signup/verify", { code: sixDigitCode(lastMailTo(t.deps.env.OUTBOX_DIR, who.email)!) })).status).toBe(200);
    const done = await b.json("POST", "/api/auth/signup/complete", { password: "Sturdy-Password-42", confirmPassword: "Sturdy-Password-42", plan: "plus", agreedToTerms: true });
    expect(done.status).toBe(201);
    // Plus at signup goes on to checkout.
    expect(done.body.redirect).toMatch(/^http:\/\/localhost:4321\/billing\/checkout\?session=cs_test_/);
    const referred = t.deps.db.select().from(userProfiles).where(eq(userProfiles.username, who.username)).get()!;
    expect(referred.referredBy).toBe(referrer.userId);

    const session = new URL(done.body.redirect).searchParams.get("session")!;
    const info = await b.json("GET", `/api/billing/test/sessions/${session}`);
    expect(info.body.successUrl).toBe(`${TEST_ORIGIN}/dashboard/links?checkout=success`);
    const paid = await b.json("POST", `/api/billing/test/sessions/${session}/pay`, { number: CARDS.ok, expiry: "12/34", cvc: "123", name: "New Owner" });
    expect(paid.status).toBe(200);
    expect(profileOf(t, referrer.userId).rewardsBalanceCents).toBe(180);
    expect(mailsTo(t.deps.env.OUTBOX_DIR, `${referrer.username}@example.com`).map((m) => m.subject)).toContain("You earned $1.80 with Promote & Earn");

    // Every paid invoice: the renewal too.
    const sub = providerSubscription(t, referred.userId);
    endPeriodNow(t.deps.db, sub.id);
    await tick(t);
    expect(profileOf(t, referrer.userId).rewardsBalanceCents).toBe(360);
    const earnings = t.deps.db.select().from(referralEarnings).where(eq(referralEarnings.referrerId, referrer.userId)).all();
    expect(earnings.map((e) => [e.paymentCents, e.commissionCents])).toEqual([
      [899, 180],
      [899, 180],
    ]);
  });

  it("ignores a malformed or unknown referral id", async () => {
    const b = browser(t);
    await b.call("GET", "/?ref=<script>");
    expect(b.cookie(REFERRAL_COOKIE)).toBeUndefined();
    await b.call("GET", "/?ref=nobody123");
    const who = { username: `ref_${randomBytes(3).toString("hex")}`, email: `ref_${randomBytes(3).toString("hex")}@example.com` };
    await b.json("POST", "/api/auth/signup/start", who);
    await b.json("POST", "/api/auth/signup/verify", { code: sixDigitCode(lastMailTo(t.deps.env.OUTBOX_DIR, who.email)!) });
    const done = await b.json("POST", "/api/auth/signup/complete", { password: "Sturdy-Password-42", confirmPassword: "Sturdy-Password-42", plan: "lite", agreedToTerms: true });
    expect(done.body.redirect).toBe("/dashboard/links");
    expect(t.deps.db.select().from(userProfiles).where(eq(userProfiles.username, who.username)).get()!.referredBy).toBeNull();
  });

  it("promote links store the same referral link the dashboard shows", async () => {
    const owner = createApiOwner(t, "plus");
    const res = await json(await owner.call("POST", "/api/links", { linkType: "promote_plinth", title: "Build your page with Plinth" }));
    expect(res.status).toBe(201);
    const dash = await json(await owner.call("GET", "/api/affiliate/dashboard"));
    expect(res.body.link.url).toBe(dash.body.referralUrl);
  });
});

describe("the dashboard and monthly earnings", () => {
  it("is a Plus feature: Lite gets the PLUS gate on every affiliate route", async () => {
    const lite = createApiOwner(t, "lite");
    for (const [method, path] of [
      ["GET", "/api/affiliate/dashboard"],
      ["GET", "/api/affiliate/earnings"],
      ["GET", "/api/affiliate/eligibility"],
      ["GET", "/api/affiliate/payouts"],
      ["POST", "/api/affiliate/payouts"],
      ["POST", "/api/affiliate/renewals"],
    ] as const) {
      const res = await json(await lite.call(method, path, method === "GET" ? undefined : {}));
      expect(res.status, path).toBe(402);
      expect(res.body.error).toMatchObject({ message: DASH.plusTooltip, details: { feature: "affiliate_program" } });
    }
    expect((await createApiOwner(t, "trial").call("GET", "/api/affiliate/dashboard")).status).toBe(200);
  });

  it("counts active referrals (paying now) and this month's and all earnings", async () => {
    const referrer = createApiOwner(t, "plus");
    const paying = createApiOwner(t, "lite");
    const trial = createApiOwner(t, "trial");
    for (const o of [paying, trial]) setProfile(o.userId, { referredBy: referrer.userId });
    await subscribe(paying);
    // An older commission, from last year.
    const old = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 5, 15));
    t.deps.db.insert(referralEarnings).values({ id: newId(), referrerId: referrer.userId, paymentCents: 899, commissionCents: 180, createdAt: old }).run();
    t.deps.db.insert(referralEarnings).values({ id: newId(), referrerId: referrer.userId, billingPeriod: "annual", paymentCents: 8990, commissionCents: 1798, createdAt: old }).run();
    const dash = await json(await referrer.call("GET", "/api/affiliate/dashboard"));
    expect(dash.body).toMatchObject({ rewardsBalanceCents: 180, totalActiveReferrals: 1, totalReferrals: 2, monthlyEarningsCents: 180, totalEarningsCents: 180 + 180 + 1798 });

    const rows = (await json(await referrer.call("GET", "/api/affiliate/earnings"))).body.months;
    const now = new Date();
    expect(rows).toEqual([
      { monthYear: `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`, monthlyRefPayments: 1, annualRefPayments: 0, monthlyCommissionCents: 180, annualCommissionCents: 0, totalCommissionCents: 180 },
      { monthYear: `${old.getUTCFullYear()}-06`, monthlyRefPayments: 1, annualRefPayments: 1, monthlyCommissionCents: 180, annualCommissionCents: 1798, totalCommissionCents: 1978 },
    ]);
  });
});

describe("payout eligibility", () => {
  it("shows each condition: active Plus, 3 continuous paying months, the $20 minimum", async () => {
    const trial = createApiOwner(t, "trial");
    setProfile(trial.userId, { rewardsBalanceCents: 5000 });
    expect((await json(await trial.call("GET", "/api/affiliate/eligibility"))).body).toEqual({
      isEligible: false,
      isActivePlus: false,
      hasThreeMonthsPaying: false,
      hasMinimumBalance: true,
      eligibleAmountCents: 0,
      totalBalanceCents: 5000,
    });

    const owner = await eligibleOwner(t, 1999);
    expect((await json(await owner.call("GET", "/api/affiliate/eligibility"))).body).toMatchObject({ isEligible: false, isActivePlus: true, hasThreeMonthsPaying: true, hasMinimumBalance: false });
    setProfile(owner.userId, { rewardsBalanceCents: 2000, payingSince: addMonths(new Date(), -2) });
    expect((await json(await owner.call("GET", "/api/affiliate/eligibility"))).body).toMatchObject({ isEligible: false, hasThreeMonthsPaying: false, hasMinimumBalance: true });
    setProfile(owner.userId, { payingSince: addMonths(new Date(Date.now() - 1000), -3) });
    expect((await json(await owner.call("GET", "/api/affiliate/eligibility"))).body).toEqual({
      isEligible: true,
      isActivePlus: true,
      hasThreeMonthsPaying: true,
      hasMinimumBalance: true,
      eligibleAmountCents: 2000,
      totalBalanceCents: 2000,
    });
    // Cancelled (even inside the paid period) is not active Plus.
    await owner.call("POST", "/api/billing/cancel", {});
    expect((await json(await owner.call("GET", "/api/affiliate/eligibility"))).body).toMatchObject({ isEligible: false, isActivePlus: false });
  });
});

describe("cash payouts", () => {
  it("records the request, deducts the balance, and e-mails the payouts team and the owner", async () => {
    const owner = await eligibleOwner(t, 5000);
    const res = await json(await owner.call("POST", "/api/affiliate/payouts", { amount: 25, payoutEmail: " me@paypal.example ", requestKey: requestKey() }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      payout: { requestedAmountCents: 2500, processingFeeCents: 75, netAmountCents: 2425, payoutEmail: "me@paypal.example", payoutMethod: "paypal", status: "pending" },
      balanceCents: 2500,
      message: AFFILIATE_MESSAGES.payoutRequested,
    });
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(2500);
    const ops = mailsTo(t.deps.env.OUTBOX_DIR, t.deps.env.PAYOUT_REQUESTS_TO);
    expect(ops).toHaveLength(1);
    expect(ops[0]!.subject).toBe(`Payout request ${res.body.payout.id}: $24.25 via PayPal`);
    expect(ops[0]!.text).toContain("PayPal email: me@paypal.example");
    expect(mailsTo(t.deps.env.OUTBOX_DIR, `${owner.username}@example.com`).map((m) => m.subject)).toContain("We received your payout request");
    const list = await json(await owner.call("GET", "/api/affiliate/payouts"));
    expect(list.body.payouts).toHaveLength(1);
  });

  it("enforces the amount and the PayPal e-mail with docs/product.md's messages", async () => {
    const owner = await eligibleOwner(t, 5000);
    const cases: [unknown, number, string][] = [
      [{ amount: 19.99, payoutEmail: "me@paypal.example" }, 400, AFFILIATE_MESSAGES.amountTooSmall],
      [{ amount: 50.01, payoutEmail: "me@paypal.example" }, 400, AFFILIATE_MESSAGES.amountTooLarge],
      [{ amount: 20.001, payoutEmail: "me@paypal.example" }, 400, AFFILIATE_MESSAGES.amountStep],
      [{ amount: "25", payoutEmail: "me@paypal.example" }, 400, AFFILIATE_MESSAGES.amountInvalid],
      [{ amount: -25, payoutEmail: "me@paypal.example" }, 400, AFFILIATE_MESSAGES.amountTooSmall],
      [{ amount: 25 }, 400, AFFILIATE_MESSAGES.paypalRequired],
      [{ amount: 25, payoutEmail: "  " }, 400, AFFILIATE_MESSAGES.paypalRequired],
      [{ amount: 25, payoutEmail: "not-an-email" }, 400, AFFILIATE_MESSAGES.paypalInvalid],
      [{ amount: 25, payoutEmail: "<script>@x" }, 400, AFFILIATE_MESSAGES.paypalInvalid],
    ];
    for (const [body, status, message] of cases) {
      const res = await json(await owner.call("POST", "/api/affiliate/payouts", { ...(body as object), requestKey: requestKey() }));
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message, JSON.stringify(body)).toBe(message);
    }
    expect((await json(await owner.call("POST", "/api/affiliate/payouts", { amount: 25, payoutEmail: "me@paypal.example", requestKey: "short" }))).status).toBe(400);
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(5000);
    expect(t.deps.db.select().from(payoutRequests).all()).toHaveLength(0);
    // The whole eligible amount is allowed.
    expect((await owner.call("POST", "/api/affiliate/payouts", { amount: 50, payoutEmail: "me@paypal.example", requestKey: requestKey() })).status).toBe(201);
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(0);
  });

  it("refuses an owner who is not eligible (403) and changes nothing", async () => {
    const owner = await eligibleOwner(t, 5000);
    setProfile(owner.userId, { payingSince: new Date() });
    const res = await json(await owner.call("POST", "/api/affiliate/payouts", { amount: 25, payoutEmail: "me@paypal.example", requestKey: requestKey() }));
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(AFFILIATE_MESSAGES.notEligible);
    expect(res.body.error.details.eligibility).toMatchObject({ hasThreeMonthsPaying: false });
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(5000);
  });

  it("a double submit is one request, deducted once and e-mailed once", async () => {
    const owner = await eligibleOwner(t, 5000);
    const body = { amount: 20, payoutEmail: "me@paypal.example", requestKey: requestKey() };
    const results = await Promise.all([1, 2, 3].map(() => json(owner.call("POST", "/api/affiliate/payouts", body))));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(results.map((r) => r.body.payout.id)).size).toBe(1);
    expect(t.deps.db.select().from(payoutRequests).all()).toHaveLength(1);
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(3000);
    expect(mailsTo(t.deps.env.OUTBOX_DIR, t.deps.env.PAYOUT_REQUESTS_TO)).toHaveLength(1);
  });

  it("two requests at once never take the balance below zero", async () => {
    const owner = await eligibleOwner(t, 3000);
    const results = await Promise.all([1, 2].map(() => json(owner.call("POST", "/api/affiliate/payouts", { amount: 20, payoutEmail: "me@paypal.example", requestKey: requestKey() }))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 403]);
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(1000);
    // The database itself refuses a negative balance.
    expect(() => setProfile(owner.userId, { rewardsBalanceCents: -1 })).toThrow();
  });

  it("never shows or touches another owner's payouts", async () => {
    const owner = await eligibleOwner(t, 5000);
    const other = await eligibleOwner(t, 5000);
    await owner.call("POST", "/api/affiliate/payouts", { amount: 20, payoutEmail: "me@paypal.example", requestKey: requestKey() });
    expect((await json(await other.call("GET", "/api/affiliate/payouts"))).body.payouts).toEqual([]);
    const payout = t.deps.db.select().from(payoutRequests).get()!;
    // Replaying the owner's request key as another owner makes a new request of that owner's own.
    const res = await json(await other.call("POST", "/api/affiliate/payouts", { amount: 20, payoutEmail: "other@paypal.example", requestKey: payout.requestKey }));
    expect(res.status).toBe(201);
    expect(res.body.payout.id).not.toBe(payout.id);
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(3000);
  });
});

describe("renewal with the balance", () => {
  it("extends the period by the months chosen, deducts 8.99 a month, and writes a paid invoice", async () => {
    const owner = await eligibleOwner(t, 2000);
    const periodEnd = profileOf(t, owner.userId).currentPeriodEndDate!;
    const res = await json(await owner.call("POST", "/api/affiliate/renewals", { months: 2, totalCost: 17.98, requestKey: requestKey() }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ months: 2, costCents: 1798, balanceCents: 202, periodEnd: addMonths(periodEnd, 2).toISOString(), message: AFFILIATE_MESSAGES.renewed });
    const p = profileOf(t, owner.userId);
    expect(p).toMatchObject({ rewardsBalanceCents: 202, subscriptionStatus: "active_plus" });
    expect(p.currentPeriodEndDate!.toISOString()).toBe(addMonths(periodEnd, 2).toISOString());
    expect(providerSubscription(t, owner.userId).currentPeriodEnd.toISOString()).toBe(addMonths(periodEnd, 2).toISOString());
    const inv = t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all().find((i) => i.paymentMethod === "Rewards balance")!;
    expect(inv).toMatchObject({ amountCents: 1798, status: "paid", description: "Plinth Plus (monthly), 2 months paid from rewards balance" });
    expect(inv.periodStart!.toISOString()).toBe(periodEnd.toISOString());
    // The renewal due at the old period end is not charged: the next charge moved.
    endPeriodNow(t.deps.db, providerSubscription(t, owner.userId).id, -60_000);
    await tick(t);
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(2);
  });

  it("enforces the months and the balance with docs/product.md's messages", async () => {
    const owner = await eligibleOwner(t, 1000);
    const cases: [unknown, number, string][] = [
      [{}, 400, AFFILIATE_MESSAGES.renewalPeriodRequired],
      [{ months: 0 }, 400, AFFILIATE_MESSAGES.renewalPeriodRequired],
      [{ months: 1.5 }, 400, AFFILIATE_MESSAGES.renewalPeriodRequired],
      [{ months: "1" }, 400, AFFILIATE_MESSAGES.renewalPeriodRequired],
      [{ months: 2 }, 409, AFFILIATE_MESSAGES.renewalBalanceTooLow],
      [{ months: 1, totalCost: 7.99 }, 409, AFFILIATE_MESSAGES.renewalPriceChanged],
    ];
    for (const [body, status, message] of cases) {
      const res = await json(await owner.call("POST", "/api/affiliate/renewals", { ...(body as object), requestKey: requestKey() }));
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message).toBe(message);
    }
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(1000);
    const trial = createApiOwner(t, "trial");
    setProfile(trial.userId, { rewardsBalanceCents: 5000 });
    const res = await json(await trial.call("POST", "/api/affiliate/renewals", { months: 1, requestKey: requestKey() }));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(AFFILIATE_MESSAGES.renewalNeedsSubscription);
    expect(profileOf(t, trial.userId).rewardsBalanceCents).toBe(5000);
  });

  it("two renewals at once spend the balance once; a double submit renews once", async () => {
    const owner = await eligibleOwner(t, 899);
    const periodEnd = profileOf(t, owner.userId).currentPeriodEndDate!;
    const results = await Promise.all([1, 2].map(() => json(owner.call("POST", "/api/affiliate/renewals", { months: 1, totalCost: 8.99, requestKey: requestKey() }))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(0);
    expect(profileOf(t, owner.userId).currentPeriodEndDate!.toISOString()).toBe(addMonths(periodEnd, 1).toISOString());

    setProfile(owner.userId, { rewardsBalanceCents: 899 });
    const body = { months: 1, totalCost: 8.99, requestKey: requestKey() };
    const first = await json(await owner.call("POST", "/api/affiliate/renewals", body));
    const second = await json(await owner.call("POST", "/api/affiliate/renewals", body));
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(0);
    expect(profileOf(t, owner.userId).currentPeriodEndDate!.toISOString()).toBe(addMonths(periodEnd, 2).toISOString());
  });

  it("settles a past-due subscription: the unpaid period is paid from the balance", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner, CARDS.declineRenewals);
    const sub = providerSubscription(t, owner.userId);
    endPeriodNow(t.deps.db, sub.id);
    const unpaidFrom = providerSubscription(t, owner.userId).currentPeriodEnd;
    await tick(t);
    setProfile(owner.userId, { rewardsBalanceCents: 899 });
    const res = await json(await owner.call("POST", "/api/affiliate/renewals", { months: 1, requestKey: requestKey() }));
    expect(res.status).toBe(201);
    const p = profileOf(t, owner.userId);
    expect(p.subscriptionStatus).toBe("active_plus");
    expect(p.currentPeriodEndDate!.toISOString()).toBe(addMonths(unpaidFrom, 1).toISOString());
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all().map((i) => i.status).sort()).toEqual(["paid", "paid", "void"]);
  });
});
