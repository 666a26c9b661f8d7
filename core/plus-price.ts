/**
 * What Plus costs, as the dashboard's every screen names it (the upgrade prompt), and the one billing
 * message the shell shows itself. billing.ts holds the rest of billing and re-exports these, so a
 * screen that names the price does not load every billing message and rule (ADR 132).
 */
import { LIMITS } from "./limits.ts";

/** "$8.99"; negative amounts as "-$1.00". */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

export const PLUS_PRICE = formatMoney(LIMITS.PLUS_PRICE_CENTS);
export const PLUS_PRICE_LABEL = `${PLUS_PRICE} per month`;

/** When the checkout cannot start (BILLING_MESSAGES.checkoutFailed). */
export const CHECKOUT_FAILED = "Failed to start checkout";
