/**
 * Stripe as the billing provider (ADR 104), through the official SDK. Stripe keeps the
 * subscription; what it decides comes back on its webhook (api/billing/stripe/webhook.ts), and the
 * answers here are mapped to the same objects the test-mode provider returns.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import type Stripe from "stripe";
import { AFFILIATE_MESSAGES } from "#core/schemas/affiliate.ts";
import { BILLING_MESSAGES } from "#core/schemas/billing.ts";
import { CONNECT_MESSAGES } from "#core/connect.ts";
import { ApiError } from "../../errors.ts";
import type { BalancePayment, BillingProvider, CheckoutInput, SubscriptionObject } from "../provider.ts";
import { connectAccountObject, idOf, subscriptionObject } from "./map.ts";
import { log } from "../../log.ts";

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  priceMonthly: string;
  priceYearly: string;
  /** An http(s) origin instead of https://api.stripe.com. */
  apiBase?: string;
}

const require = createRequire(import.meta.url);
/**
 * Stripe's SDK, loaded the first time Stripe is used: a process with another billing provider never
 * loads its 220 modules (ADR 253).
 */
export const stripeSdk = (): typeof Stripe => require("stripe");

/** The SDK client; the API version is the one the SDK is pinned to (its types describe that one). */
export function stripeClient(settings: Pick<StripeSettings, "secretKey" | "apiBase">): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  const Sdk = stripeSdk();
  return new Sdk(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base && {
      protocol: base.protocol === "http:" ? "http" : "https",
      host: base.hostname,
      port: base.port || (base.protocol === "http:" ? 80 : 443),
    }),
  });
}

export interface StripeProvider extends BillingProvider {
  readonly client: Stripe;
}

/**
 * A call Stripe refused or could not answer becomes a 502 with the screen's message; the log line
 * names Stripe's error type, code and request id (never the key, which Stripe masks in its messages).
 */
async function asked<T>(what: string, message: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof stripeSdk().errors.StripeError)) throw err;
    log().warn(`Stripe refused ${what}: ${err.type} ${err.code ?? "-"} ${err.statusCode ?? "-"} ${err.requestId ?? "-"} ${err.message}`);
    throw new ApiError("bad_gateway", message);
  }
}

