/**
 * Connect events (ADR 230) as the product reads them: the same envelope as billing's (id, created,
 * type, data.object) plus the `account` the event happened on, parsed field by field before anything
 * is written. Stripe's own events are mapped to these shapes (stripe/connect-map.ts).
 */
import { z } from "zod";
import type { ConnectAccountObject } from "./provider.ts";

const id = z.string().min(1).max(100);
const ms = z.number().int().nonnegative();

const ConnectAccountObjectSchema = z.object({
  object: z.literal("account"),
  id,
  details_submitted: z.boolean(),
  charges_enabled: z.boolean(),
  payouts_enabled: z.boolean(),
  details_needed: z.boolean(),
}) satisfies z.ZodType<ConnectAccountObject>;

/** A completed Checkout Session on the connected account: what was paid, by whom, for which sale. */
const ConnectCheckoutObjectSchema = z.object({
  object: z.literal("checkout.session"),
  id,
  payment_status: z.enum(["paid", "unpaid", "no_payment_required"]),
  amount_total: z.number().int().nonnegative().max(100_000_000),
  currency: z.string().regex(/^[a-z]{3}$/),
  customer_email: z.email().max(254).nullable(),
  payment_intent: id.nullable(),
  metadata: z.object({ saleId: id.optional() }),
});

/** A charge refunded on the connected account (wholly when `refunded`). */
const ConnectChargeObjectSchema = z.object({
  object: z.literal("charge"),
  id,
  payment_intent: id.nullable(),
  refunded: z.boolean(),
  amount_refunded: z.number().int().nonnegative().max(100_000_000),
});

const base = { id, created: ms, account: id };

export const ConnectEventSchema = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("account.updated"), data: z.object({ object: ConnectAccountObjectSchema }) }),
  z.object({ ...base, type: z.literal("checkout.session.completed"), data: z.object({ object: ConnectCheckoutObjectSchema }) }),
  z.object({ ...base, type: z.literal("charge.refunded"), data: z.object({ object: ConnectChargeObjectSchema }) }),
]);

export type ConnectCheckoutObject = z.infer<typeof ConnectCheckoutObjectSchema>;
export type ConnectChargeObject = z.infer<typeof ConnectChargeObjectSchema>;

export type ConnectEvent = z.infer<typeof ConnectEventSchema>;
