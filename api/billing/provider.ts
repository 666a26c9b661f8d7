/**
 * The billing provider behind a small interface (docs/architecture.md: embedded defaults, real parts). The
 * product asks it for a customer, a hosted checkout, a hosted page to manage the card, to cancel at
 * the period end (or resume), and to move the next charge out when months are paid from the rewards
 * balance. Everything it decides (a payment, a decline, a renewal, the end of a subscription) comes
 * back as a signed event on the webhook, shaped after the events hosted providers send, so the
 * product's handling is the same whichever provider runs (ADR 080).
 */

export type ProviderSubscriptionStatus = "active" | "past_due" | "canceled";
export type ProviderInvoiceStatus = "paid" | "open" | "void" | "uncollectible";

export interface CardSummary {
  brand: string;
  last4: string;
}

export interface SubscriptionObject {
  object: "subscription";
  id: string;
  customer: string;
  status: ProviderSubscriptionStatus;
  /** Milliseconds since the epoch. */
  current_period_start: number;
  current_period_end: number;
  cancel_at_period_end: boolean;
  ended_at: number | null;
  card: CardSummary | null;
  /**
   * Billed every month or every year (Plinth Plus yearly) from the next renewal on; null when the
   * provider's object does not say (a Stripe subscription under a schedule, which holds the next
   * price): the product keeps the interval it has.
   */
  interval: "month" | "year" | null;
}

export interface InvoiceObject {
  object: "invoice";
  id: string;
  customer: string;
  subscription: string;
  number: string;
  status: ProviderInvoiceStatus;
  amount_cents: number;
  description: string;
  billing_reason: "subscription_create" | "subscription_cycle";
  period_start: number;
  period_end: number;
  created: number;
  paid_at: number | null;
  attempt_count: number;
  /** When the provider will try again, if it will. */
  next_payment_attempt: number | null;
  /** The provider's hosted invoice page; null when the product renders its own. */
  hosted_invoice_url: string | null;
  card: CardSummary | null;
}

export interface CheckoutSessionObject {
  object: "checkout.session";
  id: string;
  customer: string;
  subscription: string;
  /** The product's user id, as given when the session was made. */
  client_reference_id: string;
}

export type BillingEvent =
  | { id: string; created: number; type: "checkout.session.completed"; data: { object: CheckoutSessionObject } }
  | {
      id: string;
      created: number;
      type: "customer.subscription.created" | "customer.subscription.updated" | "customer.subscription.deleted";
      data: { object: SubscriptionObject };
    }
  | {
      id: string;
      created: number;
      type: "invoice.paid" | "invoice.payment_failed" | "invoice.voided" | "invoice.marked_uncollectible";
      data: { object: InvoiceObject };
    };

export type BillingEventType = BillingEvent["type"];

export interface CheckoutInput {
  customerId: string;
  userId: string;
  amountCents: number;
  /** Monthly (when left out) or yearly (Plinth Plus yearly, ADR 103); amountCents is that interval's price. */
  interval?: "month" | "year";
  successUrl: string;
  cancelUrl: string;
}

/** What the rewards balance paid for months outside the provider: the amount and our ledger entry's id. */
export interface BalancePayment {
  amountCents: number;
  /** The balance renewal's id: a provider that records the payment uses it so it is recorded once. */
  reference: string;
}

export interface BillingProvider {
  /** "test" for the embedded test-mode provider. */
  readonly name: string;
  /** True when no real money moves; the dashboard says so. */
  readonly testMode: boolean;
  createCustomer(input: { userId: string; email: string }): Promise<{ customerId: string }>;
  /** A hosted page that takes the card and starts the subscription, billed monthly or yearly. */
  createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }>;
  /** A hosted page where the owner changes their card (and settles a failed payment). */
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** Cancel at the end of the paid period (true) or take that back (false). */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<SubscriptionObject>;
  /** End the subscription now (a past-due subscription the owner gives up). */
  cancelNow(subscriptionId: string): Promise<SubscriptionObject>;
  /**
   * Bill the subscription every `interval` at `amountCents` from its next renewal on (the period
   * already paid runs its course). Only while it is active and not set to cancel.
   */
  setInterval(subscriptionId: string, interval: "month" | "year", amountCents: number): Promise<SubscriptionObject>;
  /**
   * Months paid outside the provider (from the rewards balance): the next charge moves `months`
   * later. A past-due subscription's open invoice is settled by it: the months count from the
   * start of the unpaid period.
   */
  extendPeriod(subscriptionId: string, months: number, payment?: BalancePayment): Promise<SubscriptionObject>;
}

/** The webhook signature header (the scheme hosted providers use: t=timestamp,v1=hex HMAC). */
export const SIGNATURE_HEADER = "plinth-signature";
