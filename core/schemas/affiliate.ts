/**
 * The affiliate programme's and the subscription's forms (docs/product.md sections 3, 4, 5 and 9): cash payouts,
 * renewal paid from the balance, and cancelling. Money is integer cents everywhere.
 */
import { z } from "zod";
import { CANCEL_REASONS, LIMITS } from "../limits.ts";
import { multiLine } from "../text-rule.ts";
import { AFFILIATE_MESSAGES } from "../affiliate.ts";

export * from "../affiliate.ts";

/** Referral ids are short lowercase letters and digits (api/services/accounts.ts makes them). */
export const ReferralIdSchema = z.string().regex(/^[a-z0-9]{4,32}$/);

/** A random key the dialog makes when it opens, so a double submit is one request, not two. */
export const RequestKeySchema = z.string(AFFILIATE_MESSAGES.requestIdInvalid).regex(/^[A-Za-z0-9_-]{16,64}$/, AFFILIATE_MESSAGES.requestIdInvalid);

/** The payout dialog's body: the form (checked against the eligible amount) and its request key. */
export function payoutBodySchema(eligibleCents: number) {
  return payoutRequestSchema(eligibleCents).extend({ requestKey: RequestKeySchema });
}

/** The renewal dialog's body (process-balance-renewal {months, totalCost}). */
export function renewalBodySchema(balanceCents: number) {
  return renewalSchema(balanceCents).extend({
    /** What the dialog showed, in dollars; refused when it is not what the months cost now. */
    totalCost: z.number(AFFILIATE_MESSAGES.renewalPriceChanged).finite(AFFILIATE_MESSAGES.renewalPriceChanged).optional(),
    requestKey: RequestKeySchema,
  });
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
    otherText: multiLine().max(500, "Reason must be 500 characters or less").optional().default(""),
  })
  .transform((v) => ({ reason: v.reason === "Other" ? v.otherText || "Other" : (v.reason ?? null) }));
