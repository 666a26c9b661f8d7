/**
 * What the product changes on a test-mode subscription: cancel at the period end (or take it back),
 * the billing interval, an end now, and months paid from the rewards balance. Each change is one
 * transaction with its events, and the jobs it makes due run at once.
 */
import { eq } from "drizzle-orm";
import { durably, type Db } from "#db/client.ts";
import { testBillingInvoices, testBillingSubscriptions } from "#db/schema.ts";
import { ApiError } from "../../errors.ts";
import type { BillingProvider } from "../provider.ts";
import { queueDue } from "./clock.ts";
import { emit, emitSubscription, invoiceObject, openInvoiceOf, periodEndAfter, subscription, subscriptionNow, type SubscriptionRow, type TestProviderOptions } from "./records.ts";

type SubscriptionChanges = Pick<BillingProvider, "setCancelAtPeriodEnd" | "setInterval" | "cancelNow" | "extendPeriod">;
const CANNOT_CHANGE = "This subscription can no longer be changed.";

export function subscriptionChanges(opts: TestProviderOptions): SubscriptionChanges {
  const { db, now } = opts;
  /**
   * One change in one transaction with its events, then the jobs it made due. `apply` returns false
   * when the subscription cannot take the change (a conflict, answered with `refused`); a change that
   * depends on the period settles a period end that passed first (`settleFirst`).
   */
  const change = async (subscriptionId: string, refused: string, settleFirst: boolean, apply: (tx: Db, s: SubscriptionRow) => boolean) => {
    if (settleFirst) await opts.runJobs();
    const result = durably(db, (tx) => {
      const s = subscription(tx, subscriptionId);
      return s && apply(tx, s) ? subscriptionNow(tx, s.id) : null;
    });
    await opts.runJobs();
    if (!result) throw new ApiError("conflict", refused);
    return result;
  };
  /** The subscription's open invoice, if any, is voided. */
  const voidOpenInvoice = (tx: Db, s: SubscriptionRow) => {
    const open = openInvoiceOf(tx, s.id);
    if (open) {
      tx.update(testBillingInvoices).set({ status: "void" }).where(eq(testBillingInvoices.id, open.id)).run();
      emit(tx, now, "invoice.voided", invoiceObject({ ...open, status: "void" }, null, s.interval));
    }
    return open;
  };
  const update = (tx: Db, s: SubscriptionRow, set: Partial<SubscriptionRow>) => tx.update(testBillingSubscriptions).set(set).where(eq(testBillingSubscriptions.id, s.id)).run();

  return {
    setCancelAtPeriodEnd: (subscriptionId, cancel) =>
      change(subscriptionId, CANNOT_CHANGE, true, (tx, s) => {
        if (s.status !== "active") return false;
        if (s.cancelAtPeriodEnd !== cancel) {
          update(tx, s, { cancelAtPeriodEnd: cancel });
          emitSubscription(tx, now, "customer.subscription.updated", s.id);
        }
        return true;
      }),

    setInterval: (subscriptionId, interval, amountCents) =>
      change(subscriptionId, CANNOT_CHANGE, true, (tx, s) => {
        if (s.status !== "active" || s.cancelAtPeriodEnd) return false;
        if (s.interval !== interval || s.amountCents !== amountCents) {
          update(tx, s, { interval, amountCents });
          emitSubscription(tx, now, "customer.subscription.updated", s.id);
        }
        return true;
      }),

    cancelNow: (subscriptionId) =>
      change(subscriptionId, "This subscription has already ended.", false, (tx, s) => {
        if (s.status === "canceled") return false;
        const at = now();
        voidOpenInvoice(tx, s);
        update(tx, s, { status: "canceled", endedAt: at, nextAttemptAt: null });
        emitSubscription(tx, now, "customer.subscription.deleted", s.id);
        return true;
      }),

    extendPeriod: (subscriptionId, months) =>
      change(subscriptionId, "This subscription has ended.", false, (tx, s) => {
        if (s.status === "canceled") return false;
        if (s.status === "past_due") {
          const open = voidOpenInvoice(tx, s);
          const from = open ? open.periodStart : s.currentPeriodEnd;
          update(tx, s, { status: "active", nextAttemptAt: null, currentPeriodStart: from, currentPeriodEnd: periodEndAfter(s, from, months) });
        } else {
          update(tx, s, { currentPeriodEnd: periodEndAfter(s, s.currentPeriodEnd, months) });
        }
        emitSubscription(tx, now, "customer.subscription.updated", s.id);
        queueDue(tx, now, s.id);
        return true;
      }),
  };
}
