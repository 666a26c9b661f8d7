/**
 * Subscriptions on the product's side (ADR 080, 081): starting checkout, cancelling (at the period
 * end, or at once when past due) and resuming, the customer portal, invoices, and the webhook that
 * turns the provider's events into the owner's plan state, invoices, commissions and e-mails.
 *
 * Every event is applied in one durable transaction together with the record that it was handled
 * and the follow-up jobs it causes (an e-mail, re-rendering the published page), so a replay changes
 * nothing and a crash loses nothing. The jobs run right after the commit and again at start.
 */
import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { effectivePlan, hasFeature, isPayingPlus, isTrialActive } from "#core/plans.ts";
import { BILLING_MESSAGES, PLUS_INVOICE_DESCRIPTION, PLUS_PLANS, SUBSCRIPTION_TAB_PATH, subscriptionBadge, type BillingInterval } from "#core/schemas/billing.ts";
import { AFTER_SIGN_IN } from "#core/schemas/auth.ts";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { billingCustomers, billingWebhookEvents, invoices, subscriptionCancellations, userProfiles, users } from "#db/schema.ts";
import { BillingEventSchema } from "../billing/events.ts";
import type { BalancePayment, BillingEvent, BillingProvider, InvoiceObject, SubscriptionObject } from "../billing/provider.ts";
import { verifySignature } from "../billing/signature.ts";
import { createStripeProvider } from "../billing/stripe/provider.ts";
import { createTestProvider, type TestModeProvider } from "../billing/test-mode/provider.ts";
import type { AppDeps } from "../context.ts";
import { ApiError, plusRequired } from "../errors.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { runJobs, runsTestProviderJobs } from "../jobs/runner.ts";
import { cancelledMail, commissionMail, paymentFailedMail, receiptMail, subscriptionEndedMail } from "./billing-mail.ts";
import { invoiceParties, issueInvoice } from "./invoices.ts";
import { getProfile, planStateOf, type ProfileRow } from "./profile.ts";
import { creditCommission } from "./rewards-balance.ts";
import { applyConnectEvent, isConnectEvent } from "./connect.ts";
import { log } from "../log.ts";

export interface Billing {
  provider: BillingProvider;
  /** The test-mode provider's hosted pages, when it is the provider. */
  testMode: TestModeProvider | null;
  webhookSecret: string;
}

const registry = new WeakMap<AppDeps, Billing>();

/** The billing provider the environment chose, made once per app. */
export function billingFor(deps: AppDeps): Billing {
  let billing = registry.get(deps);
  if (billing) return billing;
  const { env } = deps;
  if (env.BILLING_PROVIDER === "stripe") {
    // The env schema refused to start without these (api/env.server.ts).
    const provider = createStripeProvider({
      secretKey: env.STRIPE_SECRET_KEY!,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
      priceMonthly: env.STRIPE_PRICE_MONTHLY!,
      priceYearly: env.STRIPE_PRICE_YEARLY!,
      apiBase: env.STRIPE_API_BASE,
    });
    billing = { provider, testMode: null, webhookSecret: env.STRIPE_WEBHOOK_SECRET! };
    registry.set(deps, billing);
    return billing;
  }
  // Without a configured secret the embedded provider signs with one made now: nobody outside this
  // process can sign an event, and it is the only sender.
  const webhookSecret = deps.env.BILLING_WEBHOOK_SECRET ?? randomBytes(32).toString("hex");
  const testMode = createTestProvider({
    db: deps.db,
    origin: deps.env.PUBLIC_ORIGIN,
    now: deps.now,
    secret: webhookSecret,
    // Delivery runs inside a job: the follow-up jobs it queues run in the same tick of the worker.
    deliver: async (body, signature) => {
      applyWebhook(deps, body, signature);
    },
    runJobs: () => runJobs(deps),
  });
  billing = { provider: testMode, testMode, webhookSecret };
  registry.set(deps, billing);
  runsTestProviderJobs(deps, testMode);
  return billing;
}

// ---------------------------------------------------------------------------------------------
// Reading

export type BillingCustomerRow = typeof billingCustomers.$inferSelect;

export function billingCustomer(db: Db, userId: string): BillingCustomerRow | undefined {
  return db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId)).get();
}

