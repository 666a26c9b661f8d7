/**
 * The affiliate programme (docs/product.md sections 1-3, 5, 7 and 9): 20% of every paid invoice of a referred
 * owner goes to the referrer's rewards balance; the balance pays for the referrer's own months of
 * Plus or goes out as cash via PayPal (minimum $20, 3% fee, active Plus and 3+ paying months).
 *
 * The balance is only ever changed by one conditional UPDATE inside the transaction that records
 * why (a commission, a payout request, a renewal), so it never goes negative and a double submit
 * never spends it twice.
 */
import { and, desc, eq, gte, sum } from "drizzle-orm";
import { isPayingPlus } from "#core/plans.ts";
import {
  AFFILIATE_MESSAGES,
  payoutBodySchema,
  payoutEligibility,
  payoutFeeCents,
  payoutNetCents,
  referralUrl,
  renewalBodySchema,
  renewalCostCents,
  type PayoutEligibility,
} from "#core/schemas/affiliate.ts";
import { formatMoney, PLUS_INVOICE_DESCRIPTION } from "#core/schemas/billing.ts";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { balanceRenewals, invoices, payoutRequests, referralEarnings, userProfiles } from "#db/schema.ts";
import type { AppDeps } from "../context.ts";
import { ApiError, validationError } from "../errors.ts";
import { payoutConfirmationMail, payoutRequestMail, receiptMail, type PayoutMailFacts } from "./billing-mail.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { runJobs } from "../jobs/runner.ts";
import { emailOf, extendSubscriptionFromBalance, invoicePageUrl, liveSubscriptionId } from "./billing.ts";
import { issueInvoice } from "./invoices.ts";
import { getProfile } from "./profile.ts";
import { addToBalance, spendBalance } from "./rewards-balance.ts";
import { isUniqueViolation } from "./signup.ts";

const DAY = (d: Date) => d.toISOString();

/** The dialog's request key as sent, before the body is parsed: a repeat is answered before any check. */
function requestKeyOf(body: unknown): string | undefined {
  const key = typeof body === "object" && body && "requestKey" in body ? (body as { requestKey: unknown }).requestKey : undefined;
  return typeof key === "string" && key.length <= 64 ? key : undefined;
}

/** Month boundaries in UTC: money is booked by calendar month, the same for everyone. */
const monthKey = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));

/** get_affiliate_dashboard */
export function affiliateDashboard(deps: AppDeps, userId: string) {
  const { db } = deps;
  const at = deps.now();
  const p = getProfile(db, userId);
  const referred = db
    .select({ planType: userProfiles.planType, subscriptionStatus: userProfiles.subscriptionStatus, currentPeriodEndDate: userProfiles.currentPeriodEndDate, trialEndsAt: userProfiles.trialEndsAt })
    .from(userProfiles)
    .where(eq(userProfiles.referredBy, userId))
    .all();
  const totals = (from?: Date) =>
    Number(
      db
        .select({ c: sum(referralEarnings.commissionCents) })
        .from(referralEarnings)
        .where(from ? and(eq(referralEarnings.referrerId, userId), gte(referralEarnings.createdAt, from)) : eq(referralEarnings.referrerId, userId))
        .get()?.c ?? 0,
    );
  return {
    rewardsBalanceCents: p.rewardsBalanceCents,
    /** Referred owners who pay for Plus now. */
    totalActiveReferrals: referred.filter((r) => isPayingPlus(r, at)).length,
    totalReferrals: referred.length,
    referralUrl: referralUrl(deps.env.PUBLIC_ORIGIN, p.referralId),
    monthlyEarningsCents: totals(monthStart(at)),
    totalEarningsCents: totals(),
  };
}

/** get_monthly_earnings: one row per month with earnings, newest first. */
export function monthlyEarnings(deps: AppDeps, userId: string) {
  const rows = deps.db.select().from(referralEarnings).where(eq(referralEarnings.referrerId, userId)).orderBy(desc(referralEarnings.createdAt)).all();
  const months = new Map<string, { monthYear: string; monthlyRefPayments: number; annualRefPayments: number; monthlyCommissionCents: number; annualCommissionCents: number; totalCommissionCents: number }>();
  for (const r of rows) {
    const key = monthKey(r.createdAt);
    const m = months.get(key) ?? { monthYear: key, monthlyRefPayments: 0, annualRefPayments: 0, monthlyCommissionCents: 0, annualCommissionCents: 0, totalCommissionCents: 0 };
    if (r.billingPeriod === "annual") {
      m.annualRefPayments += 1;
      m.annualCommissionCents += r.commissionCents;
    } else {
      m.monthlyRefPayments += 1;
      m.monthlyCommissionCents += r.commissionCents;
    }
    m.totalCommissionCents += r.commissionCents;
    months.set(key, m);
  }
  return [...months.values()];
}

