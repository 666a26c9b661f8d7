/**
 * Subscriptions, checkout and invoices (docs/product.md sections 2, 4, 8 and 9; docs/product.md section 10: real invoices
 * from the billing provider, 8.99 per month everywhere): the request and card-form schemas. The
 * prices, messages and date rules are in ../billing.ts, without zod, and re-exported here.
 */
import { z } from "zod";
import { BILLING_INTERVALS, CARD_MESSAGES, luhnValid, parseExpiry } from "../billing.ts";
import { singleLine } from "../text-rule.ts";

export * from "../billing.ts";

/** Where a checkout may return to: a dashboard path only, never another site. */
const DashboardPath = z
  .string()
  .max(100)
  .regex(/^\/dashboard(\/[a-z-]+)*$/, "Invalid return path");

/** The upgrade prompt records its feature key itself (POST /api/upgrade-requests) before checkout. */
export const CheckoutBodySchema = z.object({
  returnPath: DashboardPath.optional(),
  /** Monthly unless the owner chose yearly. */
  interval: z.enum(BILLING_INTERVALS, "Choose monthly or yearly billing").optional(),
});

/** POST /api/billing/interval: bill monthly or yearly from the next renewal. */
export const BillingIntervalBodySchema = z.object({ interval: z.enum(BILLING_INTERVALS, "Choose monthly or yearly billing") });

/** The card form as typed; `now` decides whether the expiry is in the past. */
export function cardFormSchema(now: Date) {
  return z.object({
    number: z
      .string(CARD_MESSAGES.numberRequired)
      .max(40, CARD_MESSAGES.numberInvalid)
      .transform((v) => v.replace(/[\s-]/g, ""))
      .pipe(z.string().min(1, CARD_MESSAGES.numberRequired).refine(luhnValid, CARD_MESSAGES.numberInvalid)),
    expiry: z
      .string(CARD_MESSAGES.expiryInvalid)
      .max(10, CARD_MESSAGES.expiryInvalid)
      .transform((v, ctx) => {
        const parsed = parseExpiry(v);
        if (!parsed) {
          ctx.addIssue({ code: "custom", message: CARD_MESSAGES.expiryInvalid });
          return z.NEVER;
        }
        // A card is good through the last day of its expiry month.
        if (Date.UTC(parsed.year, parsed.month, 1) <= now.getTime()) {
          ctx.addIssue({ code: "custom", message: CARD_MESSAGES.expired });
          return z.NEVER;
        }
        return parsed;
      }),
    cvc: z.string(CARD_MESSAGES.cvcInvalid).trim().regex(/^\d{3,4}$/, CARD_MESSAGES.cvcInvalid),
    name: singleLine(CARD_MESSAGES.nameRequired).min(1, CARD_MESSAGES.nameRequired).max(100, CARD_MESSAGES.nameRequired),
  });
}
export type CardForm = z.input<ReturnType<typeof cardFormSchema>>;
