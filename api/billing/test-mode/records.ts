/**
 * What every part of the test-mode provider (provider.ts) shares: its options, its records (the
 * test_billing_* tables) and how it reads them, the test cards, and its events: each written with the
 * change it reports and a `provider-events` job, and delivered signed to the product's webhook one at
 * a time and in order.
 */
import { and, asc, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { CARD_MESSAGES, PLUS_PLANS, renewalDate, TEST_CARDS, type TestCardOutcome } from "#core/schemas/billing.ts";
import type { Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { testBillingCustomers, testBillingEvents, testBillingInvoices, testBillingSessions, testBillingSubscriptions } from "#db/schema.ts";
import { ApiError } from "../../errors.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import type { BillingEventType, CardSummary, CheckoutSessionObject, InvoiceObject, SubscriptionObject } from "../provider.ts";
import { signPayload } from "../signature.ts";

export interface TestProviderOptions {
  db: Db;
  /** Where the hosted pages live (the product's own origin). */
  origin: string;
  now: () => Date;
  secret: string;
  /**
   * Hands one signed event to the product's webhook handler; throws when it was not accepted. It
   * runs inside a job, so it must not wait for the job queue itself.
   */
  deliver(body: string, signature: string): Promise<void>;
  /** Runs the jobs due now (the queue's worker): what a change made due happens at once. */
  runJobs(): Promise<unknown>;
}

export type CustomerRow = typeof testBillingCustomers.$inferSelect;
export type SubscriptionRow = typeof testBillingSubscriptions.$inferSelect;
export type InvoiceRow = typeof testBillingInvoices.$inferSelect;
export type SessionRow = typeof testBillingSessions.$inferSelect;

export const DAY_MS = 86_400_000;

/** Periods end on the subscription's billing day, the day it started (the billing cycle anchor). */
export const periodEndAfter = (s: Pick<SubscriptionRow, "createdAt">, from: Date, months: number) => renewalDate(from, months, s.createdAt);

// ---- cards

export const cardOf = (row: { cardBrand: string | null; cardLast4: string | null }): CardSummary | null =>
  row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null;

export type TestCard = { brand: string; last4: string; outcome: TestCardOutcome };

export function testCard(number: string): TestCard {
  const card = TEST_CARDS.find((c) => c.number === number);
  if (!card) throw new ApiError("payment_required", CARD_MESSAGES.notTestCard, { fields: { number: CARD_MESSAGES.notTestCard } });
  return { brand: card.brand, last4: number.slice(-4), outcome: card.outcome };
}

export function refuseCard(outcome: TestCardOutcome): void {
  if (outcome === "declined") throw new ApiError("payment_required", CARD_MESSAGES.declined, { fields: { number: CARD_MESSAGES.declined } });
  if (outcome === "insufficient_funds") throw new ApiError("payment_required", CARD_MESSAGES.insufficientFunds, { fields: { number: CARD_MESSAGES.insufficientFunds } });
}

/** Whether the card on file pays this invoice (the test cards' documented behaviour). */
export const charges = (c: CustomerRow, reason: InvoiceRow["billingReason"]) =>
  c.cardBehaviour === "ok" || (c.cardBehaviour === "decline_renewals" && reason === "subscription_create");

/** A card that passed refuseCard becomes the customer's card, with how it behaves at renewals. */
export function putCardOnFile(tx: Db, customerId: string, card: TestCard): void {
  const behaviour = card.outcome === "decline_renewals" ? "decline_renewals" : "ok";
  tx.update(testBillingCustomers).set({ cardBrand: card.brand, cardLast4: card.last4, cardBehaviour: behaviour }).where(eq(testBillingCustomers.id, customerId)).run();
}

// ---- lookups

export const customer = (tx: Db, id: string) => tx.select().from(testBillingCustomers).where(eq(testBillingCustomers.id, id)).get();
export const subscription = (tx: Db, id: string) => tx.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.id, id)).get();

export const openInvoiceOf = (tx: Db, subId: string) =>
  tx
    .select()
    .from(testBillingInvoices)
    .where(and(eq(testBillingInvoices.subscriptionId, subId), eq(testBillingInvoices.status, "open")))
    .get();

