/**
 * The money math and the billing rules in core (docs/product.md sections 4, 5 and 9; docs/product.md section 10: 8.99
 * everywhere): cents, months, commission, fees, eligibility, badges, the card form and signatures.
 */
import { describe, expect, it } from "vitest";
import { signPayload, verifySignature } from "#api/billing/signature.ts";
import { LIMITS } from "#core/limits.ts";
import type { PlanState } from "#core/plans.ts";
import { commissionCents, payoutEligibility, payoutNetCents, referralUrl, renewalBodySchema, renewalCostCents } from "#core/schemas/affiliate.ts";
import {
  addMonths,
  CARD_MESSAGES,
  cardFormSchema,
  CheckoutBodySchema,
  formatMoney,
  luhnValid,
  parseExpiry,
  PLUS_PRICE_LABEL,
  renewalDate,
  subscriptionBadge,
  TEST_CARDS,
} from "#core/schemas/billing.ts";

const NOW = new Date("2025-06-15T12:00:00Z");
const DAY = 86_400_000;

describe("money", () => {
  it("is 8.99 per month, written the same everywhere", () => {
    expect(LIMITS.PLUS_PRICE_CENTS).toBe(899);
    expect(PLUS_PRICE_LABEL).toBe("$8.99 per month");
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(5)).toBe("$0.05");
    expect(formatMoney(123456)).toBe("$1234.56");
    expect(formatMoney(-100)).toBe("-$1.00");
  });

  it("pays 20% commission, rounded to the cent", () => {
    expect(commissionCents(899)).toBe(180);
    expect(commissionCents(1000)).toBe(200);
    expect(commissionCents(2)).toBe(0);
    expect(commissionCents(3)).toBe(1);
  });

  it("takes a 3% fee from a payout and sends the rest", () => {
    expect(payoutNetCents(2000)).toBe(1940);
    expect(payoutNetCents(2500)).toBe(2425);
    expect(payoutNetCents(3333)).toBe(3233);
  });

  it("costs 8.99 a month from the balance, and the dialog's total must match", () => {
    expect(renewalCostCents(1)).toBe(899);
    expect(renewalCostCents(3)).toBe(2697);
    const s = renewalBodySchema(1798);
    expect(s.safeParse({ months: 2, totalCost: 17.98, requestKey: "k".repeat(16) }).success).toBe(true);
    expect(s.safeParse({ months: 3, requestKey: "k".repeat(16) }).success).toBe(false);
    expect(s.safeParse({ months: 1, requestKey: "bad key!" }).success).toBe(false);
  });
});

describe("months", () => {
  it("adds calendar months in UTC, keeping the day or taking the month's last", () => {
    expect(addMonths(new Date("2025-01-15T08:30:00Z"), 1).toISOString()).toBe("2025-02-15T08:30:00.000Z");
    expect(addMonths(new Date("2025-01-31T00:00:00Z"), 1).toISOString()).toBe("2025-02-28T00:00:00.000Z");
    expect(addMonths(new Date("2024-01-31T00:00:00Z"), 1).toISOString()).toBe("2024-02-29T00:00:00.000Z");
    expect(addMonths(new Date("2025-12-10T00:00:00Z"), 1).toISOString()).toBe("2026-01-10T00:00:00.000Z");
    expect(addMonths(new Date("2025-03-31T00:00:00Z"), -1).toISOString()).toBe("2025-02-28T00:00:00.000Z");
    expect(addMonths(new Date("2025-05-31T00:00:00Z"), 13).toISOString()).toBe("2026-06-30T00:00:00.000Z");
  });
});

