/**
 * A webhook body parsed, not trusted: even a correctly signed event is checked field by field before
 * anything is written (every boundary is parsed).
 */
import { z } from "zod";
import type { BillingEvent } from "./provider.ts";

const id = z.string().min(1).max(100);
const ms = z.number().int().nonnegative();
const card = z.object({ brand: z.string().max(40), last4: z.string().regex(/^\d{4}$/) }).nullable();

const SubscriptionObjectSchema = z.object({
  object: z.literal("subscription"),
  id,
  customer: id,
  status: z.enum(["active", "past_due", "canceled"]),
  current_period_start: ms,
  current_period_end: ms,
  cancel_at_period_end: z.boolean(),
  ended_at: ms.nullable(),
  card,
  // Events written before yearly billing existed carry no interval: they were monthly. Null: the
  // provider's object does not say (a Stripe subscription under a schedule, ADR 110).
  interval: z.enum(["month", "year"]).nullable().default("month"),
});

const InvoiceObjectSchema = z.object({
  object: z.literal("invoice"),
  id,
  customer: id,
  subscription: id,
  number: z.string().min(1).max(60),
  status: z.enum(["paid", "open", "void", "uncollectible"]),
  amount_cents: z.number().int().nonnegative().max(100_000_000),
  description: z.string().max(200),
  billing_reason: z.enum(["subscription_create", "subscription_cycle"]),
  period_start: ms,
  period_end: ms,
  created: ms,
  paid_at: ms.nullable(),
  attempt_count: z.number().int().nonnegative(),
  next_payment_attempt: ms.nullable(),
  hosted_invoice_url: z.url({ protocol: /^https?$/ }).max(2048).nullable(),
  card,
});

const CheckoutSessionObjectSchema = z.object({
  object: z.literal("checkout.session"),
  id,
  customer: id,
  subscription: id,
  client_reference_id: id,
});

const base = { id, created: ms };

export const BillingEventSchema = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("checkout.session.completed"), data: z.object({ object: CheckoutSessionObjectSchema }) }),
  z.object({
    ...base,
    type: z.enum(["customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted"]),
    data: z.object({ object: SubscriptionObjectSchema }),
  }),
  z.object({
    ...base,
    type: z.enum(["invoice.paid", "invoice.payment_failed", "invoice.voided", "invoice.marked_uncollectible"]),
    data: z.object({ object: InvoiceObjectSchema }),
  }),
]) satisfies z.ZodType<BillingEvent>;
