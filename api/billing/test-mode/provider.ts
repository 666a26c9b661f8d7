/**
 * The embedded test-mode billing provider (ADR 080): a real provider in all but money. It keeps its
 * own records (test_billing_* tables), hosts a checkout page and a payment-method page
 * (editor/pages/billing/), takes the published test card numbers, renews subscriptions at each
 * period end, retries a declined renewal on a schedule and ends the subscription when the retries
 * run out, and reports every outcome as a signed event to the product's webhook, in order, retrying
 * a delivery that fails.
 *
 * Its timed work rides the product's one job queue (ADR 100, 102), queued with the change that makes
 * it due: `provider-due` at a period end or retry (clock.ts), and `provider-events`, which delivers
 * events in `seq` order and stops at the first refusal, so a failed event holds later ones back.
 */
import { newId } from "#db/ids.ts";
import { testBillingCustomers } from "#db/schema.ts";
import type { BillingProvider } from "../provider.ts";
import { requeue, runDue } from "./clock.ts";
import { testConnect, type TestConnect } from "./connect.ts";
import { deliverPending, type TestProviderOptions } from "./records.ts";
import { hostedPages, type HostedPages } from "./sessions.ts";
import { subscriptionChanges } from "./subscriptions.ts";

export type { ProviderDueJob } from "./clock.ts";

export interface TestModeProvider extends BillingProvider, HostedPages, TestConnect {
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

/**
 * The provider, made of its parts: customers here, the hosted pages (sessions.ts), the changes the
 * product makes (subscriptions.ts) and the clock's work (clock.ts), over the records and events of
 * records.ts.
 */
export function createTestProvider(opts: TestProviderOptions): TestModeProvider {
  const { db, now } = opts;
  return {
    name: "test",
    testMode: true,
    async createCustomer({ userId, email }) {
      const id = `cus_test_${newId()}`;
      db.insert(testBillingCustomers).values({ id, userId, email, createdAt: now() }).run();
      return { customerId: id };
    },
    ...hostedPages(opts),
    ...subscriptionChanges(opts),
    ...testConnect(opts),
    runDue: (subscriptionId) => runDue(opts, subscriptionId),
    deliverPending: () => deliverPending(opts),
    requeue: () => requeue(opts),
  };
}