export const emailOf = (db: Db, userId: string): string | undefined => db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get()?.email;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function subscriptionView(deps: AppDeps, userId: string) {
  const at = deps.now();
  const p = getProfile(deps.db, userId);
  const plan = planStateOf(p);
  const customer = billingCustomer(deps.db, userId);
  const badge = subscriptionBadge(plan, at);
  const paying = isPayingPlus(plan, at);
  const interval: BillingInterval = paying && customer ? customer.billingInterval : "month";
  const plusPlan = { interval, ...PLUS_PLANS[interval] };
  return {
    badge,
    planType: p.planType,
    subscriptionStatus: paying ? p.subscriptionStatus : null,
    currentPeriodEndDate: paying ? iso(p.currentPeriodEndDate) : null,
    /** Active: when the next charge is due. */
    nextBillingDate: badge === "Active" ? iso(p.currentPeriodEndDate) : null,
    /** Cancelled: the last day of access. */
    accessEndsAt: badge === "Cancelled" ? iso(p.currentPeriodEndDate) : null,
    card: paying && customer?.cardBrand && customer.cardLast4 ? { brand: customer.cardBrand, last4: customer.cardLast4 } : null,
    /** What the owner pays (or would pay monthly): Plinth Plus or Plinth Plus yearly. */
    interval: plusPlan.interval,
    priceCents: plusPlan.priceCents,
    priceLabel: plusPlan.priceLabel,
    isTrialActive: isTrialActive(plan, at),
    trialEndsAt: iso(p.trialEndsAt),
    payingSince: iso(p.payingSince),
    testMode: billingFor(deps).provider.testMode,
  };
}
export type SubscriptionView = ReturnType<typeof subscriptionView>;

type InvoiceRow = typeof invoices.$inferSelect;

const invoiceView = (i: InvoiceRow) => ({
  id: i.id,
  number: i.number,
  date: i.createdAt.toISOString(),
  amountCents: i.amountCents,
  status: i.status,
  description: i.description,
  invoiceUrl: i.invoiceUrl,
  periodStart: iso(i.periodStart),
  periodEnd: iso(i.periodEnd),
  paidAt: iso(i.paidAt),
  paymentMethod: i.paymentMethod,
});

/** Billing history: a Plus feature (docs/product.md section 6; the trial counts as Plus). */
export function listInvoices(deps: AppDeps, userId: string) {
  const p = getProfile(deps.db, userId);
  if (!hasFeature(planStateOf(p), "billing_history", deps.now())) {
    throw plusRequired("billing_history");
  }
  return deps.db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.createdAt)).all().map(invoiceView);
}

/** One invoice, for its printable page: the owner's own receipts stay readable on any plan. */
export function getInvoice(deps: AppDeps, userId: string, invoiceId: string) {
  const row = deps.db.select().from(invoices).where(and(eq(invoices.id, invoiceId), eq(invoices.userId, userId))).get();
  if (!row) throw new ApiError("not_found", BILLING_MESSAGES.invoiceNotFound);
  const p = getProfile(deps.db, userId);
  const email = emailOf(deps.db, userId) ?? "";
  const { seller, totals } = invoiceParties(row, deps.env.SELLER);
  return { invoice: invoiceView(row), seller, totals, billedTo: { email, username: p.username, displayName: p.displayName }, testMode: billingFor(deps).provider.testMode };
}

export const invoicePageUrl = (origin: string, invoiceId: string) => `${origin}/billing/invoice?id=${encodeURIComponent(invoiceId)}`;

// ---------------------------------------------------------------------------------------------
// Changing

async function ensureCustomer(deps: AppDeps, userId: string): Promise<BillingCustomerRow> {
  const billing = billingFor(deps);
  const existing = billingCustomer(deps.db, userId);
  if (existing && existing.provider === billing.provider.name) return existing;
  const email = emailOf(deps.db, userId);
  if (!email) throw new ApiError("not_found", "Profile not found");
  const { customerId } = await billing.provider.createCustomer({ userId, email });
  const row = { userId, provider: billing.provider.name, customerId, subscriptionId: null, cardBrand: null, cardLast4: null, lastEventAt: null, createdAt: deps.now() };
  deps.db
    .insert(billingCustomers)
    .values(row)
    .onConflictDoUpdate({ target: billingCustomers.userId, set: { provider: row.provider, customerId, subscriptionId: null, lastEventAt: null } })
    .run();
  return billingCustomer(deps.db, userId)!;
}

