/**
 * The test-mode provider's Stripe Connect (ADR 230): Express accounts it keeps itself, an onboarding
 * page of its own in place of Stripe's Account Link (editor/pages/billing/connect, its API under
 * /api/connect/test), a stand-in for the Express dashboard, and Checkout Sessions on a connected
 * account. What changes an account is reported as a signed `account.updated` event carrying the
 * `account`, through the same delivery as its billing events (records.ts).
 */
import { and, desc, eq } from "drizzle-orm";
import { CONNECT_MESSAGES } from "#core/connect.ts";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { testBillingEvents, testConnectAccounts, testConnectLinks, testConnectSessions } from "#db/schema.ts";
import { ApiError } from "../../errors.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import type { ConnectAccountObject, ConnectProvider } from "../provider.ts";
import { refuseCard, testCard, type TestProviderOptions } from "./records.ts";

/** Stripe's Account Links last minutes; this one leaves time to read its page. */
export const ACCOUNT_LINK_TTL_MS = 15 * 60 * 1000;
export const CONNECT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

type AccountRow = typeof testConnectAccounts.$inferSelect;

export interface TestConnectLinkView {
  id: string;
  status: "open" | "used" | "expired";
  email: string;
  returnUrl: string;
  refreshUrl: string;
}

export interface TestConnectSessionView {
  id: string;
  status: "open" | "complete" | "expired";
  kind: "tip" | "download";
  name: string;
  amount: number;
  currency: string;
  cancelUrl: string;
  /** Where Pay sends the buyer; the page links there once the session is complete. */
  successUrl: string;
}

/** The Express dashboard stand-in: the account and the payments made on it, newest first. */
export interface TestExpressDashboardView {
  id: string;
  email: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  payments: { id: string; name: string; kind: "tip" | "download"; amount: number; fee: number; currency: string; buyerEmail: string | null; paidAt: string; refunded: boolean }[];
}

export interface TestConnect extends ConnectProvider {
  /** The test provider's payment page: the session as it shows it (the session id is the buyer's capability, as Stripe's is). */
  connectSession(sessionId: string): TestConnectSessionView;
  /** Its Pay button: a test card and the buyer's e-mail; idempotent once complete. */
  payConnectSession(sessionId: string, buyer: { email: string; number: string }): Promise<{ redirectUrl: string }>;
  /** The Express dashboard stand-in's Refund button, for the account's own owner: the whole charge. */
  refundConnectSession(sessionId: string, userId: string): Promise<void>;
  /** The Express dashboard stand-in, to the account's own owner (another's reads as unknown). */
  expressDashboard(accountId: string, userId: string): TestExpressDashboardView;
  /** The onboarding page: its link as the page shows it, to the account's own user only. */
  accountLink(linkId: string, userId: string): TestConnectLinkView;
  /**
   * The onboarding page's buttons: "complete" submits the details (the account takes payments and
   * payouts at once), "later" leaves them for later. A used or expired link sends the owner to its
   * refresh url, as Stripe does.
   */
  completeOnboarding(linkId: string, userId: string, outcome: "complete" | "later"): Promise<{ redirectUrl: string }>;
}

export const accountObject = (a: AccountRow): ConnectAccountObject => ({
  object: "account",
  id: a.id,
  details_submitted: a.detailsSubmitted,
  charges_enabled: a.chargesEnabled,
  payouts_enabled: a.payoutsEnabled,
  details_needed: !a.detailsSubmitted,
});

const accountById = (tx: Db, id: string) => tx.select().from(testConnectAccounts).where(eq(testConnectAccounts.id, id)).get();

/** A Connect event, written with the change it reports and delivered like every other event. */
export function emitConnect(tx: Db, now: () => Date, type: string, account: string, object: unknown): void {
  const id = `evt_test_${newId()}`;
  const created = now().getTime();
  const payload = JSON.stringify({ id, created, type, account, data: { object } });
  tx.insert(testBillingEvents).values({ id, type, payload, createdAt: new Date(created) }).run();
  enqueueJob(tx, { kind: "provider-events", payload: {} }, new Date(created));
}