/** A live subscription of the customer (one that still bills), or undefined. */
export const liveSubscription = (tx: Db, customerId: string) =>
  tx
    .select()
    .from(testBillingSubscriptions)
    .where(and(eq(testBillingSubscriptions.customerId, customerId), inArray(testBillingSubscriptions.status, ["active", "past_due"])))
    .get();

/** The live subscription, else the most recent one (the portal shows how it ended). */
export function latestSubscription(db: Db, customerId: string): SubscriptionRow | undefined {
  return (
    liveSubscription(db, customerId) ??
    db.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.customerId, customerId)).orderBy(desc(testBillingSubscriptions.createdAt)).limit(1).get()
  );
}

export function nextInvoiceNumber(tx: Db): string {
  const n = (tx.select({ n: count() }).from(testBillingInvoices).get()?.n ?? 0) + 1;
  return `PLN-${String(n).padStart(6, "0")}`;
}

// ---- objects as events carry them

export const subscriptionObject = (s: SubscriptionRow, c: CustomerRow): SubscriptionObject => ({
  object: "subscription",
  id: s.id,
  customer: s.customerId,
  status: s.status,
  current_period_start: s.currentPeriodStart.getTime(),
  current_period_end: s.currentPeriodEnd.getTime(),
  cancel_at_period_end: s.cancelAtPeriodEnd,
  ended_at: s.endedAt ? s.endedAt.getTime() : null,
  card: cardOf(c),
  interval: s.interval,
});

export const invoiceObject = (i: InvoiceRow, nextAttempt: Date | null, interval: SubscriptionRow["interval"]): InvoiceObject => ({
  object: "invoice",
  id: i.id,
  customer: i.customerId,
  subscription: i.subscriptionId,
  number: i.number,
  status: i.status,
  amount_cents: i.amountCents,
  description: PLUS_PLANS[interval].description,
  billing_reason: i.billingReason,
  period_start: i.periodStart.getTime(),
  period_end: i.periodEnd.getTime(),
  created: i.createdAt.getTime(),
  paid_at: i.paidAt ? i.paidAt.getTime() : null,
  attempt_count: i.attemptCount,
  next_payment_attempt: nextAttempt ? nextAttempt.getTime() : null,
  // The product renders its own invoice page for this provider.
  hosted_invoice_url: null,
  card: cardOf(i),
});

/** The subscription as events carry it, read now. */
export function subscriptionNow(tx: Db, subId: string): SubscriptionObject {
  const s = subscription(tx, subId)!;
  return subscriptionObject(s, customer(tx, s.customerId)!);
}

// ---- events

export function emit(tx: Db, now: () => Date, type: BillingEventType, object: SubscriptionObject | InvoiceObject | CheckoutSessionObject): void {
  const id = `evt_test_${newId()}`;
  const created = now().getTime();
  const payload = JSON.stringify({ id, created, type, data: { object } });
  tx.insert(testBillingEvents).values({ id, type, payload, createdAt: new Date(created) }).run();
  enqueueJob(tx, { kind: "provider-events", payload: {} }, new Date(created));
}

export function emitSubscription(tx: Db, now: () => Date, type: BillingEventType, subId: string): void {
  emit(tx, now, type, subscriptionNow(tx, subId));
}

/**
 * Every undelivered event, oldest first. Order matters (a renewal before the end of the
 * subscription), so a refused event stops the run: the queue retries this job later, and the
 * events after it wait.
 */
export async function deliverPending(opts: TestProviderOptions): Promise<void> {
  const { db, now } = opts;
  for (;;) {
    const next = db.select().from(testBillingEvents).where(isNull(testBillingEvents.deliveredAt)).orderBy(asc(testBillingEvents.seq)).limit(1).get();
    if (!next) return;
    await opts.deliver(next.payload, signPayload(opts.secret, next.payload, now()));
    db.update(testBillingEvents).set({ deliveredAt: now() }).where(eq(testBillingEvents.seq, next.seq)).run();
  }
}