/** A hosted checkout for Plinth Plus; refused while the owner already pays. */
export async function startCheckout(deps: AppDeps, userId: string, urls: { successPath: string; cancelPath: string }, interval: BillingInterval = "month"): Promise<{ url: string }> {
  const p = getProfile(deps.db, userId);
  if (p.subscriptionStatus === "past_due_plus") throw new ApiError("conflict", BILLING_MESSAGES.pastDueUseUpdate);
  if (isPayingPlus(planStateOf(p), deps.now())) throw new ApiError("conflict", BILLING_MESSAGES.alreadySubscribed);
  const customer = await ensureCustomer(deps, userId);
  const origin = deps.env.PUBLIC_ORIGIN;
  const session = await billingFor(deps).provider.createCheckoutSession({
    customerId: customer.customerId,
    userId,
    amountCents: PLUS_PLANS[interval].priceCents,
    interval,
    successUrl: `${origin}${urls.successPath}`,
    cancelUrl: `${origin}${urls.cancelPath}`,
  });
  return { url: session.url };
}

/** The signup plan step's Plus choice: checkout, back to the links screen either way. */
export async function signupCheckoutUrl(deps: AppDeps, userId: string): Promise<string> {
  try {
    return (await startCheckout(deps, userId, { successPath: `${AFTER_SIGN_IN}?checkout=success`, cancelPath: AFTER_SIGN_IN })).url;
  } catch (err) {
    log().error({ err, userId }, "Checkout after signup could not start");
    return AFTER_SIGN_IN;
  }
}

/** The owner's subscription while it still gives Plus (active, cancelled to the period end, or past due); else a 409 with `message`. */
export function liveSubscriptionId(deps: AppDeps, userId: string, message: string = BILLING_MESSAGES.noSubscription): { profile: ProfileRow; subscriptionId: string } {
  const profile = getProfile(deps.db, userId);
  const customer = billingCustomer(deps.db, userId);
  if (!customer?.subscriptionId || !isPayingPlus(planStateOf(profile), deps.now())) throw new ApiError("conflict", message);
  return { profile, subscriptionId: customer.subscriptionId };
}

/**
 * cancel-subscription {reason}: an active subscription runs to the end of its paid period; a
 * past-due one (whose period is already unpaid) ends now. The reason is kept either way.
 */
export async function cancelSubscription(deps: AppDeps, userId: string, reason: string | null): Promise<SubscriptionView> {
  const { profile, subscriptionId } = liveSubscriptionId(deps, userId);
  if (profile.subscriptionStatus === "canceled_plus") throw new ApiError("conflict", BILLING_MESSAGES.notCancelable);
  const provider = billingFor(deps).provider;
  const sub = profile.subscriptionStatus === "past_due_plus" ? await provider.cancelNow(subscriptionId) : await provider.setCancelAtPeriodEnd(subscriptionId, true);
  const at = deps.now();
  durably(deps.db, (tx) => {
    tx.insert(subscriptionCancellations).values({ id: newId(), userId, subscriptionId, reason, createdAt: at }).run();
    // A hosted provider's webhook may come later; the answer already says what happened.
    applySubscription(deps, tx, sub, at.getTime(), sub.status === "canceled" ? "customer.subscription.deleted" : "customer.subscription.updated");
  });
  await runJobs(deps);
  return subscriptionView(deps, userId);
}

/** Takes a cancellation back while the paid period lasts. */
export async function resumeSubscription(deps: AppDeps, userId: string): Promise<SubscriptionView> {
  const { profile, subscriptionId } = liveSubscriptionId(deps, userId);
  if (profile.subscriptionStatus !== "canceled_plus") throw new ApiError("conflict", BILLING_MESSAGES.notResumable);
  const sub = await billingFor(deps).provider.setCancelAtPeriodEnd(subscriptionId, false);
  durably(deps.db, (tx) => applySubscription(deps, tx, sub, deps.now().getTime(), "customer.subscription.updated"));
  await runJobs(deps);
  return subscriptionView(deps, userId);
}

