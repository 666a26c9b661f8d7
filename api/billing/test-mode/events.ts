/**
 * The test-mode provider's events: each is written with the change it reports, with a
 * `provider-events` job, and delivered signed to the product's webhook one at a time and in order.
 */
import { asc, eq, isNull } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { testBillingEvents } from "#db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import type { BillingEventType, CheckoutSessionObject, InvoiceObject, SubscriptionObject } from "../provider.ts";
import { signPayload } from "../signature.ts";
import { subscriptionNow, type TestProviderOptions } from "./records.ts";

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