export function testConnect(opts: TestProviderOptions): TestConnect {
  const { db, now } = opts;

  const sessionById = (tx: Db, sessionId: string) => {
    const session = typeof sessionId === "string" && sessionId.length <= 100 ? tx.select().from(testConnectSessions).where(eq(testConnectSessions.id, sessionId)).get() : undefined;
    if (!session) throw new ApiError("not_found", CONNECT_MESSAGES.sessionNotFound);
    return session;
  };
  const statusOf = (s: typeof testConnectSessions.$inferSelect): TestConnectSessionView["status"] =>
    s.status === "open" && s.expiresAt.getTime() <= now().getTime() ? "expired" : s.status;

  const ownLink = (tx: Db, linkId: string, userId: string) => {
    if (typeof linkId !== "string" || linkId.length > 100) throw new ApiError("not_found", CONNECT_MESSAGES.linkNotFound);
    const link = tx.select().from(testConnectLinks).where(eq(testConnectLinks.id, linkId)).get();
    const account = link ? accountById(tx, link.accountId) : undefined;
    // Another owner's link is answered exactly like one that does not exist.
    if (!link || !account || account.userId !== userId) throw new ApiError("not_found", CONNECT_MESSAGES.linkNotFound);
    const status: TestConnectLinkView["status"] = link.usedAt ? "used" : link.expiresAt.getTime() <= now().getTime() ? "expired" : "open";
    return { link, account, status };
  };

  return {
    async createConnectAccount({ userId, email }) {
      const id = `acct_test_${newId()}`;
      db.insert(testConnectAccounts).values({ id, userId, email, createdAt: now() }).run();
      return { accountId: id };
    },

    async retrieveConnectAccount(accountId) {
      const account = accountById(db, accountId);
      if (!account) throw new Error("Unknown Connect account");
      return accountObject(account);
    },

    async createAccountLink({ accountId, returnUrl, refreshUrl }) {
      if (!accountById(db, accountId)) throw new Error("Unknown Connect account");
      const id = `acctlink_test_${newId()}`;
      const at = now();
      db.insert(testConnectLinks).values({ id, accountId, returnUrl, refreshUrl, expiresAt: new Date(at.getTime() + ACCOUNT_LINK_TTL_MS), createdAt: at }).run();
      return { url: `${opts.origin}/billing/connect?link=${id}` };
    },

    async createLoginLink(accountId) {
      const account = accountById(db, accountId);
      if (!account) throw new Error("Unknown Connect account");
      // Stripe gives a login link only to an account that has finished onboarding.
      if (!account.detailsSubmitted) throw new ApiError("conflict", CONNECT_MESSAGES.notOnboarded);
      return { url: `${opts.origin}/billing/connect/dashboard?account=${account.id}` };
    },

    async createConnectCheckoutSession(input) {
      const account = accountById(db, input.accountId);
      if (!account) throw new Error("Unknown Connect account");
      // Stripe refuses a session on an account that cannot take payments.
      if (!account.chargesEnabled) throw new ApiError("bad_gateway", CONNECT_MESSAGES.checkoutFailed);
      if (!(input.feeAmount >= 0 && input.feeAmount <= input.amount)) throw new Error("The application fee must be between 0 and the amount");
      const id = `cs_test_${newId()}`;
      const at = now();
      db.insert(testConnectSessions)
        .values({
          id,
          accountId: account.id,
          kind: input.kind,
          name: input.name,
          amount: input.amount,
          currency: input.currency,
          feeAmount: input.feeAmount,
          metadata: JSON.stringify(input.metadata),
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          expiresAt: new Date(at.getTime() + CONNECT_SESSION_TTL_MS),
          createdAt: at,
        })
        .run();
      return { id, url: `${opts.origin}/billing/pay?session=${id}` };
    },

    connectSession(sessionId) {
      const session = sessionById(db, sessionId);
      return { id: session.id, status: statusOf(session), kind: session.kind, name: session.name, amount: session.amount, currency: session.currency, cancelUrl: session.cancelUrl, successUrl: session.successUrl };
    },

    async payConnectSession(sessionId, buyer) {
      const card = testCard(buyer.number);
      const result = durably(db, (tx) => {
        const session = sessionById(tx, sessionId);
        if (session.status === "complete") return { redirectUrl: session.successUrl };
        if (statusOf(session) === "expired") throw new ApiError("gone", CONNECT_MESSAGES.sessionExpired);
        refuseCard(card.outcome);
        const at = now();
        const paymentIntent = `pi_test_${newId()}`;
        tx.update(testConnectSessions).set({ status: "complete", buyerEmail: buyer.email, paymentIntentId: paymentIntent, completedAt: at }).where(eq(testConnectSessions.id, session.id)).run();
        emitConnect(tx, now, "checkout.session.completed", session.accountId, {
          object: "checkout.session",
          id: session.id,
          payment_status: "paid",
          amount_total: session.amount,
          currency: session.currency,
          customer_email: buyer.email,
          payment_intent: paymentIntent,
          metadata: JSON.parse(session.metadata) as Record<string, string>,
        });
        return { redirectUrl: session.successUrl };
      });
      await opts.runJobs();
      return result;
    },

    async refundConnectSession(sessionId, userId) {
      durably(db, (tx) => {
        const session = sessionById(tx, sessionId);
        const account = accountById(tx, session.accountId);
        if (!account || account.userId !== userId) throw new ApiError("not_found", CONNECT_MESSAGES.sessionNotFound);
        if (session.status !== "complete" || session.refundedAt) throw new ApiError("conflict", CONNECT_MESSAGES.notRefundable);
        tx.update(testConnectSessions).set({ refundedAt: now() }).where(eq(testConnectSessions.id, session.id)).run();
        emitConnect(tx, now, "charge.refunded", account.id, { object: "charge", id: `ch_test_${newId()}`, payment_intent: session.paymentIntentId, refunded: true, amount_refunded: session.amount });
      });
      await opts.runJobs();
    },

    expressDashboard(accountId, userId) {
      const account = typeof accountId === "string" && accountId.length <= 100 ? accountById(db, accountId) : undefined;
      if (!account || account.userId !== userId) throw new ApiError("not_found", CONNECT_MESSAGES.accountNotFound);
      const payments = db
        .select()
        .from(testConnectSessions)
        .where(and(eq(testConnectSessions.accountId, account.id), eq(testConnectSessions.status, "complete")))
        .orderBy(desc(testConnectSessions.completedAt))
        .all()
        .map((s) => ({ id: s.id, name: s.name, kind: s.kind, amount: s.amount, fee: s.feeAmount, currency: s.currency, buyerEmail: s.buyerEmail, paidAt: (s.completedAt ?? s.createdAt).toISOString(), refunded: s.refundedAt !== null }));
      return { id: account.id, email: account.email, chargesEnabled: account.chargesEnabled, payoutsEnabled: account.payoutsEnabled, payments };
    },

    accountLink(linkId, userId) {
      const { link, account, status } = ownLink(db, linkId, userId);
      return { id: link.id, status, email: account.email, returnUrl: link.returnUrl, refreshUrl: link.refreshUrl };
    },

    async completeOnboarding(linkId, userId, outcome) {
      const result = durably(db, (tx) => {
        const { link, account, status } = ownLink(tx, linkId, userId);
        if (status !== "open") return { redirectUrl: link.refreshUrl };
        const at = now();
        tx.update(testConnectLinks).set({ usedAt: at }).where(eq(testConnectLinks.id, link.id)).run();
        if (outcome === "complete" && !account.chargesEnabled) {
          tx.update(testConnectAccounts).set({ detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true }).where(eq(testConnectAccounts.id, account.id)).run();
          emitConnect(tx, now, "account.updated", account.id, accountObject(accountById(tx, account.id)!));
        }
        return { redirectUrl: link.returnUrl };
      });
      await opts.runJobs();
      return result;
    },
  };
}
