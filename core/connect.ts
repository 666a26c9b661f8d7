/**
 * Getting paid through Stripe Connect (ADR 230): the states of an owner's Connect account as the
 * dashboard shows them, the operator's fee and the texts, without zod so the dashboard can read them
 * at first use without the validation library.
 */

/** Where the owner's earnings live in the dashboard; Connect onboarding returns there. */
export const EARNINGS_PATH = "/dashboard/earnings";

/** PLATFORM_FEE_PERCENT when it is not set: the operator's share of each sale. */
export const DEFAULT_PLATFORM_FEE_PERCENT = 5;

/**
 * The account's state, from what the provider reported last:
 *   not_connected  no account yet ("Get paid")
 *   details_needed Stripe still asks for details (onboarding not finished, or new requirements)
 *   pending        details sent, Stripe has not enabled payments yet
 *   enabled        the account takes payments (payouts may still wait: payoutsEnabled says)
 */
export const CONNECT_STATES = ["not_connected", "details_needed", "pending", "enabled"] as const;
export type ConnectState = (typeof CONNECT_STATES)[number];

export interface ConnectFlags {
  detailsSubmitted: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsNeeded: boolean;
}

export function connectState(account: ConnectFlags | null | undefined): ConnectState {
  if (!account) return "not_connected";
  if (account.chargesEnabled) return "enabled";
  if (!account.detailsSubmitted || account.detailsNeeded) return "details_needed";
  return "pending";
}

export const CONNECT_STATE_LABELS: Record<ConnectState, string> = {
  not_connected: "Not connected",
  details_needed: "Details needed",
  pending: "Pending",
  enabled: "Can take payments",
};

/**
 * The operator's fee on an amount in the smallest currency unit, rounded to the nearest unit (half up),
 * never more than the amount. Stripe takes its own processing fee from the creator's share.
 */
export function platformFee(amount: number, percent: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) return 0;
  return Math.min(amount, Math.floor((amount * percent) / 100 + 0.5));
}

export const CONNECT_MESSAGES = {
  getPaid: "Get paid",
  onboardingFailed: "Could not open Stripe. Please try again.",
  dashboardFailed: "Could not open your Stripe dashboard. Please try again.",
  notConnected: "Connect a Stripe account first.",
  notOnboarded: "Finish setting up your Stripe account first.",
  linkNotFound: "This setup link is not valid.",
  linkExpired: "This setup link has expired. Start again from your dashboard.",
  checkoutFailed: "Payments are not available right now. Please try again later.",
  sessionNotFound: "This payment page is not valid.",
  sessionExpired: "This payment page has expired. Go back to the page and try again.",
  notRefundable: "This payment cannot be refunded.",
  accountNotFound: "This Stripe account is not yours or does not exist.",
} as const;
