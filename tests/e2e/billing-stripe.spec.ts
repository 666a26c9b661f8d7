/**
 * Plinth Plus sold through Stripe (ADR 104, 110), as an owner meets it. docs/product.md starts its own
 * server with BILLING_PROVIDER=stripe and the Stripe SDK pointed at the local stand-in
 * (tests/support/stripe.ts), whose Checkout page completes the session and posts Stripe-signed
 * events through the real webhook route. Renewals that fail and recover are Stripe's webhook
 * deliveries; Cancel, Resume and the switch to yearly billing are the dashboard's own buttons,
 * which the SDK sends to the stand-in. Every body and header the browser receives is kept and
 * searched for the secrets.
 */
import { eq } from "drizzle-orm";
import { createSession, SESSION_COOKIE } from "#api/auth/session.ts";
import { hashPassword } from "#api/auth/password.ts";
import { createAccount } from "#api/services/accounts.ts";
import { SUBSCRIPTION_TAB_PATH } from "#core/schemas/billing.ts";
import type { Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { startOwnServer, type OwnServer } from "#tests/support/server-process.ts";
import { startStripeStandIn, stripeInvoice, STRIPE_TEST_ENV, type StripeStandIn } from "#tests/support/stripe.ts";
import { expect, test } from "@playwright/test";

const DAY = 86_400;
let origin = "";
let own: OwnServer;
let stripe: StripeStandIn;
let db: Db;

test.beforeAll(async () => {
  own = await startOwnServer("stripe-e2e", async (origin) => {
    stripe = await startStripeStandIn({ webhookUrl: `${origin}/api/billing/stripe/webhook` });
    return { ...STRIPE_TEST_ENV, STRIPE_API_BASE: stripe.base };
  });
  ({ origin, db } = own);
});

test.afterAll(async () => {
  await own?.stop();
  await stripe?.close();
});

test("an owner upgrades through Stripe Checkout, falls past due, recovers, cancels, resumes and switches to yearly billing and back", async ({ page, context }) => {
  // A Lite owner whose trial is over, signed in.
  const now = new Date();
  const username = `stripe_${now.getTime().toString(36)}`;
  const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: await hashPassword("Correct-horse-9!"), emailVerified: true, now });
  db.update(userProfiles).set({ trialEndsAt: now }).where(eq(userProfiles.userId, userId)).run();
  const { token } = createSession(db, userId, { persistent: true, now });
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: "localhost", path: "/", httpOnly: true, sameSite: "Lax" }]);

  const received: Promise<{ url: string; text: string }>[] = [];
  page.on("response", (res) => {
    received.push(
      (async () => {
        const headers = JSON.stringify(await res.allHeaders());
        // A redirect has no body to read.
        const body = await res.text().catch(() => "");
        return { url: res.url(), text: `${headers}\n${body}` };
      })(),
    );
  });

  const panel = page.getByRole("region", { name: "Subscription" });
  const badge = (text: string) => panel.getByText(text, { exact: true });
  const pastDue = page.getByRole("alert").filter({ hasText: "Your last payment failed. Update your payment method to keep Plinth Plus." });

  // Upgrade: the dashboard sends the owner to Checkout, where Pay completes the session.
  await page.goto(`${origin}${SUBSCRIPTION_TAB_PATH}`);
  await expect(badge("Lite")).toBeVisible();
  await panel.getByRole("button", { name: "Upgrade to Plinth Plus ($8.99 per month)" }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripe.base}/c/pay/cs_test_`));
  await expect(page.getByText(`$8.99 per month for ${username}@example.com`)).toBeVisible();
  await page.getByRole("button", { name: "Pay $8.99" }).click();

  // Paid: back on the Subscription tab, Plus and active.
  await expect(page.getByText("Welcome to Plinth Plus!")).toBeVisible();
  await expect(page).toHaveURL(`${origin}${SUBSCRIPTION_TAB_PATH}`);
  await expect(badge("Active")).toBeVisible();
  await expect(panel.getByText("Next billing date")).toBeVisible();
  await expect(page.getByRole("region", { name: "Page status" }).getByText("Plus", { exact: true })).toBeVisible();
  const [sub] = [...stripe.subscriptions.values()];
  expect(sub).toBeDefined();
  const checkout = stripe.calls.find((c) => c.path === "/v1/checkout/sessions")!;
  expect(checkout.params).toMatchObject({ mode: "subscription", client_reference_id: userId, "line_items[0][price]": STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY });

  // The renewal's payment fails: Stripe sends the failed invoice and the subscription past due.
  const item = sub!.items.data[0]!;
  const renewal = { start: item.current_period_end, end: item.current_period_end + 30 * DAY };
  const failed = stripeInvoice({ customer: sub!.customer, subscription: sub!.id, status: "open", amount: 899, start: renewal.start, end: renewal.end, nextAttempt: renewal.start + 3 * DAY });
  const renewed = { ...sub!, items: { ...sub!.items, data: [{ ...item, current_period_start: renewal.start, current_period_end: renewal.end }] } };
  expect(await stripe.deliver("invoice.payment_failed", failed)).toBe(200);
  expect(await stripe.deliver("customer.subscription.updated", { ...renewed, status: "past_due" })).toBe(200);
  await page.reload();
  await expect(pastDue).toBeVisible();
  await expect(pastDue.getByRole("button", { name: "Update Payment Method" })).toBeVisible();
  await expect(badge("Past Due")).toBeVisible();

  // Stripe's retry is paid: active again, the warning gone.
  expect(await stripe.deliver("invoice.paid", { ...failed, status: "paid", amount_paid: 899, amount_remaining: 0, attempt_count: 2, next_payment_attempt: null, status_transitions: { ...failed.status_transitions, paid_at: renewal.start + 3 * DAY } })).toBe(200);
  stripe.subscriptions.set(sub!.id, renewed);
  expect(await stripe.deliver("customer.subscription.updated", renewed)).toBe(200);
  await page.reload();
  await expect(badge("Active")).toBeVisible();
  await expect(pastDue).toHaveCount(0);

  // Cancel with a reason, from the dashboard: Stripe is asked to cancel at the period end.
  await panel.getByRole("button", { name: "Cancel Subscription" }).click();
  await page.getByRole("alertdialog", { name: "Cancel your subscription?" }).getByRole("button", { name: "Continue" }).click();
  const why = page.getByRole("dialog", { name: "Why are you cancelling?" });
  await why.getByRole("radio", { name: "Too expensive" }).check();
  await why.getByRole("button", { name: "Cancel Subscription" }).click();
  await expect(page.getByText("Your subscription has been cancelled")).toBeVisible();
  await expect(badge("Cancelled")).toBeVisible();
  await expect(panel.getByText("Access ends on")).toBeVisible();
  const accessEnds = new Date(renewal.end * 1000).toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" });
  await expect(panel.getByText(`You keep every Plus feature until ${accessEnds}`)).toBeVisible();
  expect(stripe.calls.filter((c) => c.path === `/v1/subscriptions/${sub!.id}`).at(-1)).toMatchObject({ method: "POST", params: { cancel_at_period_end: "true" } });
  // Stripe's own event about the change arrives after the answer and changes nothing.
  expect(await stripe.deliver("customer.subscription.updated", stripe.subscriptions.get(sub!.id)!)).toBe(200);
  await page.reload();
  await expect(badge("Cancelled")).toBeVisible();

  // Resume takes it back.
  await panel.getByRole("button", { name: "Resume Subscription" }).click();
  await expect(page.getByText("Your subscription will renew as usual")).toBeVisible();
  await expect(badge("Active")).toBeVisible();
  expect(stripe.calls.filter((c) => c.path === `/v1/subscriptions/${sub!.id}`).at(-1)).toMatchObject({ method: "POST", params: { cancel_at_period_end: "false" } });
  expect(await stripe.deliver("customer.subscription.updated", stripe.subscriptions.get(sub!.id)!)).toBe(200);
  await page.reload();
  await expect(badge("Active")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Cancel Subscription" })).toBeVisible();

  // Yearly from the next renewal: a schedule whose second phase is the yearly price; then taken back.
  await panel.getByRole("button", { name: "Switch to yearly billing" }).click();
  const toYearly = page.getByRole("alertdialog", { name: "Switch to yearly billing?" });
  await expect(toYearly).toContainText("Nothing is charged now.");
  await toYearly.getByRole("button", { name: "Switch to yearly" }).click();
  await expect(page.getByText("Your billing changes at your next renewal")).toBeVisible();
  await expect(panel.getByText("$89.90 per year")).toBeVisible();
  const [schedule] = [...stripe.schedules.values()];
  expect(schedule!.phases.map((p) => p.items[0]!.price)).toEqual([STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY, STRIPE_TEST_ENV.STRIPE_PRICE_YEARLY]);
  expect(schedule!.phases[0]!.end_date).toBe(renewal.end);
  // Stripe's event for the schedule taking the subscription over keeps the pending switch.
  expect(await stripe.deliver("customer.subscription.updated", stripe.subscriptions.get(sub!.id)!)).toBe(200);
  await page.reload();
  await expect(panel.getByText("$89.90 per year")).toBeVisible();
  await panel.getByRole("button", { name: "Switch to monthly billing" }).click();
  await page.getByRole("alertdialog", { name: "Switch to monthly billing?" }).getByRole("button", { name: "Switch to monthly" }).click();
  await expect(panel.getByText("$8.99 per month")).toBeVisible();
  expect(stripe.schedules.get(schedule!.id)!.status).toBe("released");

  // No secret reached the browser, in any page, script, API answer or header, nor the server's log.
  const browser = await Promise.all(received);
  expect(browser.map((r) => new URL(r.url).pathname)).toEqual(expect.arrayContaining(["/api/billing/subscription", "/api/billing/checkout", "/api/billing/cancel", "/api/billing/resume", "/api/billing/interval"]));
  expect(browser.some((r) => r.url.startsWith(`${stripe.base}/c/pay/`))).toBe(true);
  const seen = [...browser, { url: "the server's output", text: own.server.output() }];
  // A secret whole, or without its prefix (a tail of zeros alone would match any script).
  const secrets = [STRIPE_TEST_ENV.STRIPE_SECRET_KEY, STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET].flatMap((s) => [s, s.replace(/^(sk_test_|whsec_)/, "")]);
  expect(seen.filter((r) => secrets.some((s) => r.text.includes(s))).map((r) => r.url)).toEqual([]);
});
