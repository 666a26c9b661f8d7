/**
 * npm run stripe:check against the local Stripe stand-in: the same checks an operator runs against
 * real Stripe with test keys (prices, the webhook endpoint, a customer and a Checkout Session), and
 * the refusal of a live key. Every failure is found by reading, before anything is created.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { STRIPE_WEBHOOK_EVENTS } from "#api/billing/stripe/webhook.ts";
import { STRIPE_CONNECT_WEBHOOK_EVENTS } from "#api/billing/stripe/connect-webhook.ts";
import { checkSettingsFrom, runStripeCheck } from "../../scripts/stripe-check.ts";
import { startStripeStandIn, STRIPE_TEST_ENV, stripeWebhookEndpoint, type StripeStandIn } from "#tests/support/stripe.ts";

const ORIGIN = "https://plinth.example";
const WEBHOOK_URL = `${ORIGIN}/api/billing/stripe/webhook`;

let stripe: StripeStandIn;
beforeEach(async () => {
  stripe = await startStripeStandIn();
});
afterEach(() => stripe.close());

const settings = () => checkSettingsFrom({ ...STRIPE_TEST_ENV, PUBLIC_ORIGIN: ORIGIN, STRIPE_API_BASE: stripe.base });

/** The endpoint as the README's Stripe section has the operator add it. */
const documentedEndpoint = () => stripeWebhookEndpoint({ url: WEBHOOK_URL, enabled_events: [...STRIPE_WEBHOOK_EVENTS] });

/** Nothing was created, changed or deleted: the check failed while reading. */
const onlyReads = () => expect(stripe.calls.filter((c) => c.method !== "GET")).toEqual([]);

