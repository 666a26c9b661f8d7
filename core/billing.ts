/**
 * Subscriptions, checkout and invoices (docs/product.md sections 2, 4, 8 and 9; docs/product.md section 10: real invoices
 * from the billing provider, 8.99 per month everywhere). Money is integer cents in US dollars.
 * Without zod, so the dashboard names prices and messages without loading the validation library;
 * schemas/billing.ts holds the request and card-form schemas and re-exports all of this.
 */
import { LIMITS } from "./limits.ts";
import { isPayingPlus, isTrialActive, type PlanState } from "./plans.ts";
import { CHECKOUT_FAILED, formatMoney, PLUS_PRICE_LABEL } from "./plus-price.ts";

export { formatMoney, PLUS_PRICE, PLUS_PRICE_LABEL } from "./plus-price.ts";

export const BILLING_MESSAGES = {
  cancelFailed: "Failed to cancel subscription",
  portalFailed: "Failed to open customer portal",
  checkoutFailed: CHECKOUT_FAILED,
  resumeFailed: "Failed to resume subscription",
  loadFailed: "Failed to load your subscription",
  invoicesFailed: "Failed to load billing history",
  alreadySubscribed: "You already have a Plinth Plus subscription.",
  pastDueUseUpdate: "Your last payment failed. Update your payment method instead of starting a new subscription.",
  noSubscription: "You don't have a Plinth Plus subscription.",
  notCancelable: "Your subscription is already cancelled.",
  notResumable: "Only a cancelled subscription that has not ended yet can be resumed.",
  pastDueWarning: "Your last payment failed. Update your payment method to keep Plinth Plus.",
  cancelled: "Your subscription has been cancelled",
  resumed: "Your subscription will renew as usual",
  welcome: "Welcome to Plinth Plus!",
  welcomeText: "Your subscription is active. Every Plus feature is yours.",
  invoiceNotFound: "Invoice not found",
  /** Switching between monthly and yearly billing (ADR 103). */
  intervalNeedsActive: "Only an active subscription can change how it is billed. Resume it or settle the failed payment first.",
  intervalSwitched: "Your billing changes at your next renewal",
  intervalFailed: "Failed to change your billing",
  /** Deleting an account (ADR 049). */
  deleteEndsSubscription: "Your Plinth Plus subscription ends now and you won't be charged again. Your invoices are kept as records.",
  deleteNeedsSubscriptionEnd: "You have a Plinth Plus subscription. Deleting your account ends it now; please confirm again.",
  deleteSubscriptionEndFailed: "Your subscription could not be ended with the billing provider, so your account was not deleted. Please try again in a few minutes.",
  webhookSignature: "Invalid signature",
  webhookPayload: "Invalid event",
} as const;

/** The checkout page's card messages, worded as card networks' and payment pages' usually are. */
export const CARD_MESSAGES = {
  numberRequired: "Please enter your card number",
  numberInvalid: "Your card number is incorrect.",
  notTestCard: "This is test mode: use one of the test cards listed below. No real card is charged.",
  expiryInvalid: "Your card's expiration date is incomplete.",
  expired: "Your card's expiration date is in the past.",
  cvcInvalid: "Your card's security code is incomplete.",
  nameRequired: "Please enter the name on your card",
  declined: "Your card was declined.",
  insufficientFunds: "Your card has insufficient funds.",
  sessionExpired: "This checkout session has expired. Start again from your dashboard.",
  sessionComplete: "This checkout is already complete.",
  sessionNotFound: "This checkout session does not exist.",
  paymentMethodUpdated: "Your payment method has been updated.",
} as const;

export const PLUS_INVOICE_DESCRIPTION = "Plinth Plus (monthly)";

/** How often Plus is billed: Plinth Plus (monthly) or Plinth Plus yearly (ADR 103). */
export const BILLING_INTERVALS = ["month", "year"] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** Plinth Plus yearly: twelve months for the price of ten (two months free). */
export const PLUS_YEARLY_PRICE_CENTS = LIMITS.PLUS_PRICE_CENTS * 10;

