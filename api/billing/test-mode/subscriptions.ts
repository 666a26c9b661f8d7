/**
 * What the product changes on a test-mode subscription: cancel at the period end (or take it back),
 * the billing interval, an end now, and months paid from the rewards balance. Each change is one
 * transaction with its events, and the jobs it makes due run at once.
 */
import { eq } from "drizzle-orm";
import { durably } from "#db/client.ts";
import { testBillingInvoices, testBillingSubscriptions } from "#db/schema.ts";
import { ApiError } from "../../errors.ts";
import type { BillingProvider } from "../provider.ts";
import { queueDue } from "./clock.ts";
import { emit, emitSubscription } from "./events.ts";
import { invoiceObject, openInvoiceOf, periodEndAfter, subscription, subscriptionNow, type TestProviderOptions } from "./records.ts";

type SubscriptionChanges = Pick<BillingProvider, "setCancelAtPeriodEnd" | "setInterval" | "cancelNow" | "extendPeriod">;

export function subscriptionChanges(opts: TestProviderOptions): SubscriptionChanges {
  const { db, now } = opts;
  return {
    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      // A period end that passed is settled first.
      await opts.runJobs();
      const result = durably(db, (tx) => {
        const s = subscription(tx, subscriptionId);
        if (!s || s.status !== "active") return null;
        if (s.cancelAtPeriodEnd !== cancel) {
          tx.update(testBillingSubscriptions).set({ cancelAtPeriodEnd: cancel }).where(eq(testBillingSubscriptions.id, s.id)).run();
          emitSubscription(tx, now, "customer.subscription.updated", s.id);
        }
        return subscriptionNow(tx, s.id);
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
          emitSubscription(tx, now, "customer.subscription.updated", s.id);
        }
        return subscriptionNow(tx, s.id);
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
          emit(tx, now, "invoice.voided", invoiceObject({ ...open, status: "void" }, null, s.interval));
        }
        tx.update(testBillingSubscriptions).set({ status: "canceled", endedAt: at, nextAttemptAt: null }).where(eq(testBillingSubscriptions.id, s.id)).run();
        emitSubscription(tx, now, "customer.subscription.deleted", s.id);
        return subscriptionNow(tx, s.id);
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
            emit(tx, now, "invoice.voided", invoiceObject({ ...open, status: "void" }, null, s.interval));
          }
          tx.update(testBillingSubscriptions)
            .set({ status: "active", nextAttemptAt: null, currentPeriodStart: from, currentPeriodEnd: periodEndAfter(s, from, months) })
            .where(eq(testBillingSubscriptions.id, s.id))
            .run();
        } else {
          tx.update(testBillingSubscriptions).set({ currentPeriodEnd: periodEndAfter(s, s.currentPeriodEnd, months) }).where(eq(testBillingSubscriptions.id, s.id)).run();
        }
        emitSubscription(tx, now, "customer.subscription.updated", s.id);
        queueDue(tx, now, s.id);
        return subscriptionNow(tx, s.id);
      });
      await opts.runJobs();
      if (!result) throw new ApiError("conflict", "This subscription has ended.");
      return result;
    },
  };
}