describe("stripe:check", () => {
  it("refuses a live key and asks for what is missing", () => {
    for (const key of ["sk_live_51AbCdEfGh", "rk_live_51AbCdEfGh"]) expect(() => checkSettingsFrom({ ...STRIPE_TEST_ENV, STRIPE_SECRET_KEY: key })).toThrow(/never a live one/);
    expect(() => checkSettingsFrom({})).toThrow(/Set STRIPE_SECRET_KEY to a test-mode key/);
    expect(() => checkSettingsFrom({ STRIPE_SECRET_KEY: STRIPE_TEST_ENV.STRIPE_SECRET_KEY })).toThrow(/Set STRIPE_PRICE_MONTHLY and STRIPE_PRICE_YEARLY/);
    for (const origin of [undefined, "", "plinth.example", "https://plinth.example/app"]) {
      expect(() => checkSettingsFrom({ ...STRIPE_TEST_ENV, PUBLIC_ORIGIN: origin }), String(origin)).toThrow(/Set PUBLIC_ORIGIN to the server's address as Stripe reaches it/);
    }
    expect(checkSettingsFrom({ ...STRIPE_TEST_ENV, PUBLIC_ORIGIN: `${ORIGIN}/` }).publicOrigin).toBe(ORIGIN);
  });

  it("checks prices, the webhook endpoint, a customer and a Checkout Session, then deletes the customer", async () => {
    stripe.webhookEndpoints.push(stripeWebhookEndpoint({ url: "https://old.plinth.example/api/billing/stripe/webhook", enabled_events: ["invoice.paid"] }), documentedEndpoint());
    const lines = await runStripeCheck(settings());
    expect(lines).toEqual([
      `price ${STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY} is active and recurring every month`,
      `price ${STRIPE_TEST_ENV.STRIPE_PRICE_YEARLY} is active and recurring every year`,
      "both prices are in one currency",
      "the prices are what the site shows: $8.99 per month and $89.90 per year",
      `a webhook endpoint posts to ${WEBHOOK_URL}`,
      expect.stringMatching(/^the endpoint we_\w+ is enabled$/),
      expect.stringMatching(new RegExp(`^the endpoint we_\\w+ listens to ${STRIPE_WEBHOOK_EVENTS.join(", ")}$`)),
      expect.stringMatching(/^customer cus_\w+ was created with metadata\.userId$/),
      expect.stringMatching(/^Checkout Session cs_test_\w+ has a hosted url$/),
      "the session is in subscription mode for that customer with client_reference_id",
      "the session is in test mode",
      expect.stringMatching(/^customer cus_\w+ was deleted$/),
    ]);
    expect(stripe.calls.at(-1)).toMatchObject({ method: "DELETE", path: expect.stringMatching(/^\/v1\/customers\/cus_/) });
  });

  it("fails when a price is not what its variable says, before creating anything", async () => {
    const s = settings();
    // The yearly price given as the monthly one.
    await expect(runStripeCheck({ ...s, priceMonthly: s.priceYearly })).rejects.toThrow(/Stripe check failed: price .* every month/);
    expect(stripe.calls.map((c) => c.path)).toEqual([`/v1/prices/${s.priceYearly}`]);
  });

  it("fails when the two prices are in different currencies", async () => {
    stripe.webhookEndpoints.push(documentedEndpoint());
    stripe.priceChanges.set(STRIPE_TEST_ENV.STRIPE_PRICE_YEARLY, { currency: "eur" });
    await expect(runStripeCheck(settings())).rejects.toThrow("Stripe check failed: both prices are in one currency (monthly in usd, yearly in eur)");
    onlyReads();
  });

  it("fails when an amount is not the one the site shows, or the currency is not the site's", async () => {
    stripe.webhookEndpoints.push(documentedEndpoint());
    stripe.priceChanges.set(STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY, { unit_amount: 999 });
    await expect(runStripeCheck(settings())).rejects.toThrow(
      "Stripe check failed: the prices are what the site shows: $8.99 per month and $89.90 per year (Stripe has 9.99 usd every 1 month(s) and 89.90 usd every 1 year(s))",
    );
    stripe.priceChanges.clear();
    for (const id of [STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY, STRIPE_TEST_ENV.STRIPE_PRICE_YEARLY]) stripe.priceChanges.set(id, { currency: "gbp" });
    await expect(runStripeCheck(settings())).rejects.toThrow(/Stripe has 8\.99 gbp every 1 month\(s\) and 89\.90 gbp every 1 year\(s\)/);
    onlyReads();
  });

  it("fails when no endpoint posts to PUBLIC_ORIGIN's webhook, and names the ones there are", async () => {
    await expect(runStripeCheck(settings())).rejects.toThrow(`Stripe check failed: a webhook endpoint posts to ${WEBHOOK_URL} (there is no webhook endpoint)`);
    stripe.webhookEndpoints.push(stripeWebhookEndpoint({ url: "https://plinth.example/api/billing/webhook", enabled_events: ["*"] }));
    await expect(runStripeCheck(settings())).rejects.toThrow(
      `Stripe check failed: a webhook endpoint posts to ${WEBHOOK_URL} (the endpoints post to https://plinth.example/api/billing/webhook)`,
    );
    onlyReads();
  });

  it("fails when the endpoint is disabled", async () => {
    stripe.webhookEndpoints.push(stripeWebhookEndpoint({ id: "we_disabled", url: WEBHOOK_URL, enabled_events: [...STRIPE_WEBHOOK_EVENTS], status: "disabled" }));
    await expect(runStripeCheck(settings())).rejects.toThrow("Stripe check failed: the endpoint we_disabled is enabled (its status is disabled)");
    onlyReads();
  });

  it("fails when the endpoint misses an event the README lists, and names it", async () => {
    const some = STRIPE_WEBHOOK_EVENTS.filter((e) => e !== "invoice.voided" && e !== "customer.subscription.deleted");
    stripe.webhookEndpoints.push(stripeWebhookEndpoint({ id: "we_partial", url: WEBHOOK_URL, enabled_events: some }));
    await expect(runStripeCheck(settings())).rejects.toThrow(
      "Stripe check failed: the endpoint we_partial listens to checkout.session.completed, customer.subscription.created, customer.subscription.updated, customer.subscription.deleted, invoice.paid, invoice.payment_failed, invoice.voided, invoice.marked_uncollectible (it does not listen to customer.subscription.deleted, invoice.voided)",
    );
    onlyReads();
  });

  it("takes an endpoint listening to every event (*), found on a later page of the list", async () => {
    stripe.webhookEndpoints.push(stripeWebhookEndpoint({ id: "we_all", url: WEBHOOK_URL, enabled_events: ["*"] }));
    for (let i = 0; i < 120; i++) stripe.webhookEndpoints.push(stripeWebhookEndpoint({ url: `https://other-${i}.example/hook`, enabled_events: ["invoice.paid"] }));
    const lines = await runStripeCheck(settings());
    expect(lines).toContain("the endpoint we_all is enabled");
    expect(lines).toContain(`the endpoint we_all listens to ${STRIPE_WEBHOOK_EVENTS.join(", ")}`);
    expect(stripe.calls.filter((c) => c.path === "/v1/webhook_endpoints").length).toBe(2);
  });

  it("checks the Connect webhook endpoint and its events when STRIPE_CONNECT=1, and names what it misses", async () => {
    const CONNECT_URL = `${ORIGIN}/api/connect/stripe/webhook`;
    const connectSettings = () => checkSettingsFrom({ ...STRIPE_TEST_ENV, PUBLIC_ORIGIN: ORIGIN, STRIPE_API_BASE: stripe.base, STRIPE_CONNECT: "1" });
    stripe.webhookEndpoints.push(documentedEndpoint());
    // Without the Connect endpoint the check fails while reading, before creating anything.
    await expect(runStripeCheck(connectSettings())).rejects.toThrow(`Stripe check failed: a Connect webhook endpoint posts to ${CONNECT_URL}`);
    onlyReads();
    stripe.webhookEndpoints.push(stripeWebhookEndpoint({ id: "we_connect_partial", url: CONNECT_URL, enabled_events: ["account.updated"] }));
    await expect(runStripeCheck(connectSettings())).rejects.toThrow("(it does not listen to checkout.session.completed, charge.refunded)");
    stripe.webhookEndpoints.push(stripeWebhookEndpoint({ id: "we_connect", url: CONNECT_URL, enabled_events: [...STRIPE_CONNECT_WEBHOOK_EVENTS] }));
    const lines = await runStripeCheck(connectSettings());
    expect(lines).toContain(`a Connect webhook endpoint posts to ${CONNECT_URL}`);
    expect(lines).toContain(`the endpoint we_connect listens to ${STRIPE_CONNECT_WEBHOOK_EVENTS.join(", ")}`);
    // Without STRIPE_CONNECT=1 it is not asked for.
    expect(checkSettingsFrom({ ...STRIPE_TEST_ENV, PUBLIC_ORIGIN: ORIGIN }).connect).toBe(false);
  });

  it("lists in the README's Connect section the Connect events the adapter acts on", () => {
    const readme = readFileSync(join(import.meta.dirname, "../../README.md"), "utf8");
    const section = /\n### Stripe Connect\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? "";
    expect(section).toContain("`PUBLIC_ORIGIN/api/connect/stripe/webhook`");
    expect(section).toContain("`STRIPE_CONNECT=1`");
    expect(section).toContain("`PLATFORM_FEE_PERCENT`");
    const step = /\*\*Connect webhook\.\*\*([\s\S]*?)Put its signing secret/.exec(section)?.[1] ?? "";
    expect([...step.matchAll(/`([a-z_]+(?:\.[a-z_]+)+)`/g)].map((m) => m[1])).toEqual([...STRIPE_CONNECT_WEBHOOK_EVENTS]);
  });

  it("checks the events the README's Stripe section lists, which names SELLER_NAME as required", () => {
    const readme = readFileSync(join(import.meta.dirname, "../../README.md"), "utf8");
    const section = /\n## Stripe\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? "";
    expect(section).toMatch(/refuses to start until[\s\S]*`SELLER_NAME` names the seller/);
    const step = /\*\*Webhook\.\*\*([\s\S]*?)Put its signing secret/.exec(readme)?.[1] ?? "";
    expect(step).toContain("`PUBLIC_ORIGIN/api/billing/stripe/webhook`");
    const listed = [...step.matchAll(/`([a-z_]+(?:\.[a-z_]+)+)`/g)].map((m) => m[1]);
    expect(listed).toEqual([...STRIPE_WEBHOOK_EVENTS]);
  });
});
