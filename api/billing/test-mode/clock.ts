/**
 * The test-mode provider's timed work: a `provider-due` job at each subscription's next period end
 * or retry (keyed by the subscription and the instant, so it is queued once), written with the change
 * that makes it due. The job reads the subscription as it is when it runs: renewals, a retry of a
 * declined renewal, or the end of the subscription when the retries run out.
 */
import { eq, inArray, isNull } from "drizzle-orm";
import { PLUS_PLANS } from "#core/schemas/billing.ts";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { testBillingEvents, testBillingInvoices, testBillingSubscriptions } from "#db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { charges, customer, DAY_MS, emit, emitSubscription, invoiceObject, nextInvoiceNumber, openInvoiceOf, periodEndAfter, subscription, type CustomerRow, type InvoiceRow, type TestProviderOptions } from "./records.ts";

/** A declined renewal is tried again this many days after the first decline; then the subscription ends. */
export const RETRY_AFTER_DAYS = [3, 5, 7] as const;
/** Periods renewed by one due job at most (a server that was off for years does not loop forever). */
const MAX_RENEWALS_PER_WAKE = 24;

export interface ProviderDueJob {
  subscriptionId: string;
}

/**
 * The job for the subscription's next due instant (the period end, or the retry while past due),
 * written with the change that set it. The key makes a second call for the same instant a no-op.
 */
export function queueDue(tx: Db, now: () => Date, subId: string): void {
  const s = subscription(tx, subId);
  const at = s?.status === "active" ? s.currentPeriodEnd : s?.status === "past_due" ? s.nextAttemptAt : null;
  if (!s || !at) return;
  const job: ProviderDueJob = { subscriptionId: s.id };
  enqueueJob(tx, { kind: "provider-due", payload: job, onceKey: `provider-due:${s.id}:${at.getTime()}` }, now(), at);
}

/** One subscription's due work, in one transaction, and the job for what is due next. */
export function runDue({ db, now }: TestProviderOptions, subId: string): void {
  durably(db, (tx) => {
    advance(tx, now, subId);
    queueDue(tx, now, subId);
  });
}

/**
 * At start: the due job of every live subscription, and a delivery if an event waits, queued
 * unless they already are.
 */
export function requeue({ db, now }: TestProviderOptions): void {
  durably(db, (tx) => {
    const live = tx.select({ id: testBillingSubscriptions.id }).from(testBillingSubscriptions).where(inArray(testBillingSubscriptions.status, ["active", "past_due"])).all();
    for (const { id } of live) queueDue(tx, now, id);
    const waiting = tx.select({ seq: testBillingEvents.seq }).from(testBillingEvents).where(isNull(testBillingEvents.deliveredAt)).limit(1).get();
    if (waiting) enqueueJob(tx, { kind: "provider-events", payload: {} }, now());
  });
}

