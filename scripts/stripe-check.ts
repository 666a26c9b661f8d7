/**
 * npm run stripe:check: a smoke test of the Stripe adapter against real Stripe, for an operator with
 * test-mode keys. It reads both prices (each recurring at its interval, both in US dollars at the
 * amounts the site shows), finds the webhook endpoint at PUBLIC_ORIGIN/api/billing/stripe/webhook
 * (enabled, listening to every event the adapter handles), creates a customer and a Checkout Session
 * through the same provider code the product uses, checks Stripe's answers, deletes the customer,
 * and prints what it verified. It refuses live keys: nothing it does should touch real customers.
 *
 *   STRIPE_SECRET_KEY=sk_test_… STRIPE_PRICE_MONTHLY=price_… STRIPE_PRICE_YEARLY=price_… PUBLIC_ORIGIN=https://… npm run stripe:check
 */
import { pathToFileURL } from "node:url";
import type Stripe from "stripe";
import { PLUS_PLANS } from "#core/billing.ts";
import { formatMoney } from "#core/plus-price.ts";
import { createStripeProvider } from "../api/billing/stripe/provider.ts";
import { STRIPE_WEBHOOK_EVENTS, STRIPE_WEBHOOK_PATH } from "../api/billing/stripe/webhook.ts";
import { STRIPE_CONNECT_WEBHOOK_EVENTS, STRIPE_CONNECT_WEBHOOK_PATH } from "../api/billing/stripe/connect-webhook.ts";

/** The site's prices are US dollars (core/billing.ts); Stripe names currencies in lower case. */
const SITE_CURRENCY = "usd";

export interface CheckSettings {
  secretKey: string;
  priceMonthly: string;
  priceYearly: string;
  /** PUBLIC_ORIGIN, where Stripe reaches the webhook. */
  publicOrigin: string;
  apiBase?: string;
  /** STRIPE_CONNECT=1: the Connect webhook endpoint is checked too (ADR 230). */
  connect?: boolean;
}

export function checkSettingsFrom(env: Record<string, string | undefined>): CheckSettings {
  const secretKey = env.STRIPE_SECRET_KEY ?? "";
  if (/^(sk|rk)_live_/.test(secretKey)) throw new Error("stripe:check runs only with a test-mode key (sk_test_… or rk_test_…), never a live one.");
  if (!/^(sk|rk)_test_/.test(secretKey)) throw new Error("Set STRIPE_SECRET_KEY to a test-mode key (sk_test_… or rk_test_…).");
  const priceMonthly = env.STRIPE_PRICE_MONTHLY ?? "";
  const priceYearly = env.STRIPE_PRICE_YEARLY ?? "";
  if (!priceMonthly.startsWith("price_") || !priceYearly.startsWith("price_")) throw new Error("Set STRIPE_PRICE_MONTHLY and STRIPE_PRICE_YEARLY to the ids of Plinth Plus's prices (price_…).");
  const origin = (env.PUBLIC_ORIGIN ?? "").replace(/\/+$/, "");
  if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new Error("Set PUBLIC_ORIGIN to the server's address as Stripe reaches it (https://…), as the server runs with: the webhook endpoint is looked up at PUBLIC_ORIGIN/api/billing/stripe/webhook.");
  return { secretKey, priceMonthly, priceYearly, publicOrigin: origin, apiBase: env.STRIPE_API_BASE || undefined, connect: env.STRIPE_CONNECT === "1" };
}

/** Records `what` as verified when `condition` holds; otherwise fails with `what`, and `found` (what Stripe answered) when given. */
function check(condition: boolean, what: string, verified: string[], found?: string): void {
  if (!condition) throw new Error(`Stripe check failed: ${what}${found ? ` (${found})` : ""}`);
  verified.push(what);
}

const amountOf = (price: Stripe.Price) => (price.unit_amount === null ? "no fixed amount" : `${(price.unit_amount / 100).toFixed(2)} ${price.currency}`);