export function createStripeProvider(settings: StripeSettings): StripeProvider {
  const stripe = stripeClient(settings);

  /** Lets go of a subscription's schedule: its pending phases are dropped, the subscription stays as it is. */
  const release = (scheduleId: string, message: string) =>
    asked("releasing a subscription schedule", message, () => stripe.subscriptionSchedules.release(scheduleId, {}, { idempotencyKey: `plinth-schedule-release-${scheduleId}` }));

  /**
   * Stripe refuses to change the cancellation of a subscription a schedule manages: a pending switch
   * between monthly and yearly is dropped before a subscription is cancelled, at period end or now (ADR 110).
   */
  const releasePendingSwitch = async (subscriptionId: string, message: string) => {
    const sub = await asked("reading a subscription", message, () => stripe.subscriptions.retrieve(subscriptionId));
    const schedule = idOf(sub.schedule);
    if (schedule) await release(schedule, message);
  };

  const mapped = (sub: Stripe.Subscription): SubscriptionObject => {
    const object = subscriptionObject(sub);
    if (!object) throw new Error(`Stripe answered with a subscription the product cannot hold (status ${sub.status})`);
    return object;
  };

  return {
    name: "stripe",
    testMode: settings.secretKey.startsWith("sk_test_") || settings.secretKey.startsWith("rk_test_"),
    client: stripe,

    async createCustomer({ userId, email }) {
      const customer = await asked("creating a customer", BILLING_MESSAGES.checkoutFailed, () =>
        stripe.customers.create({ email, metadata: { userId } }, { idempotencyKey: `plinth-customer-${userId}` }),
      );
      return { customerId: customer.id };
    },

    async createCheckoutSession(input: CheckoutInput) {
      const price = input.interval === "year" ? settings.priceYearly : settings.priceMonthly;
      const session = await asked("creating a Checkout Session", BILLING_MESSAGES.checkoutFailed, () => stripe.checkout.sessions.create(
        {
          mode: "subscription",
          customer: input.customerId,
          client_reference_id: input.userId,
          line_items: [{ price, quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: { userId: input.userId },
          subscription_data: { metadata: { userId: input.userId } },
        },
        // One key per attempt: the SDK's own retries of this call reuse it, a new click makes a new session.
        { idempotencyKey: `plinth-checkout-${randomUUID()}` },
      ));
      if (!session.url) throw new Error("Stripe answered a Checkout Session without a url");
      return { id: session.id, url: session.url };
    },

    // ---- Connect (ADR 230): Express accounts, Account Links, Login Links, direct charges with a fee

    async createConnectAccount({ userId, email }) {
      const account = await asked("creating a Connect account", CONNECT_MESSAGES.onboardingFailed, () =>
        stripe.accounts.create(
          {
            type: "express",
            email,
            metadata: { userId },
            capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          },
          { idempotencyKey: `plinth-connect-account-${userId}` },
        ),
      );
      return { accountId: account.id };
    },

    async retrieveConnectAccount(accountId) {
      const account = await asked("reading a Connect account", CONNECT_MESSAGES.onboardingFailed, () => stripe.accounts.retrieve(accountId));
      return connectAccountObject(account);
    },

    async createAccountLink({ accountId, returnUrl, refreshUrl }) {
      const link = await asked("creating an Account Link", CONNECT_MESSAGES.onboardingFailed, () =>
        stripe.accountLinks.create({ account: accountId, type: "account_onboarding", return_url: returnUrl, refresh_url: refreshUrl }),
      );
      return { url: link.url };
    },

    async createLoginLink(accountId) {
      const link = await asked("creating a Login Link", CONNECT_MESSAGES.dashboardFailed, () => stripe.accounts.createLoginLink(accountId));
      return { url: link.url };
    },

    async createConnectCheckoutSession(input) {
      // A direct charge on the creator's account (the Stripe-Account header): the creator is the
      // merchant of record and pays Stripe's fee; the platform keeps application_fee_amount.
      const session = await asked("creating a Connect Checkout Session", CONNECT_MESSAGES.checkoutFailed, () =>
        stripe.checkout.sessions.create(
          {
            mode: "payment",
            submit_type: input.kind === "tip" ? "donate" : "pay",
            line_items: [{ quantity: 1, price_data: { currency: input.currency, unit_amount: input.amount, product_data: { name: input.name } } }],
            payment_intent_data: { application_fee_amount: input.feeAmount, metadata: input.metadata },
            metadata: input.metadata,
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
          },
          { stripeAccount: input.accountId, idempotencyKey: `plinth-connect-checkout-${randomUUID()}` },
        ),
      );
      if (!session.url) throw new Error("Stripe answered a Checkout Session without a url");
      return { id: session.id, url: session.url };
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session = await asked("creating a portal session", BILLING_MESSAGES.portalFailed, () =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return { url: session.url };
    },

    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      const message = cancel ? BILLING_MESSAGES.cancelFailed : BILLING_MESSAGES.resumeFailed;
      if (cancel) await releasePendingSwitch(subscriptionId, message);
      return mapped(await asked("updating cancel_at_period_end", message, () => stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel })));
    },

    async cancelNow(subscriptionId) {
      await releasePendingSwitch(subscriptionId, BILLING_MESSAGES.cancelFailed);
      return mapped(await asked("cancelling a subscription", BILLING_MESSAGES.cancelFailed, () => stripe.subscriptions.cancel(subscriptionId)));
    },

    /**
     * Months from the rewards balance become a credit on the Stripe customer's balance, which Stripe
     * takes off the next invoices; the key is our renewal's id, so the credit is applied once.
     */
    async extendPeriod(subscriptionId, months, payment?: BalancePayment) {
      if (!payment || payment.amountCents <= 0) throw new Error("A Stripe credit needs the amount paid from the balance");
      const sub = await asked("reading a subscription", AFFILIATE_MESSAGES.renewalFailed, () => stripe.subscriptions.retrieve(subscriptionId));
      const customer = typeof sub.customer === "string" ? sub.customer : sub.customer.id;
      await asked("crediting the customer balance", AFFILIATE_MESSAGES.renewalFailed, () => stripe.customers.createBalanceTransaction(
        customer,
        {
          amount: -payment.amountCents,
          currency: sub.currency,
          description: `Plinth Plus, ${months} ${months === 1 ? "month" : "months"} paid from rewards balance`,
          metadata: { balanceRenewalId: payment.reference },
        },
        { idempotencyKey: `plinth-balance-renewal-${payment.reference}` },
      ));
      return mapped(sub);
    },

    /**
     * Monthly or yearly from the next renewal (ADR 110). Changing the subscription's price would
     * start a new billing cycle and charge now, so the switch is a Subscription Schedule made from
     * the subscription: the current price until the period ends, then the other one, and the
     * schedule lets go of the subscription after that phase. Asking for the price already billed
     * takes a pending switch back by releasing its schedule.
     */
    async setInterval(subscriptionId, interval) {
      const message = BILLING_MESSAGES.intervalFailed;
      const target = interval === "year" ? settings.priceYearly : settings.priceMonthly;
      const sub = await asked("reading a subscription", message, () => stripe.subscriptions.retrieve(subscriptionId));
      const item = sub.items.data[0];
      if (!item) throw new Error("Stripe answered with a subscription without items");
      const existing = idOf(sub.schedule);
      if (item.price.id === target) {
        if (existing) await release(existing, message);
        return mapped({ ...sub, schedule: null });
      }
      const schedule = existing
        ? await asked("reading a subscription schedule", message, () => stripe.subscriptionSchedules.retrieve(existing))
        : await asked("creating a subscription schedule", message, () =>
            stripe.subscriptionSchedules.create({ from_subscription: sub.id }, { idempotencyKey: `plinth-schedule-${randomUUID()}` }),
          );
      try {
        await asked("scheduling the switch", message, () => stripe.subscriptionSchedules.update(
          schedule.id,
          {
            end_behavior: "release",
            phases: [
              // The current phase keeps its start (Stripe refuses to move it) and ends with the paid period.
              { items: [{ price: item.price.id, quantity: 1 }], start_date: schedule.current_phase?.start_date ?? item.current_period_start, end_date: item.current_period_end },
              { items: [{ price: target, quantity: 1 }], duration: { interval, interval_count: 1 } },
            ],
          },
          { idempotencyKey: `plinth-schedule-phases-${randomUUID()}` },
        ));
      } catch (err) {
        // A schedule made here that holds no switch is let go of, so the subscription stays as it was.
        if (!existing) await release(schedule.id, message).catch(() => undefined);
        throw err;
      }
      return { ...mapped(sub), interval };
    },
  };
}
