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

/**
 * A Stripe Connect account as the product reads it (ADR 230): what the owner still has to do and
 * what the account may do. details_needed: the provider asks for information now (Stripe's
 * requirements.currently_due or past_due is not empty).
 */
export interface ConnectAccountObject {
  object: "account";
  id: string;
  details_submitted: boolean;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_needed: boolean;
}

/** A one-off payment taken on the creator's connected account, the operator's fee kept by the platform. */
export interface ConnectCheckoutInput {
  accountId: string;
  /** In the smallest unit of `currency`, decided by the server. */
  amount: number;
  /** Lower-case ISO 4217 code. */
  currency: string;
  /** The operator's application fee, in the same unit; at most `amount`. */
  feeAmount: number;
  /** The line item's name as the buyer sees it at checkout. */
  name: string;
  kind: "tip" | "download";
  successUrl: string;
  cancelUrl: string;
  /** Carried back on the completed session's event: the product's own ids. */
  metadata: Record<string, string>;
}

/** The Stripe Connect operations (Express accounts; ADR 230). */
export interface ConnectProvider {
  /** A new Express account for the owner; one per owner (the caller keeps its id). */
  createConnectAccount(input: { userId: string; email: string }): Promise<{ accountId: string }>;
  /** The account as the provider has it now (the return from onboarding reads it at once). */
  retrieveConnectAccount(accountId: string): Promise<ConnectAccountObject>;
  /** A one-use onboarding page on the provider (Account Link). */
  createAccountLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string }>;
  /** A one-use sign-in to the Express dashboard (payouts, tax forms). */
  createLoginLink(accountId: string): Promise<{ url: string }>;
  /** A hosted checkout for one payment on the connected account, with the operator's fee. */
  createConnectCheckoutSession(input: ConnectCheckoutInput): Promise<{ id: string; url: string }>;
}

export interface BillingProvider extends ConnectProvider {
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