/** Bills monthly or yearly from the next renewal (ADR 103); the paid period runs its course. */
export async function switchInterval(deps: AppDeps, userId: string, interval: BillingInterval): Promise<SubscriptionView> {
  const { profile, subscriptionId } = liveSubscriptionId(deps, userId);
  if (profile.subscriptionStatus !== "active_plus") throw new ApiError("conflict", BILLING_MESSAGES.intervalNeedsActive);
  const sub = await billingFor(deps).provider.setInterval(subscriptionId, interval, PLUS_PLANS[interval].priceCents);
  durably(deps.db, (tx) => applySubscription(deps, tx, sub, deps.now().getTime(), "customer.subscription.updated"));
  await runJobs(deps);
  return subscriptionView(deps, userId);
}

/** customer-portal: a URL the dashboard opens in a new tab. */
export async function portalUrl(deps: AppDeps, userId: string): Promise<string> {
  const customer = billingCustomer(deps.db, userId);
  if (!customer || customer.provider !== billingFor(deps).provider.name) throw new ApiError("conflict", BILLING_MESSAGES.noSubscription);
  const { url } = await billingFor(deps).provider.createPortalSession({
    customerId: customer.customerId,
    returnUrl: `${deps.env.PUBLIC_ORIGIN}${SUBSCRIPTION_TAB_PATH}`,
  });
  return url;
}

/** The subscription deleting the account would end now (ADR 049): one the provider still has, whatever its state. */
export function subscriptionToEnd(deps: AppDeps, userId: string): { subscriptionId: string } | null {
  const customer = billingCustomer(deps.db, userId);
  if (!customer?.subscriptionId || customer.provider !== billingFor(deps).provider.name) return null;
  return { subscriptionId: customer.subscriptionId };
}

/**
 * Ends the owner's subscription at the provider now (not at the period end), before their account is
 * deleted (ADR 049). The customer row lets go of the subscription first, so the provider's events
 * about its end (a hosted provider's may arrive after the account is gone) change nothing, send no
 * "your subscription has ended" mail and re-render no page. If the provider fails, the row takes
 * the subscription back and a 502 says so: nothing has changed, and the account is not deleted.
 */
export async function endSubscriptionForDeletion(deps: AppDeps, userId: string): Promise<boolean> {
  const live = subscriptionToEnd(deps, userId);
  if (!live) return false;
  const { db } = deps;
  const mine = eq(billingCustomers.userId, userId);
  db.update(billingCustomers).set({ subscriptionId: null }).where(mine).run();
  try {
    await billingFor(deps).provider.cancelNow(live.subscriptionId);
  } catch (err) {
    db.update(billingCustomers).set({ subscriptionId: live.subscriptionId }).where(and(mine, isNull(billingCustomers.subscriptionId))).run();
    log().error({ err, userId }, "Ending a subscription before deleting its account failed");
    throw new ApiError("bad_gateway", BILLING_MESSAGES.deleteSubscriptionEndFailed);
  }
  // Should the deletion itself fail now, the account is left as the provider has it: on Lite.
  durably(db, (tx) =>
    tx.update(userProfiles).set({ planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null, payingSince: null }).where(eq(userProfiles.userId, userId)).run(),
  );
  return true;
}

/**
 * Applies the provider's months (renewal from the rewards balance) to the owner's plan state and
 * returns the new period end. The caller has taken the money from the balance.
 */
export async function extendSubscriptionFromBalance(deps: AppDeps, userId: string, months: number, payment: BalancePayment): Promise<Date> {
  const { subscriptionId } = liveSubscriptionId(deps, userId);
  const sub = await billingFor(deps).provider.extendPeriod(subscriptionId, months, payment);
  durably(deps.db, (tx) => applySubscription(deps, tx, sub, deps.now().getTime(), "customer.subscription.updated"));
  await runJobs(deps);
  return new Date(sub.current_period_end);
}

// ---------------------------------------------------------------------------------------------
// The webhook

/** Verifies, parses and applies one event, then runs the jobs it queued. Throws a 400 for a bad signature or body. */
export async function receiveWebhook(deps: AppDeps, body: string, signature: string | undefined): Promise<{ duplicate: boolean }> {
  const result = applyWebhook(deps, body, signature);
  if (!result.duplicate) await runJobs(deps);
  return result;
}

