/**
 * Getting paid (ADR 230): the owner's Stripe Connect account on the product's side. Onboarding
 * ("Get paid") makes an Express account once and sends the owner to the provider's onboarding page;
 * the return reads the account at once; afterwards its state follows the provider's
 * `account.updated` events, each applied once and recorded in the same transaction as billing's.
 */
import { eq, and } from "drizzle-orm";
import { CONNECT_MESSAGES, EARNINGS_PATH, connectState, CONNECT_STATE_LABELS } from "#core/connect.ts";
import { BILLING_MESSAGES } from "#core/schemas/billing.ts";
import { durably, type Db } from "#db/client.ts";
import { billingWebhookEvents, connectAccounts } from "#db/schema.ts";
import { ConnectEventSchema, type ConnectEvent } from "../billing/connect-events.ts";
import type { ConnectAccountObject } from "../billing/provider.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { billingFor, emailOf } from "./billing.ts";
import { completeSale, refundSale } from "./sales.ts";

export type ConnectAccountRow = typeof connectAccounts.$inferSelect;

export function connectAccountOf(db: Db, userId: string): ConnectAccountRow | undefined {
  return db.select().from(connectAccounts).where(eq(connectAccounts.userId, userId)).get();
}

/** GET /api/connect/account: what the Earnings screen shows. */
export function connectView(deps: AppDeps, userId: string) {
  const row = connectAccountOf(deps.db, userId);
  const state = connectState(row);
  return {
    state,
    label: CONNECT_STATE_LABELS[state],
    chargesEnabled: row?.chargesEnabled ?? false,
    payoutsEnabled: row?.payoutsEnabled ?? false,
    detailsSubmitted: row?.detailsSubmitted ?? false,
    feePercent: deps.env.PLATFORM_FEE_PERCENT,
    testMode: billingFor(deps).provider.testMode,
  };
}

const onboardingUrls = (origin: string) => ({
  returnUrl: `${origin}/api/connect/onboarding/return`,
  refreshUrl: `${origin}/api/connect/onboarding/refresh`,
});

/** "Get paid": the owner's account (made on first use), and a fresh onboarding link on the provider. */
export async function startOnboarding(deps: AppDeps, userId: string): Promise<{ url: string }> {
  const { provider } = billingFor(deps);
  let row = connectAccountOf(deps.db, userId);
  if (!row) {
    const email = emailOf(deps.db, userId);
    if (!email) throw new ApiError("not_found", "Not found");
    const { accountId } = await provider.createConnectAccount({ userId, email });
    // Two tabs pressing at once: the first account kept is the owner's (Stripe's idempotency key per
    // owner gives both the same one; the test provider's spare stays unused).
    deps.db.insert(connectAccounts).values({ userId, provider: provider.name, accountId, createdAt: deps.now(), updatedAt: deps.now() }).onConflictDoNothing().run();
    row = connectAccountOf(deps.db, userId)!;
  }
  return provider.createAccountLink({ accountId: row.accountId, ...onboardingUrls(deps.env.PUBLIC_ORIGIN) });
}

/** Back from onboarding: the account as the provider has it now (its webhook may come later). */
export async function returnFromOnboarding(deps: AppDeps, userId: string): Promise<void> {
  const row = connectAccountOf(deps.db, userId);
  if (!row) return;
  const account = await billingFor(deps).provider.retrieveConnectAccount(row.accountId);
  writeAccount(deps.db, row, account, deps.now());
}

/** The Express dashboard (payouts, tax forms), for an account that finished onboarding. */
export async function expressDashboardUrl(deps: AppDeps, userId: string): Promise<{ url: string }> {
  const row = connectAccountOf(deps.db, userId);
  if (!row) throw new ApiError("conflict", CONNECT_MESSAGES.notConnected);
  if (!row.detailsSubmitted) throw new ApiError("conflict", CONNECT_MESSAGES.notOnboarded);
  return billingFor(deps).provider.createLoginLink(row.accountId);
}

export const earningsReturnPath = (outcome: "return" | "refresh") => `${EARNINGS_PATH}?connect=${outcome}`;

function writeAccount(tx: Db, row: ConnectAccountRow, account: ConnectAccountObject, at: Date, eventAt?: number): void {
  tx.update(connectAccounts)
    .set({
      detailsSubmitted: account.details_submitted,
      chargesEnabled: account.charges_enabled,
      payoutsEnabled: account.payouts_enabled,
      detailsNeeded: account.details_needed,
      lastEventAt: eventAt === undefined ? row.lastEventAt : new Date(eventAt),
      updatedAt: at,
    })
    .where(eq(connectAccounts.userId, row.userId))
    .run();
}

// ---------------------------------------------------------------------------------------------
// Connect events

/**
 * One verified Connect event from whichever provider: parsed field by field, recorded as handled,
 * then applied, in one transaction, so a replay changes nothing and a crash loses nothing.
 * Throws a 400 for a malformed event.
 */
export function applyConnectEvent(deps: AppDeps, json: unknown): { duplicate: boolean } {
  const parsed = ConnectEventSchema.safeParse(json);
  if (!parsed.success) throw new ApiError("bad_request", BILLING_MESSAGES.webhookPayload);
  const event = parsed.data;
  const duplicate = durably(deps.db, (tx) => {
    if (tx.select({ id: billingWebhookEvents.id }).from(billingWebhookEvents).where(eq(billingWebhookEvents.id, event.id)).get()) return true;
    tx.insert(billingWebhookEvents).values({ id: event.id, type: event.type, receivedAt: deps.now() }).run();
    applyEvent(deps, tx, event);
    return false;
  });
  return { duplicate };
}

function accountByProviderId(deps: AppDeps, tx: Db, accountId: string): ConnectAccountRow | undefined {
  return tx
    .select()
    .from(connectAccounts)
    .where(and(eq(connectAccounts.provider, billingFor(deps).provider.name), eq(connectAccounts.accountId, accountId)))
    .get();
}

function applyEvent(deps: AppDeps, tx: Db, event: ConnectEvent): void {
  switch (event.type) {
    case "account.updated": {
      const account = event.data.object;
      // The event's account is the object's: anything else is not about this account.
      if (account.id !== event.account) return;
      const row = accountByProviderId(deps, tx, event.account);
      if (!row) return;
      // A late event about an older state changes nothing.
      if (row.lastEventAt && event.created < row.lastEventAt.getTime()) return;
      writeAccount(tx, row, account, deps.now(), event.created);
      return;
    }
    case "checkout.session.completed":
      return completeSale(deps, tx, event.account, event.data.object);
    case "charge.refunded":
      return refundSale(deps, tx, event.account, event.data.object);
  }
}

/** Whether a parsed webhook body is a Connect event: Stripe sends those with the `account` they happened on. */
export const isConnectEvent = (json: unknown): boolean => typeof json === "object" && json !== null && "account" in json && (json as { account: unknown }).account != null;
