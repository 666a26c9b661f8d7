/**
 * Stripe's objects in the shapes the product's billing handler reads (ADR 104): seconds become
 * milliseconds, the period comes from the subscription items (the SDK's pinned API version keeps
 * current_period_* there, not on the subscription) and from the invoice's lines (an invoice's own
 * period_start/period_end describe the usage period before it), and Stripe's statuses become ours.
 * Anything the product has no state for maps to null and is acknowledged without a change.
 */
import type Stripe from "stripe";
import type { BillingEvent, CheckoutSessionObject, ConnectAccountObject, InvoiceObject, ProviderInvoiceStatus, ProviderSubscriptionStatus, SubscriptionObject } from "../provider.ts";

const ms = (seconds: number) => seconds * 1000;
export const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === "string" ? value : value.id);

/**
 * trialing counts as paid time (Stripe's trial is a period the owner has signed up for); unpaid is
 * past due (Stripe stopped retrying, the owner still settles it in the portal); paused and
 * incomplete_expired leave no access. incomplete (the first payment not yet made) is no state yet.
 */
export function subscriptionStatus(status: Stripe.Subscription.Status): ProviderSubscriptionStatus | null {
  switch (status) {
    case "active":
    case "trialing":
      return "active";
    case "past_due":
    case "unpaid":
      return "past_due";
    case "canceled":
    case "incomplete_expired":
    case "paused":
      return "canceled";
    default:
      return null;
  }
}

export function subscriptionObject(sub: Stripe.Subscription): SubscriptionObject | null {
  const status = subscriptionStatus(sub.status);
  const customer = idOf(sub.customer);
  const items = sub.items?.data ?? [];
  if (!status || !customer || items.length === 0) return null;
  // One price per subscription; should there be more, the period is the one every item has covered.
  const start = Math.max(...items.map((i) => i.current_period_start));
  const end = Math.min(...items.map((i) => i.current_period_end));
  const pm = sub.default_payment_method;
  const card = pm && typeof pm === "object" && pm.card ? { brand: pm.card.brand, last4: pm.card.last4 } : null;
  return {
    object: "subscription",
    id: sub.id,
    customer,
    status,
    current_period_start: ms(start),
    current_period_end: ms(end),
    cancel_at_period_end: sub.cancel_at_period_end,
    ended_at: sub.ended_at == null ? null : ms(sub.ended_at),
    card,
    // Under a schedule (a switch at renewal, ADR 110) the next price is the schedule's, not the item's.
    interval: sub.schedule ? null : items[0]!.price?.recurring?.interval === "year" ? "year" : "month",
  };
}

/** A draft is not the owner's invoice yet. */
const INVOICE_STATUSES = ["paid", "open", "void", "uncollectible"] as const satisfies readonly ProviderInvoiceStatus[];

export function invoiceObject(inv: Stripe.Invoice): InvoiceObject | null {
  const subscription = idOf(inv.parent?.subscription_details?.subscription);
  const customer = idOf(inv.customer);
  const status = INVOICE_STATUSES.find((s) => s === inv.status);
  if (!inv.id || !subscription || !customer || !status) return null;
  // The subscription line carries the period the invoice pays for.
  const line = inv.lines?.data.find((l) => idOf(l.parent?.subscription_item_details?.subscription) === subscription) ?? inv.lines?.data[0];
  const period = line?.period ?? { start: inv.period_start, end: inv.period_end };
  const paidAt = inv.status_transitions?.paid_at;
  return {
    object: "invoice",
    id: inv.id,
    customer,
    subscription,
    number: inv.number ?? inv.id,
    status,
    // What the owner paid (a customer credit lowers it), or what is owed while it is not paid.
    amount_cents: status === "paid" ? inv.amount_paid : inv.amount_due,
    // The operator's memo may be long; the product keeps the first 200 characters.
    description: (inv.description ?? "").slice(0, 200),
    billing_reason: inv.billing_reason === "subscription_create" ? "subscription_create" : "subscription_cycle",
    period_start: ms(period.start),
    period_end: ms(period.end),
    created: ms(inv.created),
    paid_at: paidAt == null ? null : ms(paidAt),
    attempt_count: inv.attempt_count,
    next_payment_attempt: inv.next_payment_attempt == null ? null : ms(inv.next_payment_attempt),
    hosted_invoice_url: inv.hosted_invoice_url ?? null,
    card: null,
  };
}

export function checkoutSessionObject(session: Stripe.Checkout.Session): CheckoutSessionObject | null {
  const customer = idOf(session.customer);
  const subscription = idOf(session.subscription);
  if (session.mode !== "subscription" || !customer || !subscription || !session.client_reference_id) return null;
  return { object: "checkout.session", id: session.id, customer, subscription, client_reference_id: session.client_reference_id };
}

/** A verified Stripe event as the product's BillingEvent, or null when it changes nothing here. */
export function billingEvent(event: Stripe.Event): BillingEvent | null {
  // Stripe stamps events to the second; the product compares them with its own updates in
  // milliseconds, so an event counts from the end of its second, not before a call made within it.
  const base = { id: event.id, created: ms(event.created) + 999 };
  switch (event.type) {
    case "checkout.session.completed": {
      const object = checkoutSessionObject(event.data.object);
      return object && { ...base, type: event.type, data: { object } };
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const object = subscriptionObject(event.data.object);
      return object && { ...base, type: event.type, data: { object } };
    }
    case "invoice.paid":
    case "invoice.payment_failed":
    case "invoice.voided":
    case "invoice.marked_uncollectible": {
      const object = invoiceObject(event.data.object);
      return object && { ...base, type: event.type, data: { object } };
    }
    default:
      return null;
  }
}

/** A Connect account's state: details needed while Stripe asks for anything now or overdue (ADR 230). */
export function connectAccountObject(account: Stripe.Account): ConnectAccountObject {
  const due = (account.requirements?.currently_due?.length ?? 0) + (account.requirements?.past_due?.length ?? 0);
  return {
    object: "account",
    id: account.id,
    details_submitted: account.details_submitted ?? false,
    charges_enabled: account.charges_enabled ?? false,
    payouts_enabled: account.payouts_enabled ?? false,
    details_needed: due > 0,
  };
}