/** Runs the checks; returns the lines verified, throws on the first that fails (the customer is deleted either way). */
export async function runStripeCheck(settings: CheckSettings): Promise<string[]> {
  const provider = createStripeProvider({ ...settings, webhookSecret: "" });
  const stripe = provider.client;
  const verified: string[] = [];
  const prices: Stripe.Price[] = [];
  for (const [id, interval] of [[settings.priceMonthly, "month"], [settings.priceYearly, "year"]] as const) {
    const price = await stripe.prices.retrieve(id);
    check(price.active && price.type === "recurring" && price.recurring?.interval === interval, `price ${id} is active and recurring every ${interval}`, verified);
    prices.push(price);
  }
  const [monthly, yearly] = prices as [Stripe.Price, Stripe.Price];
  check(monthly.currency === yearly.currency, "both prices are in one currency", verified, `monthly in ${monthly.currency}, yearly in ${yearly.currency}`);
  const shown = `${formatMoney(PLUS_PLANS.month.priceCents)} per month and ${formatMoney(PLUS_PLANS.year.priceCents)} per year`;
  check(
    monthly.currency === SITE_CURRENCY && monthly.unit_amount === PLUS_PLANS.month.priceCents && yearly.unit_amount === PLUS_PLANS.year.priceCents && monthly.recurring?.interval_count === 1 && yearly.recurring?.interval_count === 1,
    `the prices are what the site shows: ${shown}`,
    verified,
    `Stripe has ${amountOf(monthly)} every ${monthly.recurring?.interval_count ?? 1} month(s) and ${amountOf(yearly)} every ${yearly.recurring?.interval_count ?? 1} year(s)`,
  );

  const endpoints: Stripe.WebhookEndpoint[] = [];
  for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) endpoints.push(endpoint);
  const checkEndpoint = (kind: string, path: string, events: readonly string[]) => {
    const url = settings.publicOrigin + path;
    const ours = endpoints.filter((e) => e.url === url);
    check(ours.length > 0, `a ${kind}webhook endpoint posts to ${url}`, verified, endpoints.length ? `the endpoints post to ${endpoints.map((e) => e.url).join(", ")}` : "there is no webhook endpoint");
    const enabled = ours.filter((e) => e.status === "enabled");
    check(enabled.length > 0, `the endpoint ${ours[0]!.id} is enabled`, verified, `its status is ${ours[0]!.status}`);
    const listens = (e: Stripe.WebhookEndpoint) => events.filter((type) => !e.enabled_events.includes("*") && !e.enabled_events.includes(type));
    const best = enabled.reduce((a, b) => (listens(b).length < listens(a).length ? b : a));
    const missing = listens(best);
    check(missing.length === 0, `the endpoint ${best.id} listens to ${events.join(", ")}`, verified, `it does not listen to ${missing.join(", ")}`);
  };
  checkEndpoint("", STRIPE_WEBHOOK_PATH, STRIPE_WEBHOOK_EVENTS);
  // Connect (ADR 230): a second endpoint, listening to events on connected accounts.
  if (settings.connect) checkEndpoint("Connect ", STRIPE_CONNECT_WEBHOOK_PATH, STRIPE_CONNECT_WEBHOOK_EVENTS);

  const userId = `stripe-check-${Date.now()}`;
  const { customerId } = await provider.createCustomer({ userId, email: "stripe-check@example.com" });
  try {
    const customer = await stripe.customers.retrieve(customerId);
    check(!customer.deleted && customer.metadata.userId === userId, `customer ${customerId} was created with metadata.userId`, verified);
    const session = await provider.createCheckoutSession({ customerId, userId, amountCents: 0, successUrl: "https://example.com/success", cancelUrl: "https://example.com/cancel" });
    check(/^https:\/\//.test(session.url), `Checkout Session ${session.id} has a hosted url`, verified);
    const read = await stripe.checkout.sessions.retrieve(session.id);
    check(read.mode === "subscription" && read.customer === customerId && read.client_reference_id === userId, "the session is in subscription mode for that customer with client_reference_id", verified);
    check(read.livemode === false, "the session is in test mode", verified);
  } finally {
    const deleted = await stripe.customers.del(customerId);
    check(deleted.deleted === true, `customer ${customerId} was deleted`, verified);
  }
  return verified;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    const lines = await runStripeCheck(checkSettingsFrom(process.env));
    for (const line of lines) console.log(`ok  ${line}`);
    console.log("The Stripe adapter answered as documented for prices, the webhook endpoint, customers and Checkout.");
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  }
}
