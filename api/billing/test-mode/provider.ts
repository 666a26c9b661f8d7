/**
 * The embedded test-mode billing provider (ADR 080): a real provider in all but money. It keeps its
 * own records (test_billing_* tables), hosts a checkout page and a payment-method page
 * (editor/pages/billing/), takes the published test card numbers, renews subscriptions at each
 * period end, retries a declined renewal on a schedule and ends the subscription when the retries
 * run out, and reports every outcome as a signed event to the product's webhook, in order, retrying
 * a delivery that fails.
 *
 * Its timed work rides the product's one job queue (ADR 100, 102), written in the same transaction as
 * the change that makes it due: a `provider-due` job at each subscription's next period end or retry
 * (keyed by the subscription and the instant, so it is queued once), and a `provider-events` job for
 * each event, which delivers every undelivered event in `seq` order and stops at the first refusal,
 * so a failed event holds the ones after it back until the queue retries it. The due job reads the
 * subscription as it is when it runs: a period moved since (a resume, months paid from the balance)
 * has its own job, and the old one does nothing.
 */
import { and, asc, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { CARD_MESSAGES, PLUS_PLANS, renewalDate, TEST_CARDS, type TestCardOutcome } from "#core/schemas/billing.ts";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { testBillingCustomers, testBillingEvents, testBillingInvoices, testBillingSessions, testBillingSubscriptions } from "#db/schema.ts";
import { ApiError } from "../../errors.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import type { BillingEventType, BillingProvider, CardSummary, CheckoutSessionObject, InvoiceObject, SubscriptionObject } from "../provider.ts";
import { signPayload } from "../signature.ts";

const DAY_MS = 86_400_000;
/** A declined renewal is tried again this many days after the first decline; then the subscription ends. */
export const RETRY_AFTER_DAYS = [3, 5, 7] as const;
export const CHECKOUT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const PORTAL_SESSION_TTL_MS = 60 * 60 * 1000;
/** Periods renewed by one due job at most (a server that was off for years does not loop forever). */
const MAX_RENEWALS_PER_WAKE = 24;

type CustomerRow = typeof testBillingCustomers.$inferSelect;
type SubscriptionRow = typeof testBillingSubscriptions.$inferSelect;
type InvoiceRow = typeof testBillingInvoices.$inferSelect;
type SessionRow = typeof testBillingSessions.$inferSelect;

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

export interface HostedSession {
  id: string;
  kind: "checkout" | "portal";
  status: "open" | "complete" | "expired";
  email: string;
  amountCents: number;
  interval: "month" | "year";
  description: string;
  successUrl: string;
  cancelUrl: string;
  card: CardSummary | null;
  subscription: { status: string; currentPeriodEnd: string; cancelAtPeriodEnd: boolean; amountDueCents: number } | null;
}

export interface TestModeProvider extends BillingProvider {
  /** Hosted pages: the session as its page shows it (only to the customer's own user). */
  session(sessionId: string, userId: string): HostedSession;
  /** The checkout page's Pay button. Idempotent: a second press of a completed session changes nothing. */
  pay(sessionId: string, userId: string, card: { number: string; name: string }): Promise<{ redirectUrl: string }>;
  /** The payment-method page: a new card, and a past-due invoice tried again with it at once. */
  updatePaymentMethod(sessionId: string, userId: string, card: { number: string; name: string }): Promise<{ card: CardSummary; settledCents: number | null }>;
  /** The `provider-due` job: a subscription's period end or retry, if it is due now. */
  runDue(subscriptionId: string): void;
  /** The `provider-events` job: every undelivered event, in order; throws at the first refusal. */
  deliverPending(): Promise<void>;
  /**
   * At start: the due job of every live subscription, and a delivery if an event waits, queued
   * unless they already are (a database from before the job queue, or one restored from a backup).
   */
  requeue(): void;
}

export interface ProviderDueJob {
  subscriptionId: string;
}

/** Periods end on the subscription's billing day, the day it started (the billing cycle anchor). */
const periodEndAfter = (s: Pick<SubscriptionRow, "createdAt">, from: Date, months: number) => renewalDate(from, months, s.createdAt);

const cardOf = (row: { cardBrand: string | null; cardLast4: string | null }): CardSummary | null =>
  row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null;

function testCard(number: string): { brand: string; last4: string; outcome: TestCardOutcome } {
  const card = TEST_CARDS.find((c) => c.number === number);
  if (!card) throw new ApiError("payment_required", CARD_MESSAGES.notTestCard, { fields: { number: CARD_MESSAGES.notTestCard } });
  return { brand: card.brand, last4: number.slice(-4), outcome: card.outcome };
}

function refuseCard(outcome: TestCardOutcome): void {
  if (outcome === "declined") throw new ApiError("payment_required", CARD_MESSAGES.declined, { fields: { number: CARD_MESSAGES.declined } });
  if (outcome === "insufficient_funds") throw new ApiError("payment_required", CARD_MESSAGES.insufficientFunds, { fields: { number: CARD_MESSAGES.insufficientFunds } });
}

export function createTestProvider(opts: TestProviderOptions): TestModeProvider {
  const { db, now } = opts;
  const ms = () => now().getTime();

  // ---- objects as events carry them

  const subscriptionObject = (s: SubscriptionRow, c: CustomerRow): SubscriptionObject => ({
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

  const invoiceObject = (i: InvoiceRow, nextAttempt: Date | null, interval: SubscriptionRow["interval"]): InvoiceObject => ({
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

  function emit(tx: Db, type: BillingEventType, object: SubscriptionObject | InvoiceObject | CheckoutSessionObject): void {
    const id = `evt_test_${newId()}`;
    const created = ms();
    const payload = JSON.stringify({ id, created, type, data: { object } });
    tx.insert(testBillingEvents).values({ id, type, payload, createdAt: new Date(created) }).run();
    enqueueJob(tx, { kind: "provider-events", payload: {} }, new Date(created));
  }

  const customer = (tx: Db, id: string) => tx.select().from(testBillingCustomers).where(eq(testBillingCustomers.id, id)).get();
  const subscription = (tx: Db, id: string) => tx.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.id, id)).get();

  function nextInvoiceNumber(tx: Db): string {
    const n = (tx.select({ n: count() }).from(testBillingInvoices).get()?.n ?? 0) + 1;
    return `PLN-${String(n).padStart(6, "0")}`;
  }

  /** Whether the card on file pays this invoice (the test cards' documented behaviour). */
  const charges = (c: CustomerRow, reason: InvoiceRow["billingReason"]) =>
    c.cardBehaviour === "ok" || (c.cardBehaviour === "decline_renewals" && reason === "subscription_create");

  /** A card that passed refuseCard becomes the customer's card, with how it behaves at renewals. */
  function putCardOnFile(tx: Db, customerId: string, card: ReturnType<typeof testCard>): void {
    const behaviour = card.outcome === "decline_renewals" ? "decline_renewals" : "ok";
    tx.update(testBillingCustomers).set({ cardBrand: card.brand, cardLast4: card.last4, cardBehaviour: behaviour }).where(eq(testBillingCustomers.id, customerId)).run();
  }

  function emitSubscription(tx: Db, type: BillingEventType, subId: string): void {
    const s = subscription(tx, subId)!;
    emit(tx, type, subscriptionObject(s, customer(tx, s.customerId)!));
  }

  const openInvoiceOf = (tx: Db, subId: string) =>
    tx
      .select()
      .from(testBillingInvoices)
      .where(and(eq(testBillingInvoices.subscriptionId, subId), eq(testBillingInvoices.status, "open")))
      .get();

  /** A live subscription of the customer (one that still bills), or undefined. */
  const liveSubscription = (tx: Db, customerId: string) =>
    tx
      .select()
      .from(testBillingSubscriptions)
      .where(and(eq(testBillingSubscriptions.customerId, customerId), inArray(testBillingSubscriptions.status, ["active", "past_due"])))
      .get();

  // ---- the clock's work

  /**
   * The job for the subscription's next due instant (the period end, or the retry while past due),
   * written with the change that set it. The key makes a second call for the same instant a no-op.
   */
  function queueDue(tx: Db, subId: string): void {
    const s = subscription(tx, subId);
    const at = s?.status === "active" ? s.currentPeriodEnd : s?.status === "past_due" ? s.nextAttemptAt : null;
    if (!s || !at) return;
    const job: ProviderDueJob = { subscriptionId: s.id };
    enqueueJob(tx, { kind: "provider-due", payload: job, onceKey: `provider-due:${s.id}:${at.getTime()}` }, now(), at);
  }

  /** One subscription's due work, in one transaction, and the job for what is due next. */
  function runDue(subId: string): void {
    durably(db, (tx) => {
      advance(tx, subId);
      queueDue(tx, subId);
    });
  }

  /** What is due for the subscription now: renewals (a few at most), a retry, or its end. */
  function advance(tx: Db, subId: string): void {
    for (let i = 0; i < MAX_RENEWALS_PER_WAKE; i++) {
      const s = subscription(tx, subId);
      if (!s) return;
      const at = now();
      const c = customer(tx, s.customerId)!;
      if (s.status === "active" && s.currentPeriodEnd.getTime() <= at.getTime()) {
        if (s.cancelAtPeriodEnd) {
          tx.update(testBillingSubscriptions).set({ status: "canceled", endedAt: s.currentPeriodEnd }).where(eq(testBillingSubscriptions.id, s.id)).run();
          emitSubscription(tx, "customer.subscription.deleted", s.id);
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
          emit(tx, "invoice.paid", invoiceObject(invoice, null, s.interval));
          emitSubscription(tx, "customer.subscription.updated", s.id);
          continue;
        }
        const retryAt = new Date(at.getTime() + RETRY_AFTER_DAYS[0] * DAY_MS);
        tx.update(testBillingSubscriptions).set({ status: "past_due", nextAttemptAt: retryAt }).where(eq(testBillingSubscriptions.id, s.id)).run();
        emit(tx, "invoice.payment_failed", invoiceObject(invoice, retryAt, s.interval));
        emitSubscription(tx, "customer.subscription.updated", s.id);
        return;
      }
      if (s.status === "past_due" && s.nextAttemptAt && s.nextAttemptAt.getTime() <= at.getTime()) {
        const open = openInvoiceOf(tx, s.id);
        if (!open) {
          tx.update(testBillingSubscriptions).set({ status: "active", nextAttemptAt: null }).where(eq(testBillingSubscriptions.id, s.id)).run();
          emitSubscription(tx, "customer.subscription.updated", s.id);
          continue;
        }
        const attempts = open.attemptCount + 1;
        if (charges(c, open.billingReason)) {
          settle(tx, open, c, at);
          continue;
        }
        const retry = RETRY_AFTER_DAYS[attempts - 1];
        if (retry === undefined) {
          // Out of retries: the invoice is written off and the subscription ends.
          tx.update(testBillingInvoices).set({ status: "uncollectible", attemptCount: attempts }).where(eq(testBillingInvoices.id, open.id)).run();
          emit(tx, "invoice.marked_uncollectible", invoiceObject({ ...open, status: "uncollectible", attemptCount: attempts }, null, s.interval));
          tx.update(testBillingSubscriptions).set({ status: "canceled", endedAt: at, nextAttemptAt: null }).where(eq(testBillingSubscriptions.id, s.id)).run();
          emitSubscription(tx, "customer.subscription.deleted", s.id);
          return;
        }
        const retryAt = new Date(open.createdAt.getTime() + retry * DAY_MS);
        tx.update(testBillingInvoices).set({ attemptCount: attempts }).where(eq(testBillingInvoices.id, open.id)).run();
        tx.update(testBillingSubscriptions).set({ nextAttemptAt: retryAt }).where(eq(testBillingSubscriptions.id, s.id)).run();
        emit(tx, "invoice.payment_failed", invoiceObject({ ...open, attemptCount: attempts }, retryAt, s.interval));
        return;
      }
      return;
    }
  }

  /** An open invoice paid now with the card on file: the subscription is active for its period. */
  function settle(tx: Db, open: InvoiceRow, c: CustomerRow, at: Date): number {
    const attempts = open.attemptCount + 1;
    tx.update(testBillingInvoices)
      .set({ status: "paid", paidAt: at, attemptCount: attempts, cardBrand: c.cardBrand, cardLast4: c.cardLast4 })
      .where(eq(testBillingInvoices.id, open.id))
      .run();
    emit(tx, "invoice.paid", invoiceObject({ ...open, status: "paid", paidAt: at, attemptCount: attempts, cardBrand: c.cardBrand, cardLast4: c.cardLast4 }, null, subscription(tx, open.subscriptionId)!.interval));
    tx.update(testBillingSubscriptions)
      .set({ status: "active", nextAttemptAt: null, currentPeriodStart: open.periodStart, currentPeriodEnd: open.periodEnd })
      .where(eq(testBillingSubscriptions.id, open.subscriptionId))
      .run();
    emitSubscription(tx, "customer.subscription.updated", open.subscriptionId);
    return open.amountCents;
  }

  function requeue(): void {
    durably(db, (tx) => {
      const live = tx.select({ id: testBillingSubscriptions.id }).from(testBillingSubscriptions).where(inArray(testBillingSubscriptions.status, ["active", "past_due"])).all();
      for (const { id } of live) queueDue(tx, id);
      const waiting = tx.select({ seq: testBillingEvents.seq }).from(testBillingEvents).where(isNull(testBillingEvents.deliveredAt)).limit(1).get();
      if (waiting) enqueueJob(tx, { kind: "provider-events", payload: {} }, now());
    });
  }

  // ---- delivery, one event at a time and in order

  /**
   * Every undelivered event, oldest first. Order matters (a renewal before the end of the
   * subscription), so a refused event stops the run: the queue retries this job later, and the
   * events after it wait.
   */
  async function deliverPending(): Promise<void> {
    for (;;) {
      const next = db.select().from(testBillingEvents).where(isNull(testBillingEvents.deliveredAt)).orderBy(asc(testBillingEvents.seq)).limit(1).get();
      if (!next) return;
      await opts.deliver(next.payload, signPayload(opts.secret, next.payload, now()));
      db.update(testBillingEvents).set({ deliveredAt: now() }).where(eq(testBillingEvents.seq, next.seq)).run();
    }
  }

  // ---- sessions

  function ownSession(tx: Db, sessionId: string, userId: string): { session: SessionRow; customer: CustomerRow } {
    if (typeof sessionId !== "string" || sessionId.length > 100) throw new ApiError("not_found", CARD_MESSAGES.sessionNotFound);
    const session = tx.select().from(testBillingSessions).where(eq(testBillingSessions.id, sessionId)).get();
    const c = session ? customer(tx, session.customerId) : undefined;
    // Another owner's session is answered exactly like one that does not exist.
    if (!session || !c || c.userId !== userId) throw new ApiError("not_found", CARD_MESSAGES.sessionNotFound);
    return { session, customer: c };
  }

  const statusOf = (s: SessionRow, at: number): HostedSession["status"] => (s.status === "open" && s.expiresAt.getTime() <= at ? "expired" : s.status);

  const provider: TestModeProvider = {
    name: "test",
    testMode: true,

    async createCustomer({ userId, email }) {
      const id = `cus_test_${newId()}`;
      db.insert(testBillingCustomers).values({ id, userId, email, createdAt: now() }).run();
      return { customerId: id };
    },

    async createCheckoutSession(input) {
      const c = customer(db, input.customerId);
      if (!c || c.userId !== input.userId) throw new Error("Unknown billing customer");
      const id = `cs_test_${newId()}`;
      const at = now();
      db.insert(testBillingSessions)
        .values({
          id,
          kind: "checkout",
          customerId: c.id,
          amountCents: input.amountCents,
          interval: input.interval ?? "month",
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          expiresAt: new Date(at.getTime() + CHECKOUT_SESSION_TTL_MS),
          createdAt: at,
        })
        .run();
      return { id, url: `${opts.origin}/billing/checkout?session=${id}` };
    },

    async createPortalSession({ customerId, returnUrl }) {
      if (!customer(db, customerId)) throw new Error("Unknown billing customer");
      const id = `bps_test_${newId()}`;
      const at = now();
      db.insert(testBillingSessions)
        .values({ id, kind: "portal", customerId, successUrl: returnUrl, cancelUrl: returnUrl, expiresAt: new Date(at.getTime() + PORTAL_SESSION_TTL_MS), createdAt: at })
        .run();
      return { url: `${opts.origin}/billing/portal?session=${id}` };
    },

    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      // A period end that passed is settled first.
      await opts.runJobs();
      const result = durably(db, (tx) => {
        const s = subscription(tx, subscriptionId);
        if (!s || s.status !== "active") return null;
        if (s.cancelAtPeriodEnd !== cancel) {
          tx.update(testBillingSubscriptions).set({ cancelAtPeriodEnd: cancel }).where(eq(testBillingSubscriptions.id, s.id)).run();
          emitSubscription(tx, "customer.subscription.updated", s.id);
        }
        return subscriptionObject(subscription(tx, s.id)!, customer(tx, s.customerId)!);
      });
      await opts.runJobs();
      if (!result) throw new ApiError("conflict", "This subscription can no longer be changed.");
      return result;
    },

    async setInterval(subscriptionId, interval, amountCents) {
      // A period end that passed is settled first.
      await opts.runJobs();
      const result = durably(db, (tx) => {
        const s = subscription(tx, subscriptionId);
        if (!s || s.status !== "active" || s.cancelAtPeriodEnd) return null;
        if (s.interval !== interval || s.amountCents !== amountCents) {
          tx.update(testBillingSubscriptions).set({ interval, amountCents }).where(eq(testBillingSubscriptions.id, s.id)).run();
          emitSubscription(tx, "customer.subscription.updated", s.id);
        }
        return subscriptionObject(subscription(tx, s.id)!, customer(tx, s.customerId)!);
      });
      await opts.runJobs();
      if (!result) throw new ApiError("conflict", "This subscription can no longer be changed.");
      return result;
    },

    async cancelNow(subscriptionId) {
      const result = durably(db, (tx) => {
        const s = subscription(tx, subscriptionId);
        if (!s || s.status === "canceled") return null;
        const at = now();
        const open = openInvoiceOf(tx, s.id);
        if (open) {
          tx.update(testBillingInvoices).set({ status: "void" }).where(eq(testBillingInvoices.id, open.id)).run();
          emit(tx, "invoice.voided", invoiceObject({ ...open, status: "void" }, null, s.interval));
        }
        tx.update(testBillingSubscriptions).set({ status: "canceled", endedAt: at, nextAttemptAt: null }).where(eq(testBillingSubscriptions.id, s.id)).run();
        emitSubscription(tx, "customer.subscription.deleted", s.id);
        return subscriptionObject(subscription(tx, s.id)!, customer(tx, s.customerId)!);
      });
      await opts.runJobs();
      if (!result) throw new ApiError("conflict", "This subscription has already ended.");
      return result;
    },

    async extendPeriod(subscriptionId, months) {
      const result = durably(db, (tx) => {
        const s = subscription(tx, subscriptionId);
        if (!s || s.status === "canceled") return null;
        if (s.status === "past_due") {
          const open = openInvoiceOf(tx, s.id);
          const from = open ? open.periodStart : s.currentPeriodEnd;
          if (open) {
            tx.update(testBillingInvoices).set({ status: "void" }).where(eq(testBillingInvoices.id, open.id)).run();
            emit(tx, "invoice.voided", invoiceObject({ ...open, status: "void" }, null, s.interval));
          }
          tx.update(testBillingSubscriptions)
            .set({ status: "active", nextAttemptAt: null, currentPeriodStart: from, currentPeriodEnd: periodEndAfter(s, from, months) })
            .where(eq(testBillingSubscriptions.id, s.id))
            .run();
        } else {
          tx.update(testBillingSubscriptions).set({ currentPeriodEnd: periodEndAfter(s, s.currentPeriodEnd, months) }).where(eq(testBillingSubscriptions.id, s.id)).run();
        }
        emitSubscription(tx, "customer.subscription.updated", s.id);
        queueDue(tx, s.id);
        return subscriptionObject(subscription(tx, s.id)!, customer(tx, s.customerId)!);
      });
      await opts.runJobs();
      if (!result) throw new ApiError("conflict", "This subscription has ended.");
      return result;
    },

    session(sessionId, userId) {
      const { session, customer: c } = ownSession(db, sessionId, userId);
      const s = session.kind === "portal" ? latestSubscription(c.id) : null;
      const open = s && s.status === "past_due" ? openInvoiceOf(db, s.id) : undefined;
      return {
        id: session.id,
        kind: session.kind,
        status: statusOf(session, ms()),
        email: c.email,
        amountCents: session.amountCents,
        interval: session.interval,
        description: PLUS_PLANS[session.interval].description,
        successUrl: session.successUrl,
        cancelUrl: session.cancelUrl,
        card: cardOf(c),
        subscription: s
          ? { status: s.status, currentPeriodEnd: s.currentPeriodEnd.toISOString(), cancelAtPeriodEnd: s.cancelAtPeriodEnd, amountDueCents: open?.amountCents ?? 0 }
          : null,
      };
    },

    async pay(sessionId, userId, form) {
      // A period end that passed is settled first, so a subscription that just ended does not block a new one.
      await opts.runJobs();
      const card = testCard(form.number);
      const result = durably(db, (tx) => {
        const { session, customer: c } = ownSession(tx, sessionId, userId);
        if (session.kind !== "checkout") throw new ApiError("not_found", CARD_MESSAGES.sessionNotFound);
        if (session.status === "complete") return { redirectUrl: session.successUrl };
        if (statusOf(session, ms()) === "expired") throw new ApiError("gone", CARD_MESSAGES.sessionExpired);
        if (liveSubscription(tx, c.id)) throw new ApiError("conflict", "You already have an active subscription.");
        refuseCard(card.outcome);
        const at = now();
        putCardOnFile(tx, c.id, card);
        const subId = `sub_test_${newId()}`;
        const periodEnd = renewalDate(at, PLUS_PLANS[session.interval].months, at);
        tx.insert(testBillingSubscriptions)
          .values({ id: subId, customerId: c.id, status: "active", amountCents: session.amountCents, interval: session.interval, currentPeriodStart: at, currentPeriodEnd: periodEnd, createdAt: at })
          .run();
        const invoice: InvoiceRow = {
          id: `in_test_${newId()}`,
          customerId: c.id,
          subscriptionId: subId,
          number: nextInvoiceNumber(tx),
          amountCents: session.amountCents,
          status: "paid",
          billingReason: "subscription_create",
          periodStart: at,
          periodEnd,
          attemptCount: 1,
          paidAt: at,
          cardBrand: card.brand,
          cardLast4: card.last4,
          createdAt: at,
        };
        tx.insert(testBillingInvoices).values(invoice).run();
        tx.update(testBillingSessions).set({ status: "complete", completedAt: at, subscriptionId: subId }).where(eq(testBillingSessions.id, session.id)).run();
        queueDue(tx, subId);
        emitSubscription(tx, "customer.subscription.created", subId);
        emit(tx, "invoice.paid", invoiceObject(invoice, null, session.interval));
        emit(tx, "checkout.session.completed", { object: "checkout.session", id: session.id, customer: c.id, subscription: subId, client_reference_id: userId });
        return { redirectUrl: session.successUrl };
      });
      await opts.runJobs();
      return result;
    },

    async updatePaymentMethod(sessionId, userId, form) {
      const card = testCard(form.number);
      const result = durably(db, (tx) => {
        const { session, customer: c } = ownSession(tx, sessionId, userId);
        if (session.kind !== "portal") throw new ApiError("not_found", CARD_MESSAGES.sessionNotFound);
        if (statusOf(session, ms()) === "expired") throw new ApiError("gone", "This page has expired. Open it again from your dashboard.");
        // A card that cannot be charged at all is refused when it is added, as a real check would.
        refuseCard(card.outcome);
        putCardOnFile(tx, c.id, card);
        const updated = customer(tx, c.id)!;
        let settledCents: number | null = null;
        const live = liveSubscription(tx, c.id);
        if (live) {
          emitSubscription(tx, "customer.subscription.updated", live.id);
          const open = live.status === "past_due" ? openInvoiceOf(tx, live.id) : undefined;
          if (open) {
            if (!charges(updated, open.billingReason)) {
              throw new ApiError("payment_required", CARD_MESSAGES.declined, { fields: { number: CARD_MESSAGES.declined } });
            }
            settledCents = settle(tx, open, updated, now());
            queueDue(tx, live.id);
          }
        }
        return { card: { brand: card.brand, last4: card.last4 }, settledCents };
      });
      await opts.runJobs();
      return result;
    },

    runDue,
    deliverPending,
    requeue,
  };

  /** The live subscription, else the most recent one (the portal shows how it ended). */
  function latestSubscription(customerId: string): SubscriptionRow | undefined {
    return (
      liveSubscription(db, customerId) ??
      db.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.customerId, customerId)).orderBy(desc(testBillingSubscriptions.createdAt)).limit(1).get()
    );
  }

  return provider;
}