/** receiveWebhook without running the jobs: for a caller that is itself a job. */
function applyWebhook(deps: AppDeps, body: string, signature: string | undefined): { duplicate: boolean } {
  const billing = billingFor(deps);
  if (verifySignature(billing.webhookSecret, body, signature, deps.now()) !== "ok") throw new ApiError("bad_request", BILLING_MESSAGES.webhookSignature);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ApiError("bad_request", BILLING_MESSAGES.webhookPayload);
  }
  // Connect events (ADR 230) come with the `account` they happened on.
  if (isConnectEvent(json)) return applyConnectEvent(deps, json);
  return applyBillingEvent(deps, json);
}

/**
 * One verified event from whichever provider, in the product's shape: parsed field by field, then
 * applied once (its id is recorded in the same transaction). Throws a 400 for a malformed event.
 */
export function applyBillingEvent(deps: AppDeps, json: unknown): { duplicate: boolean } {
  const parsed = BillingEventSchema.safeParse(json);
  if (!parsed.success) throw new ApiError("bad_request", BILLING_MESSAGES.webhookPayload);
  const event = parsed.data as BillingEvent;
  const duplicate = durably(deps.db, (tx) => {
    if (tx.select({ id: billingWebhookEvents.id }).from(billingWebhookEvents).where(eq(billingWebhookEvents.id, event.id)).get()) return true;
    applyEvent(deps, tx, event);
    tx.insert(billingWebhookEvents).values({ id: event.id, type: event.type, receivedAt: deps.now() }).run();
    return false;
  });
  return { duplicate };
}

function customerByProviderId(deps: AppDeps, tx: Db, customerId: string): BillingCustomerRow | undefined {
  return tx
    .select()
    .from(billingCustomers)
    .where(and(eq(billingCustomers.provider, billingFor(deps).provider.name), eq(billingCustomers.customerId, customerId)))
    .get();
}

function applyEvent(deps: AppDeps, tx: Db, event: BillingEvent): void {
  switch (event.type) {
    case "checkout.session.completed":
      // The subscription's own events carry the state; nothing more to do.
      return;
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return applySubscription(deps, tx, event.data.object, event.created, event.type);
    default:
      return applyInvoice(deps, tx, event.data.object, event.type);
  }
}

/** The subscription as the provider reports it becomes the owner's plan state. */
function applySubscription(deps: AppDeps, tx: Db, sub: SubscriptionObject, eventAt: number, type: BillingEvent["type"]): void {
  const customer = customerByProviderId(deps, tx, sub.customer);
  if (!customer) return;
  // A late event about an older state, or about a subscription that is no longer the owner's.
  if (customer.lastEventAt && eventAt < customer.lastEventAt.getTime()) return;
  if (customer.subscriptionId && customer.subscriptionId !== sub.id && type !== "customer.subscription.created") return;
  if (!customer.subscriptionId && sub.status === "canceled") return;

  const at = deps.now();
  const profile = getProfile(tx, customer.userId);
  const before = planStateOf(profile);
  const ended = sub.status === "canceled";
  const next = ended
    ? { planType: "lite" as const, subscriptionStatus: null, currentPeriodEndDate: null, payingSince: null }
    : {
        planType: "plus" as const,
        subscriptionStatus: sub.status === "past_due" ? ("past_due_plus" as const) : sub.cancel_at_period_end ? ("canceled_plus" as const) : ("active_plus" as const),
        currentPeriodEndDate: new Date(sub.current_period_end),
        payingSince: profile.payingSince,
      };
  tx.update(userProfiles).set(next).where(eq(userProfiles.userId, customer.userId)).run();
  tx.update(billingCustomers)
    .set({
      subscriptionId: ended ? null : sub.id,
      cardBrand: sub.card?.brand ?? customer.cardBrand,
      cardLast4: sub.card?.last4 ?? customer.cardLast4,
      billingInterval: sub.interval ?? customer.billingInterval,
      lastEventAt: new Date(eventAt),
    })
    .where(eq(billingCustomers.userId, customer.userId))
    .run();

  const after = { ...before, ...next, trialEndsAt: before.trialEndsAt };
  // The published page follows the plan: Plus features appear or go with the subscription.
  if (effectivePlan(before, at) !== effectivePlan(after, at)) enqueueJob(tx, { kind: "rerender", payload: { userId: customer.userId } }, at);
  const email = emailOf(tx, customer.userId);
  if (!email) return;
  const origin = deps.env.PUBLIC_ORIGIN;
  if (next.subscriptionStatus === "canceled_plus" && before.subscriptionStatus !== "canceled_plus") {
    enqueueJob(tx, { kind: "mail", payload: cancelledMail(email, origin, next.currentPeriodEndDate!) }, at);
  }
  if (ended && before.planType === "plus") {
    const why = before.subscriptionStatus === "past_due_plus" ? "unpaid" : "cancelled";
    enqueueJob(tx, { kind: "mail", payload: subscriptionEndedMail(email, origin, profile.username, why) }, at);
  }
}

