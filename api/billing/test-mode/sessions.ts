/**
 * The test-mode provider's hosted pages (editor/pages/billing/): a checkout session, whose Pay button
 * starts the subscription with a test card, and a payment-method session, where a new card settles a
 * past-due invoice at once. A session is shown and used only by its customer's own user.
 */
import { eq } from "drizzle-orm";
import { CARD_MESSAGES, PLUS_PLANS, renewalDate } from "#core/schemas/billing.ts";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { testBillingInvoices, testBillingSessions, testBillingSubscriptions } from "#db/schema.ts";
import { ApiError } from "../../errors.ts";
import type { BillingProvider, CardSummary } from "../provider.ts";
import { queueDue, settle } from "./clock.ts";
import { cardOf, charges, customer, emit, emitSubscription, invoiceObject, latestSubscription, liveSubscription, nextInvoiceNumber, openInvoiceOf, putCardOnFile, refuseCard, testCard, type CustomerRow, type InvoiceRow, type SessionRow, type TestProviderOptions } from "./records.ts";

export const CHECKOUT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const PORTAL_SESSION_TTL_MS = 60 * 60 * 1000;

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

export interface HostedPages extends Pick<BillingProvider, "createCheckoutSession" | "createPortalSession"> {
  /** Hosted pages: the session as its page shows it (only to the customer's own user). */
  session(sessionId: string, userId: string): HostedSession;
  /** The checkout page's Pay button. Idempotent: a second press of a completed session changes nothing. */
  pay(sessionId: string, userId: string, card: { number: string; name: string }): Promise<{ redirectUrl: string }>;
  /** The payment-method page: a new card, and a past-due invoice tried again with it at once. */
  updatePaymentMethod(sessionId: string, userId: string, card: { number: string; name: string }): Promise<{ card: CardSummary; settledCents: number | null }>;
}

function ownSession(tx: Db, sessionId: string, userId: string): { session: SessionRow; customer: CustomerRow } {
  if (typeof sessionId !== "string" || sessionId.length > 100) throw new ApiError("not_found", CARD_MESSAGES.sessionNotFound);
  const session = tx.select().from(testBillingSessions).where(eq(testBillingSessions.id, sessionId)).get();
  const c = session ? customer(tx, session.customerId) : undefined;
  // Another owner's session is answered exactly like one that does not exist.
  if (!session || !c || c.userId !== userId) throw new ApiError("not_found", CARD_MESSAGES.sessionNotFound);
  return { session, customer: c };
}

const statusOf = (s: SessionRow, at: number): HostedSession["status"] => (s.status === "open" && s.expiresAt.getTime() <= at ? "expired" : s.status);

export function hostedPages(opts: TestProviderOptions): HostedPages {
  const { db, now } = opts;
  const ms = () => now().getTime();
  return {
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

    session(sessionId, userId) {
      const { session, customer: c } = ownSession(db, sessionId, userId);
      const s = session.kind === "portal" ? latestSubscription(db, c.id) : null;
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
        queueDue(tx, now, subId);
        emitSubscription(tx, now, "customer.subscription.created", subId);
        emit(tx, now, "invoice.paid", invoiceObject(invoice, null, session.interval));
        emit(tx, now, "checkout.session.completed", { object: "checkout.session", id: session.id, customer: c.id, subscription: subId, client_reference_id: userId });
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
          emitSubscription(tx, now, "customer.subscription.updated", live.id);
          const open = live.status === "past_due" ? openInvoiceOf(tx, live.id) : undefined;
          if (open) {
            if (!charges(updated, open.billingReason)) {
              throw new ApiError("payment_required", CARD_MESSAGES.declined, { fields: { number: CARD_MESSAGES.declined } });
            }
            settledCents = settle(tx, now, open, updated, now());
            queueDue(tx, now, live.id);
          }
        }
        return { card: { brand: card.brand, last4: card.last4 }, settledCents };
      });
      await opts.runJobs();
      return result;
    },
  };
}
