/**
 * npm run stripe:check: a smoke test of the Stripe adapter against real Stripe, for an operator with
 * test-mode keys. It reads both prices, creates a customer and a Checkout Session through the same
 * provider code the product uses, checks Stripe's answers, deletes the customer, and prints what it
 * verified. It refuses live keys: nothing it does should touch real customers.
 *
 *   STRIPE_SECRET_KEY=sk_test_… STRIPE_PRICE_MONTHLY=price_… STRIPE_PRICE_YEARLY=price_… npm run stripe:check
 */
import { pathToFileURL } from "node:url";
import { createStripeProvider } from "../api/billing/stripe/provider.ts";

export interface CheckSettings {
  secretKey: string;
  priceMonthly: string;
  priceYearly: string;
  apiBase?: string;
}

export function checkSettingsFrom(env: Record<string, string | undefined>): CheckSettings {
  const secretKey = env.STRIPE_SECRET_KEY ?? "";
  if (/^(sk|rk)_live_/.test(secretKey)) throw new Error("stripe:check runs only with a test-mode key (sk_test_… or rk_test_…), never a live one.");
  if (!/^(sk|rk)_test_/.test(secretKey)) throw new Error("Set STRIPE_SECRET_KEY to a test-mode key (sk_test_… or rk_test_…).");
  const priceMonthly = env.STRIPE_PRICE_MONTHLY ?? "";
  const priceYearly = env.STRIPE_PRICE_YEARLY ?? "";
  if (!priceMonthly.startsWith("price_") || !priceYearly.startsWith("price_")) throw new Error("Set STRIPE_PRICE_MONTHLY and STRIPE_PRICE_YEARLY to the ids of Plinth Plus's prices (price_…).");
  return { secretKey, priceMonthly, priceYearly, apiBase: env.STRIPE_API_BASE || undefined };
}

function check(condition: boolean, what: string, verified: string[]): void {
  if (!condition) throw new Error(`Stripe check failed: ${what}`);
  verified.push(what);
}

/** Runs the checks; returns the lines verified, throws on the first that fails (the customer is deleted either way). */
export async function runStripeCheck(settings: CheckSettings): Promise<string[]> {
  const provider = createStripeProvider({ ...settings, webhookSecret: "" });
  const stripe = provider.client;
  const verified: string[] = [];
  for (const [id, interval] of [[settings.priceMonthly, "month"], [settings.priceYearly, "year"]] as const) {
    const price = await stripe.prices.retrieve(id);
    check(price.active && price.type === "recurring" && price.recurring?.interval === interval, `price ${id} is active and recurring every ${interval}`, verified);
  }
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
    console.log("The Stripe adapter answered as documented for customers, prices and Checkout.");
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  }
}