function eligibilityOf(db: Db, userId: string, at: Date): PayoutEligibility {
  const p = getProfile(db, userId);
  return payoutEligibility({ planType: p.planType, subscriptionStatus: p.subscriptionStatus, payingSince: p.payingSince, balanceCents: p.rewardsBalanceCents }, at);
}

/** check_payout_eligibility */
export function checkPayoutEligibility(deps: AppDeps, userId: string): PayoutEligibility {
  return eligibilityOf(deps.db, userId, deps.now());
}

type PayoutRow = typeof payoutRequests.$inferSelect;
const payoutView = (r: PayoutRow) => ({
  id: r.id,
  requestedAmountCents: r.requestedAmountCents,
  processingFeeCents: r.processingFeeCents,
  netAmountCents: r.netAmountCents,
  payoutEmail: r.payoutEmail,
  payoutMethod: r.payoutMethod,
  status: r.status,
  createdAt: DAY(r.createdAt),
});

export function listPayouts(deps: AppDeps, userId: string) {
  return deps.db.select().from(payoutRequests).where(eq(payoutRequests.userId, userId)).orderBy(desc(payoutRequests.createdAt)).all().map(payoutView);
}

/**
 * A cash payout request: the row, the deduction and both e-mails (to the people who pay it out and
 * to the owner) in one durable transaction. The dialog's request key makes a double submit answer
 * with the first request.
 */
export async function requestPayout(deps: AppDeps, userId: string, body: unknown) {
  const { db } = deps;
  const at = deps.now();
  const key = requestKeyOf(body);
  const result = durably(db, (tx) => {
    if (key) {
      const same = tx.select().from(payoutRequests).where(and(eq(payoutRequests.userId, userId), eq(payoutRequests.requestKey, key))).get();
      if (same) return { row: same, created: false };
    }
    const eligibility = eligibilityOf(tx, userId, at);
    if (!eligibility.isEligible) throw new ApiError("forbidden", AFFILIATE_MESSAGES.notEligible, { details: { eligibility } });
    const parsed = payoutBodySchema(eligibility.eligibleAmountCents).safeParse(body);
    if (!parsed.success) throw validationError(parsed.error);
    const { amount, payoutEmail, requestKey } = parsed.data;
    const fee = payoutFeeCents(amount);
    if (!spendBalance(tx, userId, amount)) throw new ApiError("conflict", AFFILIATE_MESSAGES.balanceTooLow);
    const row: PayoutRow = {
      id: newId(),
      userId,
      requestedAmountCents: amount,
      processingFeeCents: fee,
      netAmountCents: payoutNetCents(amount),
      payoutEmail,
      payoutMethod: "paypal",
      status: "pending",
      requestKey,
      eligibilityAtRequest: JSON.stringify(eligibility),
      paymentReference: null,
      rejectionReason: null,
      decidedAt: null,
      decidedBy: null,
      createdAt: at,
    };
    tx.insert(payoutRequests).values(row).run();
    const p = getProfile(tx, userId);
    const accountEmail = emailOf(tx, userId) ?? "";
    const facts: PayoutMailFacts = { id: row.id, username: p.username, accountEmail, payoutEmail, requestedCents: amount, feeCents: fee, netCents: row.netAmountCents, createdAt: at };
    enqueueJob(tx, { kind: "mail", payload: payoutRequestMail(deps.env.PAYOUT_REQUESTS_TO, facts) }, at);
    if (accountEmail) enqueueJob(tx, { kind: "mail", payload: payoutConfirmationMail(accountEmail, facts) }, at);
    return { row, created: true };
  });
  if (result.created) await runJobs(deps);
  return { payout: payoutView(result.row), created: result.created, balanceCents: getProfile(db, userId).rewardsBalanceCents };
}

