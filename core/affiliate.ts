/**
 * The affiliate programme (docs/product.md sections 3, 4, 5 and 9): its messages, referral links, commission,
 * payout and renewal sums and share texts, without zod, so the Affiliate screen loads no validation
 * library before a form is sent; schemas/affiliate.ts holds the form schemas and re-exports these.
 */
import { LIMITS } from "./limits.ts";
import type { PlanType, SubscriptionStatus } from "./plans.ts";
import { addMonths } from "./billing.ts";

export const AFFILIATE_MESSAGES = {
  amountInvalid: "Please enter a valid amount",
  amountTooSmall: "The minimum payout is $20.00",
  amountTooLarge: "The amount is more than your eligible balance",
  amountStep: "Amounts can have at most two decimal places",
  paypalRequired: "PayPal email is required",
  paypalInvalid: "Please enter a valid email address",
  payoutFailedTitle: "Payout Request Failed",
  payoutFailed: "An error occurred while requesting payout",
  renewalPeriodRequired: "Please select a renewal period",
  renewalFailedTitle: "Renewal Failed",
  renewalFailed: "An error occurred while processing your renewal",
  cancelFailed: "Failed to cancel subscription",
  notEligible: "You are not eligible for a cash payout yet",
  balanceTooLow: "Your rewards balance is lower than this amount",
  payoutRequested: "Payout requested",
  payoutRequestedText: "We'll send your money via PayPal within 3-5 business days.",
  renewalNeedsSubscription: "Renewing with your balance needs a Plinth Plus subscription. Upgrade first, then use your balance for the months after.",
  renewalBalanceTooLow: "Your rewards balance does not cover this renewal",
  renewalPriceChanged: "The price has changed. Please review the total and try again.",
  renewed: "Subscription renewed",
  renewedText: (months: number, until: string) => `${months} ${months === 1 ? "month" : "months"} of Plinth Plus paid from your balance. Your next billing date is ${until}.`,
  requestIdInvalid: "Please try again",
  linkCopied: "Referral link copied to clipboard",
  textCopied: "Text copied to clipboard",
  copyFailedTitle: "Copy failed",
  copyFailedText: "Unable to copy the link. Please try again.",
  loadFailed: "Failed to load affiliate data",
} as const;

/** The query parameter of a referral link, and the cookie that carries it to the end of signup. */
export const REFERRAL_PARAM = "ref";
export const REFERRAL_COOKIE = "plinth_ref";
/** How long a referral link's visit counts towards a signup. */
export const REFERRAL_COOKIE_DAYS = 30;
/** The one place a referral link is built: the site's origin and the owner's referral id. */
export function referralUrl(origin: string, referralId: string): string {
  return `${origin.replace(/\/+$/, "")}/?${REFERRAL_PARAM}=${encodeURIComponent(referralId)}`;
}

/** 20% of a payment, rounded to the cent. */
export function commissionCents(paymentCents: number): number {
  return Math.round(paymentCents * LIMITS.AFFILIATE_COMMISSION_RATE);
}

/** What the owner receives: the requested amount less the 3% fee. */
export function payoutNetCents(requestedCents: number): number {
  return requestedCents - payoutFeeCents(requestedCents);
}

/** Months of Plus paid from the balance at 8.99 each. */
export function renewalCostCents(months: number): number {
  return months * LIMITS.PLUS_PRICE_CENTS;
}

/**
 * Payout eligibility (docs/product.md sections 3 and 9): an active Plus subscription, 3 or more continuous
 * paying months, and at least the minimum balance. The eligible amount is the whole balance once
 * every condition holds, else nothing.
 */
export interface PayoutEligibility {
  isEligible: boolean;
  isActivePlus: boolean;
  hasThreeMonthsPaying: boolean;
  hasMinimumBalance: boolean;
  eligibleAmountCents: number;
  totalBalanceCents: number;
}

export function payoutEligibility(
  state: { planType: PlanType; subscriptionStatus: SubscriptionStatus | null; payingSince: Date | null; balanceCents: number },
  now: Date,
): PayoutEligibility {
  const isActivePlus = state.planType === "plus" && state.subscriptionStatus === "active_plus";
  const hasThreeMonthsPaying =
    state.payingSince !== null && addMonths(state.payingSince, LIMITS.PAYOUT_MIN_PAYING_MONTHS).getTime() <= now.getTime();
  const hasMinimumBalance = state.balanceCents >= LIMITS.PAYOUT_MIN_CENTS;
  const isEligible = isActivePlus && hasThreeMonthsPaying && hasMinimumBalance;
  return {
    isEligible,
    isActivePlus,
    hasThreeMonthsPaying,
    hasMinimumBalance,
    eligibleAmountCents: isEligible ? state.balanceCents : 0,
    totalBalanceCents: state.balanceCents,
  };
}

/** docs/product.md section 2, Share referral link dialog. */
export const SHARE_TEXTS = {
  title: "Share Your Referral Link",
  copyTab: "Copy Text",
  socialTab: "Social Media",
  visualsTab: "Visuals",
  visualsSoon: "Coming Soon",
  visualsText: "Ready-made images for your posts and stories are on their way.",
  message: (url: string) =>
    `I build my link-in-bio page with Plinth: one fast page for all my links, with themes, analytics and lead capture. Start free with a 7-day Plus trial: ${url}`,
} as const;

/** 3% of the requested amount, rounded to the cent. */
export function payoutFeeCents(requestedCents: number): number {
  return Math.round(requestedCents * LIMITS.PAYOUT_FEE_RATE);
}

/** Whole months of Plus the balance pays for: 1 up to floor(balance / price). */
export function renewalMonthOptions(balanceCents: number): number[] {
  const most = Math.floor(balanceCents / LIMITS.PLUS_PRICE_CENTS);
  return Array.from({ length: Math.max(0, most) }, (_, i) => i + 1);
}

/** docs/product.md section 4, Payout request status badge. */
export function payoutBadgeVariant(status: string): "default" | "secondary" | "destructive" {
  if (status === "completed") return "default";
  if (status === "pending" || status === "processing") return "secondary";
  return "destructive";
}