export const PLUS_PLANS: Record<BillingInterval, { name: string; priceCents: number; months: number; priceLabel: string; description: string }> = {
  month: { name: "Plinth Plus", priceCents: LIMITS.PLUS_PRICE_CENTS, months: 1, priceLabel: PLUS_PRICE_LABEL, description: PLUS_INVOICE_DESCRIPTION },
  year: {
    name: "Plinth Plus yearly",
    priceCents: PLUS_YEARLY_PRICE_CENTS,
    months: 12,
    priceLabel: `${formatMoney(PLUS_YEARLY_PRICE_CENTS)} per year`,
    description: "Plinth Plus (yearly)",
  },
};

/** Where checkout, the portal and the billing e-mails send the owner back to. */
export const SUBSCRIPTION_TAB_PATH = "/dashboard/account-settings?tab=subscription";

/**
 * The same day of the month `months` later, in UTC; a day the target month lacks becomes its last
 * day (Jan 31 + 1 month = Feb 28 or 29), as subscription billing usually works.
 */
export function addMonths(date: Date, months: number): Date {
  return renewalDate(date, months, date);
}

/**
 * The date `months` after `from` on the subscription's billing day: the day of the month its billing
 * started (`anchor`), or the month's last day when the month is shorter. A subscription started on
 * Jan 31 renews on Feb 28, Mar 31 and Apr 30, where chaining addMonths would drift to the 28th for
 * good. The time of day is `from`'s.
 */
export function renewalDate(from: Date, months: number, anchor: Date): Date {
  const start = new Date(from.getTime());
  start.setUTCDate(1);
  start.setUTCMonth(start.getUTCMonth() + months);
  const last = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate();
  start.setUTCDate(Math.min(anchor.getUTCDate(), last));
  return start;
}

export type SubscriptionBadge = "Active" | "Past Due" | "Cancelled" | "Trial Active" | "Lite";

/**
 * docs/product.md section 4, Subscription: the status badge of the Subscription tab. An owner on the trial
 * without a subscription reads 'Trial Active', as the plan display does everywhere else.
 */
export function subscriptionBadge(state: PlanState, now: Date): SubscriptionBadge {
  if (!isPayingPlus(state, now)) return isTrialActive(state, now) ? "Trial Active" : "Lite";
  if (state.subscriptionStatus === "past_due_plus") return "Past Due";
  if (state.subscriptionStatus === "canceled_plus") return "Cancelled";
  return "Active";
}

export const BADGE_VARIANT: Record<SubscriptionBadge, "default" | "secondary" | "destructive" | "outline"> = {
  Active: "default",
  "Past Due": "destructive",
  Cancelled: "secondary",
  "Trial Active": "secondary",
  Lite: "outline",
};

export const INVOICE_STATUS_LABELS = { paid: "Paid", open: "Open", void: "Void", uncollectible: "Uncollectible" } as const;

// ---------------------------------------------------------------------------------------------
// The test-mode provider's card form

/** The test cards (the numbers card networks and payment providers publish for testing). */
export const TEST_CARDS = [
  { number: "4242424242424242", brand: "Visa", outcome: "ok", label: "Payment succeeds" },
  { number: "4000000000000002", brand: "Visa", outcome: "declined", label: "Card declined" },
  { number: "4000000000009995", brand: "Visa", outcome: "insufficient_funds", label: "Insufficient funds" },
  { number: "4000000000000341", brand: "Visa", outcome: "decline_renewals", label: "First payment succeeds, renewals are declined" },
  { number: "5555555555554444", brand: "Mastercard", outcome: "ok", label: "Payment succeeds" },
] as const;
export type TestCardOutcome = (typeof TEST_CARDS)[number]["outcome"];

export const formatCardNumber = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, "$1 ");

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let n = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

/** "MM / YY" or "MM/YY" to the month and the four-digit year, or null. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2})\s*$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(m[2]) };
}
