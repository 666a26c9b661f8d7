/**
 * Tips and paid downloads (ADR 231): the link dialog's fields for both types and the visitor's
 * payment form, as zod schemas. Amounts are integers in the currency's smallest unit; the limits and
 * messages are in ../payments.ts.
 */
import { z } from "zod";
import { PAYMENT_CURRENCIES, PAYMENT_MESSAGES, PAYMENTS, parseAmountText } from "../payments.ts";
import { multiLine } from "../text-rule.ts";

export * from "../payments.ts";

/** One amount in the smallest unit, as a number or its digits (what a stored value or a form sends). */
export const AmountSchema = z
  .union([z.number(), z.string().max(12).regex(/^\d+$/, PAYMENT_MESSAGES.amountInvalid).transform(Number)], PAYMENT_MESSAGES.amountInvalid)
  .pipe(
    z
      .number(PAYMENT_MESSAGES.amountInvalid)
      .int(PAYMENT_MESSAGES.amountInvalid)
      .min(PAYMENTS.MIN_AMOUNT, PAYMENT_MESSAGES.amountTooSmall)
      .max(PAYMENTS.MAX_AMOUNT, PAYMENT_MESSAGES.amountTooLarge),
  );

export const CurrencySchema = z.enum(PAYMENT_CURRENCIES, PAYMENT_MESSAGES.currencyInvalid);

/** The suggested amounts: an array, or the stored comma-separated text the dialog read back. */
export const SuggestedAmountsSchema = z
  .preprocess((v) => (typeof v === "string" ? (v === "" ? [] : v.length > 100 ? null : v.split(",")) : v), z.array(AmountSchema, PAYMENT_MESSAGES.amountInvalid))
  .pipe(z.array(z.number()).max(PAYMENTS.MAX_SUGGESTED, PAYMENT_MESSAGES.tooManyAmounts));

/** A download file's id as the upload answered it. */
export const DownloadFileIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,40}$/, PAYMENT_MESSAGES.fileRequired);

/**
 * The visitor's payment form on the page (POST /api/pay/:linkId): for a tip, a suggested amount
 * pressed or one typed ("7.50"), and a note; nothing for a download (its price is the server's).
 * The amount is checked against the link's own range by the server, never taken on trust.
 */
export const PayFormSchema = z.object({
  amount: z.string().max(20).optional(),
  custom: z.string().max(20).optional(),
  note: multiLine().max(PAYMENTS.NOTE_MAX, PAYMENT_MESSAGES.noteTooLong).optional().default(""),
  private: z.enum(["on"]).optional(),
});
export type PayForm = z.output<typeof PayFormSchema>;

/** The amount a visitor chose: a pressed suggestion (digits, smallest unit) or a typed one ("7.50"). */
export function chosenAmount(form: PayForm): number | null {
  if (form.custom && form.custom.trim() !== "") return parseAmountText(form.custom);
  if (form.amount && /^\d{1,9}$/.test(form.amount)) return Number(form.amount);
  return null;
}