/**
 * process-balance-renewal {months, totalCost}: months of Plus paid from the rewards balance. The
 * balance is taken and an open invoice written first; the provider then moves the next charge; if it
 * refuses, the balance is given back and the invoice voided. No commission is paid on these months:
 * no money came in.
 */
export async function renewWithBalance(deps: AppDeps, userId: string, body: unknown) {
  const { db } = deps;
  const at = deps.now();
  const key = requestKeyOf(body);
  if (key) {
    const same = db.select().from(balanceRenewals).where(and(eq(balanceRenewals.userId, userId), eq(balanceRenewals.requestKey, key))).get();
    if (same) return { months: same.months, costCents: same.costCents, periodEnd: DAY(same.periodEnd), balanceCents: getProfile(db, userId).rewardsBalanceCents, created: false };
  }
  // Validated against any whole number of months first, so an unaffordable choice gets its own message.
  const parsed = renewalBodySchema(Number.MAX_SAFE_INTEGER).safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);
  const { months, totalCost, requestKey } = parsed.data;
  const cost = renewalCostCents(months);
  if (totalCost !== undefined && Math.round(totalCost * 100) !== cost) throw new ApiError("conflict", AFFILIATE_MESSAGES.renewalPriceChanged);
  const { profile, subscriptionId } = liveSubscriptionId(deps, userId, AFFILIATE_MESSAGES.renewalNeedsSubscription);

  const invoiceId = `inb_${newId()}`;
  const invoiceUrl = invoicePageUrl(deps.env.PUBLIC_ORIGIN, invoiceId);
  const renewalId = newId();
  const description = `${PLUS_INVOICE_DESCRIPTION}, ${months} ${months === 1 ? "month" : "months"} paid from rewards balance`;
  let invoiceNumber: string;
  try {
    invoiceNumber = durably(db, (tx) => {
      if (!spendBalance(tx, userId, cost)) throw new ApiError("conflict", AFFILIATE_MESSAGES.renewalBalanceTooLow);
      const number = issueInvoice(tx, deps.env.SELLER, { id: invoiceId, userId, amountCents: cost, status: "open", description, invoiceUrl, createdAt: at });
      tx.insert(balanceRenewals).values({ id: renewalId, userId, requestKey, months, costCents: cost, invoiceId, periodEnd: at, createdAt: at }).run();
      return number;
    });
  } catch (err) {
    // The same key racing itself: the other request holds the row.
    if (isUniqueViolation(err)) throw new ApiError("conflict", AFFILIATE_MESSAGES.renewalFailed);
    throw err;
  }

  let periodEnd: Date;
  try {
    periodEnd = await extendSubscriptionFromBalance(deps, userId, months, { amountCents: cost, reference: renewalId });
  } catch (err) {
    durably(db, (tx) => {
      addToBalance(tx, userId, cost);
      tx.update(invoices).set({ status: "void" }).where(eq(invoices.id, invoiceId)).run();
      tx.delete(balanceRenewals).where(eq(balanceRenewals.id, renewalId)).run();
    });
    if (err instanceof ApiError && err.status < 500) throw new ApiError("conflict", AFFILIATE_MESSAGES.renewalNeedsSubscription);
    throw err;
  }

  const email = emailOf(db, userId);
  durably(db, (tx) => {
    // The months paid run from where the paid time stood (the unpaid period's start when past due).
    const paidFrom = profile.currentPeriodEndDate ?? at;
    tx.update(invoices)
      .set({ status: "paid", paidAt: at, paymentMethod: "Rewards balance", periodStart: paidFrom, periodEnd, subscriptionId })
      .where(eq(invoices.id, invoiceId))
      .run();
    tx.update(balanceRenewals).set({ periodEnd }).where(eq(balanceRenewals.id, renewalId)).run();
    if (email) {
      enqueueJob(
        tx,
        {
          kind: "mail",
          payload: receiptMail(email, deps.env.PUBLIC_ORIGIN, {
            number: invoiceNumber,
            amountCents: cost,
            description,
            paymentMethod: `Rewards balance (${formatMoney(cost)})`,
            periodEnd,
            url: invoiceUrl,
          }),
        },
        at,
      );
    }
  });
  await runJobs(deps);
  return { months, costCents: cost, periodEnd: DAY(periodEnd), balanceCents: getProfile(db, userId).rewardsBalanceCents, created: true };
}
