/**
 * The test-mode billing provider's due work is a job at the subscription's period end or retry
 * (api/billing/test-mode/provider.ts). Tests that move that instant into the past in the database,
 * "as if the time had come", move the job's run time with it.
 */
import { and, eq, like } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { jobs, testBillingSubscriptions } from "#db/schema.ts";

function jobDueAt(db: Db, subscriptionId: string, at: Date): void {
  db.update(jobs)
    .set({ runAfter: at })
    .where(and(eq(jobs.kind, "provider-due"), eq(jobs.state, "pending"), like(jobs.onceKey, `provider-due:${subscriptionId}:%`)))
    .run();
}

/** Moves the period end (and the job that renews it) to `msAgo` before now. */
export function endPeriodNow(db: Db, subscriptionId: string, msAgo = 1000): void {
  const at = new Date(Date.now() - msAgo);
  db.update(testBillingSubscriptions).set({ currentPeriodEnd: at }).where(eq(testBillingSubscriptions.id, subscriptionId)).run();
  jobDueAt(db, subscriptionId, at);
}

/** Moves a past-due subscription's next retry (and its job) into the past. */
export function retryNow(db: Db, subscriptionId: string): void {
  const at = new Date(Date.now() - 1000);
  db.update(testBillingSubscriptions).set({ nextAttemptAt: at }).where(eq(testBillingSubscriptions.id, subscriptionId)).run();
  jobDueAt(db, subscriptionId, at);
}

/** Failed deliveries retried now rather than after the queue's backoff. */
export function deliveryRetriesDueNow(db: Db): void {
  db.update(jobs).set({ runAfter: new Date(Date.now() - 1) }).where(and(eq(jobs.kind, "provider-events"), eq(jobs.state, "pending"))).run();
}