/** What is due for the subscription now: renewals (a few at most), a retry, or its end. */
function advance(tx: Db, now: () => Date, subId: string): void {
  for (let i = 0; i < MAX_RENEWALS_PER_WAKE; i++) {
    const s = subscription(tx, subId);
    if (!s) return;
    const at = now();
    const c = customer(tx, s.customerId)!;
    if (s.status === "active" && s.currentPeriodEnd.getTime() <= at.getTime()) {
      if (s.cancelAtPeriodEnd) {
        tx.update(testBillingSubscriptions).set({ status: "canceled", endedAt: s.currentPeriodEnd }).where(eq(testBillingSubscriptions.id, s.id)).run();
        emitSubscription(tx, now, "customer.subscription.deleted", s.id);
        return;
      }
      // Renewal: the next period is invoiced and charged to the card on file.
      const periodStart = s.currentPeriodEnd;
      const periodEnd = periodEndAfter(s, periodStart, PLUS_PLANS[s.interval].months);
      const paid = charges(c, "subscription_cycle");
      const invoice: InvoiceRow = {
        id: `in_test_${newId()}`,
        customerId: c.id,
        subscriptionId: s.id,
        number: nextInvoiceNumber(tx),
        amountCents: s.amountCents,
        status: paid ? "paid" : "open",
        billingReason: "subscription_cycle",
        periodStart,
        periodEnd,
        attemptCount: 1,
        paidAt: paid ? at : null,
        cardBrand: c.cardBrand,
        cardLast4: c.cardLast4,
        createdAt: at,
      };
      tx.insert(testBillingInvoices).values(invoice).run();
      if (paid) {
        tx.update(testBillingSubscriptions).set({ currentPeriodStart: periodStart, currentPeriodEnd: periodEnd }).where(eq(testBillingSubscriptions.id, s.id)).run();
        emit(tx, now, "invoice.paid", invoiceObject(invoice, null, s.interval));
        emitSubscription(tx, now, "customer.subscription.updated", s.id);
        continue;
      }
      const retryAt = new Date(at.getTime() + RETRY_AFTER_DAYS[0] * DAY_MS);
      tx.update(testBillingSubscriptions).set({ status: "past_due", nextAttemptAt: retryAt }).where(eq(testBillingSubscriptions.id, s.id)).run();
      emit(tx, now, "invoice.payment_failed", invoiceObject(invoice, retryAt, s.interval));
      emitSubscription(tx, now, "customer.subscription.updated", s.id);
      return;
    }
    if (s.status === "past_due" && s.nextAttemptAt && s.nextAttemptAt.getTime() <= at.getTime()) {
      const open = openInvoiceOf(tx, s.id);
      if (!open) {
        tx.update(testBillingSubscriptions).set({ status: "active", nextAttemptAt: null }).where(eq(testBillingSubscriptions.id, s.id)).run();
        emitSubscription(tx, now, "customer.subscription.updated", s.id);
        continue;
      }
      const attempts = open.attemptCount + 1;
      if (charges(c, open.billingReason)) {
        settle(tx, now, open, c, at);
        continue;
      }
      const retry = RETRY_AFTER_DAYS[attempts - 1];
      if (retry === undefined) {
        // Out of retries: the invoice is written off and the subscription ends.
        tx.update(testBillingInvoices).set({ status: "uncollectible", attemptCount: attempts }).where(eq(testBillingInvoices.id, open.id)).run();
        emit(tx, now, "invoice.marked_uncollectible", invoiceObject({ ...open, status: "uncollectible", attemptCount: attempts }, null, s.interval));
        tx.update(testBillingSubscriptions).set({ status: "canceled", endedAt: at, nextAttemptAt: null }).where(eq(testBillingSubscriptions.id, s.id)).run();
        emitSubscription(tx, now, "customer.subscription.deleted", s.id);
        return;
      }
      const retryAt = new Date(open.createdAt.getTime() + retry * DAY_MS);
      tx.update(testBillingInvoices).set({ attemptCount: attempts }).where(eq(testBillingInvoices.id, open.id)).run();
      tx.update(testBillingSubscriptions).set({ nextAttemptAt: retryAt }).where(eq(testBillingSubscriptions.id, s.id)).run();
      emit(tx, now, "invoice.payment_failed", invoiceObject({ ...open, attemptCount: attempts }, retryAt, s.interval));
      return;
    }
    return;
  }
}

/** An open invoice paid now with the card on file: the subscription is active for its period. */
export function settle(tx: Db, now: () => Date, open: InvoiceRow, c: CustomerRow, at: Date): number {
  const attempts = open.attemptCount + 1;
  tx.update(testBillingInvoices)
    .set({ status: "paid", paidAt: at, attemptCount: attempts, cardBrand: c.cardBrand, cardLast4: c.cardLast4 })
    .where(eq(testBillingInvoices.id, open.id))
    .run();
  emit(tx, now, "invoice.paid", invoiceObject({ ...open, status: "paid", paidAt: at, attemptCount: attempts, cardBrand: c.cardBrand, cardLast4: c.cardLast4 }, null, subscription(tx, open.subscriptionId)!.interval));
  tx.update(testBillingSubscriptions)
    .set({ status: "active", nextAttemptAt: null, currentPeriodStart: open.periodStart, currentPeriodEnd: open.periodEnd })
    .where(eq(testBillingSubscriptions.id, open.subscriptionId))
    .run();
  emitSubscription(tx, now, "customer.subscription.updated", open.subscriptionId);
  return open.amountCents;
}
