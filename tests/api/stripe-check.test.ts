/**
 * npm run stripe:check against the local Stripe stand-in: the same checks an operator runs against
 * real Stripe with test keys, and the refusal of a live key.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkSettingsFrom, runStripeCheck } from "../../scripts/stripe-check.ts";
import { startStripeStandIn, STRIPE_TEST_ENV, type StripeStandIn } from "#tests/support/stripe.ts";

let stripe: StripeStandIn;
beforeEach(async () => {
  stripe = await startStripeStandIn();
});
afterEach(() => stripe.close());

describe("stripe:check", () => {
  it("refuses a live key and asks for what is missing", () => {
    for (const key of ["sk_live_51AbCdEfGh", "rk_live_51AbCdEfGh"]) expect(() => checkSettingsFrom({ ...STRIPE_TEST_ENV, STRIPE_SECRET_KEY: key })).toThrow(/never a live one/);
    expect(() => checkSettingsFrom({})).toThrow(/Set STRIPE_SECRET_KEY to a test-mode key/);
    expect(() => checkSettingsFrom({ STRIPE_SECRET_KEY: STRIPE_TEST_ENV.STRIPE_SECRET_KEY })).toThrow(/Set STRIPE_PRICE_MONTHLY and STRIPE_PRICE_YEARLY/);
  });

  it("checks prices, a customer and a Checkout Session, then deletes the customer", async () => {
    const lines = await runStripeCheck(checkSettingsFrom({ ...STRIPE_TEST_ENV, STRIPE_API_BASE: stripe.base }));
    expect(lines).toEqual([
      `price ${STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY} is active and recurring every month`,
      `price ${STRIPE_TEST_ENV.STRIPE_PRICE_YEARLY} is active and recurring every year`,
      expect.stringMatching(/^customer cus_\w+ was created with metadata\.userId$/),
      expect.stringMatching(/^Checkout Session cs_test_\w+ has a hosted url$/),
      "the session is in subscription mode for that customer with client_reference_id",
      "the session is in test mode",
      expect.stringMatching(/^customer cus_\w+ was deleted$/),
    ]);
    expect(stripe.calls.at(-1)).toMatchObject({ method: "DELETE", path: expect.stringMatching(/^\/v1\/customers\/cus_/) });
  });

  it("fails when a price is not what its variable says, before creating anything", async () => {
    const settings = checkSettingsFrom({ ...STRIPE_TEST_ENV, STRIPE_API_BASE: stripe.base });
    // The yearly price given as the monthly one.
    await expect(runStripeCheck({ ...settings, priceMonthly: settings.priceYearly })).rejects.toThrow(/Stripe check failed: price .* every month/);
    expect(stripe.calls.map((c) => c.path)).toEqual([`/v1/prices/${settings.priceYearly}`]);
  });
});