describe("renewal dates keep the billing day", () => {
  const chain = (start: string, periods: number) => {
    const anchor = new Date(start);
    const ends: string[] = [];
    let end = anchor;
    for (let i = 0; i < periods; i++) {
      end = renewalDate(end, 1, anchor);
      ends.push(end.toISOString().slice(0, 10));
    }
    return ends;
  };

  it("from Jan 31: Feb 28, Mar 31, Apr 30, May 31 (not the 28th for good)", () => {
    expect(chain("2027-01-31T10:00:00Z", 4)).toEqual(["2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31"]);
  });

  it("in a leap year February has its 29th, and a Feb 29 start renews on the 29th when there is one", () => {
    expect(chain("2028-01-31T00:00:00Z", 2)).toEqual(["2028-02-29", "2028-03-31"]);
    expect(chain("2028-01-30T00:00:00Z", 2)).toEqual(["2028-02-29", "2028-03-30"]);
    expect(chain("2028-02-29T00:00:00Z", 12)).toEqual([
      "2028-03-29", "2028-04-29", "2028-05-29", "2028-06-29", "2028-07-29", "2028-08-29",
      "2028-09-29", "2028-10-29", "2028-11-29", "2028-12-29", "2029-01-29", "2029-02-28",
    ]);
    expect(renewalDate(new Date("2028-02-29T00:00:00Z"), 12, new Date("2028-02-29T00:00:00Z")).toISOString()).toBe("2029-02-28T00:00:00.000Z");
    expect(renewalDate(new Date("2028-02-29T00:00:00Z"), 48, new Date("2028-02-29T00:00:00Z")).toISOString()).toBe("2032-02-29T00:00:00.000Z");
  });

  it("the 30th and the 31st across the year's short months; over a year end; the time of day is kept", () => {
    expect(chain("2027-08-31T00:00:00Z", 7)).toEqual(["2027-09-30", "2027-10-31", "2027-11-30", "2027-12-31", "2028-01-31", "2028-02-29", "2028-03-31"]);
    expect(chain("2027-10-30T00:00:00Z", 5)).toEqual(["2027-11-30", "2027-12-30", "2028-01-30", "2028-02-29", "2028-03-30"]);
    expect(renewalDate(new Date("2027-02-28T23:59:59.999Z"), 1, new Date("2027-01-31T08:00:00Z")).toISOString()).toBe("2027-03-31T23:59:59.999Z");
    expect(renewalDate(new Date("2027-04-30T06:00:00Z"), 3, new Date("2027-01-31T06:00:00Z")).toISOString()).toBe("2027-07-31T06:00:00.000Z");
  });

  it("a day every month has stays put", () => {
    expect(chain("2027-01-15T12:00:00Z", 3)).toEqual(["2027-02-15", "2027-03-15", "2027-04-15"]);
  });
});

describe("payout eligibility", () => {
  const base = { planType: "plus" as const, subscriptionStatus: "active_plus" as const, payingSince: addMonths(NOW, -3), balanceCents: 2000 };

  it("needs active Plus, three paying months and $20, and then offers the whole balance", () => {
    expect(payoutEligibility(base, NOW)).toEqual({
      isEligible: true,
      isActivePlus: true,
      hasThreeMonthsPaying: true,
      hasMinimumBalance: true,
      eligibleAmountCents: 2000,
      totalBalanceCents: 2000,
    });
    expect(payoutEligibility({ ...base, balanceCents: 1999 }, NOW)).toMatchObject({ isEligible: false, hasMinimumBalance: false, eligibleAmountCents: 0, totalBalanceCents: 1999 });
    expect(payoutEligibility({ ...base, payingSince: new Date(addMonths(NOW, -3).getTime() + 1) }, NOW)).toMatchObject({ isEligible: false, hasThreeMonthsPaying: false });
    expect(payoutEligibility({ ...base, payingSince: null }, NOW)).toMatchObject({ hasThreeMonthsPaying: false });
    for (const subscriptionStatus of ["past_due_plus", "canceled_plus", null] as const) {
      expect(payoutEligibility({ ...base, subscriptionStatus }, NOW)).toMatchObject({ isEligible: false, isActivePlus: false });
    }
    expect(payoutEligibility({ ...base, planType: "lite" }, NOW)).toMatchObject({ isActivePlus: false });
  });
});

