/**
 * The affiliate programme's and the subscription's forms (spec sections 3, 4, 5 and 9): cash payouts,
 * renewal paid from the balance, and cancelling. Money is integer cents everywhere.
 */
import { z } from "zod";
import { CANCEL_REASONS, LIMITS } from "../limits.ts";

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
} as const;

/** 3% of the requested amount, rounded to the cent. */
export function payoutFeeCents(requestedCents: number): number {
  return Math.round(requestedCents * LIMITS.PAYOUT_FEE_RATE);
}

/** A payout request against what the owner may withdraw now (eligibleCents comes from the server). */
export function payoutRequestSchema(eligibleCents: number) {
  return z.object({
    amount: z
      .number(AFFILIATE_MESSAGES.amountInvalid)
      .finite(AFFILIATE_MESSAGES.amountInvalid)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, AFFILIATE_MESSAGES.amountStep)
      .transform((v) => Math.round(v * 100))
      .refine((c) => c >= LIMITS.PAYOUT_MIN_CENTS, AFFILIATE_MESSAGES.amountTooSmall)
      .refine((c) => c <= eligibleCents, AFFILIATE_MESSAGES.amountTooLarge),
    payoutEmail: z
      .string(AFFILIATE_MESSAGES.paypalRequired)
      .trim()
      .min(1, AFFILIATE_MESSAGES.paypalRequired)
      .max(LIMITS.EMAIL_MAX, AFFILIATE_MESSAGES.paypalInvalid)
      .pipe(z.email(AFFILIATE_MESSAGES.paypalInvalid)),
  });
}

/** Whole months of Plus the balance pays for: 1 up to floor(balance / price). */
export function renewalMonthOptions(balanceCents: number): number[] {
  const most = Math.floor(balanceCents / LIMITS.PLUS_PRICE_CENTS);
  return Array.from({ length: Math.max(0, most) }, (_, i) => i + 1);
}

export function renewalSchema(balanceCents: number) {
  const most = Math.floor(balanceCents / LIMITS.PLUS_PRICE_CENTS);
  return z.object({
    months: z
      .number(AFFILIATE_MESSAGES.renewalPeriodRequired)
      .int(AFFILIATE_MESSAGES.renewalPeriodRequired)
      .min(1, AFFILIATE_MESSAGES.renewalPeriodRequired)
      .max(Math.max(most, 0), AFFILIATE_MESSAGES.renewalPeriodRequired),
  });
}

/** Cancelling: the reason is optional; "Other" carries the owner's own words. */
export const CancelSubscriptionSchema = z
  .object({
    reason: z.enum(CANCEL_REASONS).optional(),
    otherText: z.string().trim().max(500).optional().default(""),
  })
  .transform((v) => ({ reason: v.reason === "Other" ? v.otherText || "Other" : (v.reason ?? null) }));

/** Spec section 4, Payout request status badge. */
export function payoutBadgeVariant(status: string): "default" | "secondary" | "destructive" {
  if (status === "completed") return "default";
  if (status === "pending" || status === "processing") return "secondary";
  return "destructive";
}