const paymentMethodText = (inv: InvoiceObject) => (inv.card ? `${inv.card.brand} ending in ${inv.card.last4}` : "Card");
const FINAL_STATUSES = new Set(["paid", "void", "uncollectible"]);

/** An invoice as the provider reports it: billing history, the paying months, commission, e-mails. */
function applyInvoice(deps: AppDeps, tx: Db, inv: InvoiceObject, type: BillingEvent["type"]): void {
  const customer = customerByProviderId(deps, tx, inv.customer);
  if (!customer) return;
  const userId = customer.userId;
  const prev = tx.select().from(invoices).where(eq(invoices.id, inv.id)).get();
  if (prev && prev.userId !== userId) return;
  // A settled invoice never goes back to open, whatever order the events arrive in.
  if (prev && FINAL_STATUSES.has(prev.status) && !FINAL_STATUSES.has(inv.status)) return;
  const at = deps.now();
  const origin = deps.env.PUBLIC_ORIGIN;
  const url = inv.hosted_invoice_url ?? invoicePageUrl(origin, inv.id);
  const values = {
    amountCents: inv.amount_cents,
    status: inv.status,
    description: inv.description || PLUS_INVOICE_DESCRIPTION,
    invoiceUrl: url,
    subscriptionId: inv.subscription,
    periodStart: new Date(inv.period_start),
    periodEnd: new Date(inv.period_end),
    paidAt: inv.paid_at ? new Date(inv.paid_at) : null,
    paymentMethod: inv.status === "paid" ? paymentMethodText(inv) : null,
  };
  // The provider's own number is not ours: every invoice takes the next of the one sequence (ADR 103).
  let number = prev?.number ?? null;
  if (prev) tx.update(invoices).set(values).where(eq(invoices.id, inv.id)).run();
  else number = issueInvoice(tx, deps.env.SELLER, { id: inv.id, userId, createdAt: new Date(inv.created), ...values });

  const email = emailOf(tx, userId);
  if (inv.status === "paid" && prev?.status !== "paid") {
    const profile = getProfile(tx, userId);
    // Payouts need three continuous paying months, counted from the first paid period.
    if (!profile.payingSince) tx.update(userProfiles).set({ payingSince: new Date(inv.period_start) }).where(eq(userProfiles.userId, userId)).run();
    // 20% of what was paid, whether a month or a year of Plus.
    const commission = creditCommission(tx, userId, inv.id, inv.amount_cents, at, customer.billingInterval === "year" ? "annual" : "monthly");
    if (commission) {
      const to = emailOf(tx, commission.referrerId);
      if (to) enqueueJob(tx, { kind: "mail", payload: commissionMail(to, origin, commission.commissionCents, commission.balanceCents) }, at);
    }
    if (email) {
      enqueueJob(
        tx,
        { kind: "mail", payload: receiptMail(email, origin, { number: number ?? inv.number, amountCents: inv.amount_cents, description: values.description, paymentMethod: paymentMethodText(inv), periodEnd: values.periodEnd, url }) },
        at,
      );
    }
  }
  if (type === "invoice.payment_failed" && !prev && email) {
    enqueueJob(tx, { kind: "mail", payload: paymentFailedMail(email, origin, inv.amount_cents) }, at);
  }
}
