/**
 * Billing in tests: subscribing through the test-mode provider's real checkout API, moving a
 * subscription's period end into the past in the database (provider-due.ts), running the job queue
 * that does the provider's due work, and signing webhook bodies the way the provider does.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { signPayload } from "#api/billing/signature.ts";
import { jobsFor } from "#api/jobs/runner.ts";
import { billingFor, billingCustomer } from "#api/services/billing.ts";
import { addMonths } from "#core/schemas/billing.ts";
import { testBillingSubscriptions, userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { createApiOwner, type ApiOwner } from "./owner.ts";

export { deliveryRetriesDueNow, endPeriodNow, retryNow } from "./provider-due.ts";

export const CARDS = {
  ok: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
  insufficient: "4000 0000 0000 9995",
  declineRenewals: "4000 0000 0000 0341",
} as const;

export const cardForm = (number: string) => ({ number, expiry: "12 / 34", cvc: "123", name: "Ada Lovelace" });

export async function checkoutSession(owner: ApiOwner, body: unknown = {}): Promise<string> {
  const res = await owner.call("POST", "/api/billing/checkout", body);
  if (res.status !== 201) throw new Error(`checkout ${res.status} ${await res.text()}`);
  const { url } = (await res.json()) as { url: string };
  return new URL(url).searchParams.get("session")!;
}

export async function pay(owner: ApiOwner, sessionId: string, number: string = CARDS.ok): Promise<Response> {
  return owner.call("POST", `/api/billing/test/sessions/${sessionId}/pay`, cardForm(number));
}

/** Checkout paid with `number`; throws unless it succeeded. */
export async function subscribe(owner: ApiOwner, number: string = CARDS.ok): Promise<void> {
  const res = await pay(owner, await checkoutSession(owner), number);
  if (res.status !== 200) throw new Error(`pay ${res.status} ${await res.text()}`);
}

/** A subscriber of four months (past the payout's three) with `balanceCents` in rewards. */
export async function eligibleOwner(t: TestApp, balanceCents: number): Promise<ApiOwner> {
  const owner = createApiOwner(t, "lite");
  await subscribe(owner);
  t.deps.db.update(userProfiles).set({ payingSince: addMonths(new Date(), -4), rewardsBalanceCents: balanceCents }).where(eq(userProfiles.userId, owner.userId)).run();
  return owner;
}

/** A fresh request key, as the payout and renewal dialogs make one when they open. */
export const requestKey = () => randomBytes(12).toString("hex");

/** The owner's subscription at the test-mode provider. */
export function providerSubscription(t: TestApp, userId: string) {
  const id = billingCustomer(t.deps.db, userId)?.subscriptionId;
  if (!id) throw new Error("no subscription");
  return t.deps.db.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.id, id)).get()!;
}

/** One tick of the job worker: what the server's interval does when it fires now. */
export async function tick(t: TestApp): Promise<void> {
  await jobsFor(t.deps).tick();
}

export function profileOf(t: TestApp, userId: string) {
  return t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get()!;
}

export function signed(t: TestApp, body: string, at = new Date()): Record<string, string> {
  return { "Content-Type": "application/json", "Plinth-Signature": signPayload(billingFor(t.deps).webhookSecret, body, at) };
}

/** A test app whose clock (AppDeps.now, which the provider's clock follows too) stands still at `start` until moved. */
export interface ClockedApp {
  t: TestApp;
  setClock(at: number | string): void;
  /** Moves the clock to the owner's period end and lets the provider's clock run once: the renewal. */
  renewAtPeriodEnd(userId: string): Promise<void>;
}

export function clockedApp(start: string): ClockedApp {
  let at = Date.parse(start);
  const t = createTestApp();
  t.deps.now = () => new Date(at);
  const setClock = (to: number | string) => {
    at = typeof to === "string" ? Date.parse(to) : to;
  };
  return {
    t,
    setClock,
    async renewAtPeriodEnd(userId) {
      setClock(providerSubscription(t, userId).currentPeriodEnd.getTime());
      await tick(t);
    },
  };
}