describe("the subscription badge", () => {
  const lite: PlanState = { planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null, trialEndsAt: null };
  const plus = (subscriptionStatus: PlanState["subscriptionStatus"], endInDays = 10): PlanState => ({
    planType: "plus",
    subscriptionStatus,
    currentPeriodEndDate: new Date(NOW.getTime() + endInDays * DAY),
    trialEndsAt: null,
  });
  it("reads Active, Past Due, Cancelled, Trial Active or Lite", () => {
    expect(subscriptionBadge(plus("active_plus"), NOW)).toBe("Active");
    expect(subscriptionBadge(plus("past_due_plus"), NOW)).toBe("Past Due");
    expect(subscriptionBadge(plus("canceled_plus"), NOW)).toBe("Cancelled");
    expect(subscriptionBadge(plus("canceled_plus", -1), NOW)).toBe("Lite");
    expect(subscriptionBadge(lite, NOW)).toBe("Lite");
    expect(subscriptionBadge({ ...lite, trialEndsAt: new Date(NOW.getTime() + DAY) }, NOW)).toBe("Trial Active");
    expect(subscriptionBadge({ ...lite, trialEndsAt: new Date(NOW.getTime() - 1) }, NOW)).toBe("Lite");
    // Paying during the trial: the subscription is what the badge tells.
    expect(subscriptionBadge({ ...plus("active_plus"), trialEndsAt: new Date(NOW.getTime() + DAY) }, NOW)).toBe("Active");
  });
});

describe("the test card form", () => {
  const form = cardFormSchema(NOW);
  it("knows the published test cards and checks numbers with Luhn", () => {
    for (const c of TEST_CARDS) expect(luhnValid(c.number), c.number).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("42")).toBe(false);
    expect(luhnValid("4242x42424242424")).toBe(false);
  });

  it("reads expiry dates and refuses one in the past", () => {
    expect(parseExpiry("12 / 34")).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry("1/30")).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry("13/30")).toBeNull();
    expect(parseExpiry("12/2030")).toBeNull();
    const first = (v: unknown) => (form.safeParse(v) as { error?: { issues: { message: string }[] } }).error?.issues[0]?.message;
    const ok = { number: "4242 4242 4242 4242", expiry: "06/25", cvc: "123", name: "Ada" };
    expect(form.parse(ok)).toMatchObject({ number: "4242424242424242", expiry: { month: 6, year: 2025 } });
    expect(first({ ...ok, expiry: "05/25" })).toBe(CARD_MESSAGES.expired);
    expect(first({ ...ok, number: "4242-4242-4242-4241" })).toBe(CARD_MESSAGES.numberInvalid);
    expect(first({ ...ok, cvc: "12a" })).toBe(CARD_MESSAGES.cvcInvalid);
    expect(first({ ...ok, name: "" })).toBe(CARD_MESSAGES.nameRequired);
  });
});

describe("checkout and referral links", () => {
  it("returns only to dashboard paths", () => {
    expect(CheckoutBodySchema.safeParse({ returnPath: "/dashboard/affiliate" }).success).toBe(true);
    for (const returnPath of ["/", "/dashboardx", "https://evil.example/dashboard", "/dashboard/../auth", "/dashboard?x=1"]) {
      expect(CheckoutBodySchema.safeParse({ returnPath }).success, returnPath).toBe(false);
    }
  });

  it("builds every referral link in one way", () => {
    expect(referralUrl("https://plinth.example", "abc123")).toBe("https://plinth.example/?ref=abc123");
    expect(referralUrl("https://plinth.example/", "abc123")).toBe("https://plinth.example/?ref=abc123");
  });
});

describe("webhook signatures", () => {
  const secret = "s".repeat(32);
  it("accepts its own signature and refuses a changed body, another secret or an old timestamp", () => {
    const body = '{"id":"evt_1"}';
    const header = signPayload(secret, body, NOW);
    expect(verifySignature(secret, body, header, NOW)).toBe("ok");
    expect(verifySignature(secret, `${body} `, header, NOW)).toBe("mismatch");
    expect(verifySignature("t".repeat(32), body, header, NOW)).toBe("mismatch");
    expect(verifySignature(secret, body, header, new Date(NOW.getTime() + 6 * 60_000))).toBe("expired");
    expect(verifySignature(secret, body, undefined, NOW)).toBe("missing");
    expect(verifySignature(secret, body, "v1=abc", NOW)).toBe("malformed");
    expect(verifySignature(secret, body, "x".repeat(2000), NOW)).toBe("malformed");
  });
});
