/**
 * The affiliate programme as owners meet it: the upgrade panel for Lite, a visitor who follows a
 * referral link, signs up choosing Plus and pays (the referrer earns 20%), the share dialog, and a
 * cash payout and a renewal paid from the balance, with their failure messages.
 */
import { eq } from "drizzle-orm";
import { addMonths } from "#core/schemas/billing.ts";
import { payoutRequests, userProfiles } from "#db/schema.ts";
import { mailsTo } from "#tests/support/mail.ts";
import { codeFor, freshName, PASSWORD } from "./auth-helpers.ts";
import { CARD_OK, liteOwner, payOnCheckout, profileOf, subscribeInBrowser } from "./billing-helpers.ts";
import { E2E } from "./env.ts";
import { createOwner, e2eDb, expect, signInAs, test } from "./fixtures.ts";

const setProfile = (userId: string, values: Partial<typeof userProfiles.$inferInsert>) =>
  e2eDb().update(userProfiles).set(values).where(eq(userProfiles.userId, userId)).run();

test("a Lite owner sees the upgrade panel instead of the programme", async ({ page, context }) => {
  await liteOwner(context);
  await page.goto("/dashboard/affiliate");
  await expect(page.getByRole("heading", { name: "Affiliate Program", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Promote & Earn is a Plinth Plus feature" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Overview" })).toHaveCount(0);
  await page.getByRole("button", { name: "Upgrade to Plinth Plus ($8.99 per month)" }).click();
  await page.getByRole("dialog", { name: "Upgrade to Plinth Plus" }).getByRole("button", { name: "Upgrade to Plus" }).click();
  await expect(page).toHaveURL(/\/billing\/checkout\?session=/);
});

test("a visitor follows a referral link, signs up with Plus and pays; the referrer earns 20%", async ({ page, browser }) => {
  const referrer = await createOwner({ plan: "plus" });
  const { referralId } = profileOf(referrer.userId);

  // The visitor, in a browser of their own.
  const visitor = await browser.newContext();
  const v = await visitor.newPage();
  await v.goto(`/?ref=${referralId}`);
  const name = freshName("refd");
  const email = `${name}@example.com`;
  await v.goto(`/auth/signup?username=${name}`);
  await expect(v.getByRole("heading", { name: `@${name} is available` })).toBeVisible();
  await v.getByLabel("Email").fill(email);
  await v.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(v.getByRole("heading", { name: "Check your email" })).toBeVisible();
  const code = await codeFor(email);
  for (let i = 0; i < 6; i++) await v.getByLabel(`Digit ${i + 1} of 6`).fill(code[i]!);
  await expect(v.getByRole("heading", { name: "Create your password" })).toBeVisible();
  await v.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await v.getByRole("textbox", { name: "Confirm password" }).fill(PASSWORD);
  await v.getByRole("button", { name: "Continue" }).click();
  await expect(v.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
  await v.getByText("Plinth Plus").click();
  await expect(v.getByRole("radio", { name: /Plinth Plus/ })).toBeChecked();
  await expect(v.getByText("$8.99 per month")).toBeVisible();
  await v.getByRole("checkbox", { name: /I agree to the Terms of Service and Privacy Policy/ }).check();
  await v.getByRole("button", { name: "Create Account" }).click();

  await expect(v).toHaveURL(/\/billing\/checkout\?session=/);
  await payOnCheckout(v, CARD_OK);
  await expect(v.getByText("Welcome to Plinth Plus!")).toBeVisible();
  await expect(v).toHaveURL(/\/dashboard\/links$/);
  await expect(v.getByRole("region", { name: "Page status" }).getByText("Plus", { exact: true })).toBeVisible();
  const referred = e2eDb().select().from(userProfiles).where(eq(userProfiles.username, name)).get()!;
  expect(referred).toMatchObject({ referredBy: referrer.userId, planType: "plus", subscriptionStatus: "active_plus" });
  await visitor.close();

  // The referrer's programme.
  await signInAs(page.context(), referrer);
  await page.goto("/dashboard/affiliate");
  const stats = page.getByRole("tabpanel", { name: "Overview" });
  const stat = (label: string) => stats.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
  // 20% of $8.99, to the cent.
  await expect(stat("Rewards Balance")).toHaveText("$1.80");
  await expect(stat("Active Referrals")).toHaveText("1");
  await expect(stat("This Month's Earnings")).toHaveText("$1.80");
  await expect(stat("Total Earnings")).toHaveText("$1.80");
  await expect(stats.getByRole("textbox", { name: "Referral link" })).toHaveValue(`${E2E.origin}/?ref=${referralId}`);
  await expect(stats).toContainText("Earn 20% commission on every payment");
  await expect(stats).toContainText("Use your earnings for your own subscription");
  await expect.poll(() => mailsTo(E2E.outboxDir, referrer.email).map((m) => m.subject)).toContain("You earned $1.80 with Promote & Earn");

  await page.getByRole("tab", { name: "Detailed Earnings" }).click();
  const row = page.getByRole("table", { name: "Earnings per month, newest first" }).getByRole("row").filter({ has: page.getByRole("cell") });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(new Date().toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" }));
  await expect(row.getByRole("cell")).toHaveText(["1", "0", "$1.80", "$0.00", "$1.80"]);

  await page.getByRole("tab", { name: "Program Terms" }).click();
  await expect(page.getByRole("link", { name: "Read the full Program Terms" })).toHaveAttribute("href", "/affiliate-terms");
});

test("the share dialog offers text to copy, social networks, and visuals coming soon", async ({ page, owner }) => {
  await page.goto("/dashboard/affiliate");
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const share = page.getByRole("dialog", { name: "Share Your Referral Link" });
  const { referralId } = profileOf(owner.userId);
  await expect(share.getByLabel("Ready-to-post text")).toHaveValue(new RegExp(`/\\?ref=${referralId}$`));
  await share.getByRole("tab", { name: "Social Media" }).click();
  await expect(share.getByRole("link", { name: "Share on X" })).toHaveAttribute("href", /twitter\.com\/intent\/tweet\?text=/);
  await expect(share.getByRole("link", { name: "Share by Email" })).toBeVisible();
  await share.getByRole("tab", { name: "Visuals" }).click();
  await expect(share.getByText("Coming Soon")).toBeVisible();
  await share.getByRole("tab", { name: "Copy Text" }).click();
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await share.getByRole("button", { name: "Copy Link" }).click();
  await expect(page.getByText("Referral link copied to clipboard")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${E2E.origin}/?ref=${referralId}`);
  // The dialog loads on its first opening (ADR 131): Escape still gives the focus back to Share, and it opens again.
  await page.keyboard.press("Escape");
  await expect(share).toBeHidden();
  await expect(page.getByRole("button", { name: "Share", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(share.getByLabel("Ready-to-post text")).toBeVisible();
});

test("a cash payout: each condition shown, the fee and net amount, the request in the history", async ({ page, context }) => {
  const owner = await liteOwner(context);
  await page.goto("/dashboard/links");
  await subscribeInBrowser(page);
  setProfile(owner.userId, { rewardsBalanceCents: 1500, payingSince: addMonths(new Date(), -1) });

  await page.goto("/dashboard/affiliate");
  await page.getByRole("tab", { name: "Balance & Payouts" }).click();
  const conditions = page.getByRole("list", { name: "Payout eligibility" });
  await expect(conditions.getByRole("listitem")).toHaveText(["Active Plus subscription(met)", "3+ continuous paying months(not met yet)", "Balance of at least $20.00(not met yet)"]);
  await expect(page.getByText("You're not eligible for a cash payout yet.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Request Cash Payout" })).toBeDisabled();

  setProfile(owner.userId, { rewardsBalanceCents: 5000, payingSince: addMonths(new Date(), -4) });
  await page.reload();
  await page.getByRole("tab", { name: "Balance & Payouts" }).click();
  await expect(conditions.getByRole("listitem")).toHaveText(["Active Plus subscription(met)", "3+ continuous paying months(met)", "Balance of at least $20.00(met)"]);
  await expect(page.getByText("You can withdraw up to $50.00.")).toBeVisible();
  await page.getByRole("button", { name: "Request Cash Payout" }).click();

  const dialog = page.getByRole("dialog", { name: "Request Cash Payout" });
  await expect(dialog).toContainText("Paid via PayPal within 3-5 business days. A 3% processing fee applies.");
  const amount = dialog.getByLabel("Amount (USD)");
  await expect(amount).toHaveValue("50.00");
  await expect(amount).toHaveAttribute("step", "0.01");
  await expect(amount).toHaveAttribute("min", "20");
  await expect(amount).toHaveAttribute("max", "50");
  await amount.fill("19.99");
  await dialog.getByRole("button", { name: "Request Payout" }).click();
  await expect(dialog.getByText("The minimum payout is $20.00")).toBeVisible();
  await amount.fill("25");
  await expect(dialog.getByText("-$0.75")).toBeVisible();
  await expect(dialog.getByText("You receive").locator("xpath=following-sibling::dd[1]")).toHaveText("$24.25");
  await dialog.getByRole("button", { name: "Request Payout" }).click();
  await expect(dialog.getByText("PayPal email is required")).toBeVisible();
  await expect(dialog.getByLabel("PayPal email")).toHaveAttribute("type", "email");
  await dialog.getByLabel("PayPal email").fill("ada@paypal.example");
  // No connection: docs/product.md's fallback message, and nothing was taken.
  await page.route("**/api/affiliate/payouts", (route) => (route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue()));
  await dialog.getByRole("button", { name: "Request Payout" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "An error occurred while requesting payout" })).toContainText("Payout Request Failed");
  expect(profileOf(owner.userId).rewardsBalanceCents).toBe(5000);
  await page.unroute("**/api/affiliate/payouts");
  await dialog.getByRole("button", { name: "Request Payout" }).dblclick();

  await expect(page.getByText("Payout requested")).toBeVisible();
  await expect(dialog).toBeHidden();
  const rows = page.getByRole("table", { name: "Your payout requests, newest first" }).getByRole("row").filter({ has: page.getByRole("cell") });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("$25.00");
  await expect(rows.first()).toContainText("$0.75");
  await expect(rows.first()).toContainText("$24.25");
  await expect(rows.first()).toContainText("ada@paypal.example");
  await expect(rows.first()).toContainText("Pending");
  await expect(page.getByRole("region", { name: "Rewards balance" })).toContainText("$25.00");
  expect(e2eDb().select().from(payoutRequests).where(eq(payoutRequests.userId, owner.userId)).all()).toHaveLength(1);
  await expect.poll(() => mailsTo(E2E.outboxDir, owner.email).map((m) => m.subject)).toContain("We received your payout request");

  // The server has the last word: no longer eligible by the time the request arrives.
  await page.getByRole("button", { name: "Request Cash Payout" }).click();
  await dialog.getByLabel("PayPal email").fill("ada@paypal.example");
  setProfile(owner.userId, { payingSince: new Date() });
  await dialog.getByRole("button", { name: "Request Payout" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "You are not eligible for a cash payout yet" })).toContainText("Payout Request Failed");
  expect(profileOf(owner.userId).rewardsBalanceCents).toBe(2500);
});

test("renew with balance: months the balance affords, the total, a later next billing date", async ({ page, context }) => {
  const owner = await liteOwner(context);
  await page.goto("/dashboard/links");
  await subscribeInBrowser(page);
  setProfile(owner.userId, { rewardsBalanceCents: 2000 });
  const periodEnd = profileOf(owner.userId).currentPeriodEndDate!;

  await page.goto("/dashboard/affiliate");
  await page.getByRole("tab", { name: "Balance & Payouts" }).click();
  await page.getByRole("button", { name: "Renew with Balance" }).click();
  const dialog = page.getByRole("dialog", { name: "Renew with Balance" });
  const select = dialog.getByLabel("Renewal period");
  await expect(select.getByRole("option")).toHaveText(["Select a period", "1 month", "2 months"]);
  await select.selectOption("");
  await dialog.getByRole("button", { name: "Renew Now" }).click();
  await expect(dialog.getByText("Please select a renewal period")).toBeVisible();
  await select.selectOption("2");
  await expect(dialog.getByText("Total cost").locator("xpath=following-sibling::dd[1]")).toHaveText("$17.98");
  await expect(dialog.getByText("Balance after").locator("xpath=following-sibling::dd[1]")).toHaveText("$2.02");
  const day = (d: Date) => d.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" });
  await expect(dialog.getByText("Covers").locator("xpath=following-sibling::dd[1]")).toHaveText(`${day(periodEnd)} to ${day(addMonths(periodEnd, 2))}`);
  await dialog.getByRole("button", { name: "Renew Now" }).click();

  await expect(page.getByText("Subscription renewed")).toBeVisible();
  const until = addMonths(periodEnd, 2);
  expect(profileOf(owner.userId)).toMatchObject({ rewardsBalanceCents: 202 });
  expect(profileOf(owner.userId).currentPeriodEndDate!.toISOString()).toBe(until.toISOString());
  await expect(page.getByRole("region", { name: "Rewards balance" })).toContainText("$2.02");
  await expect(page.getByRole("button", { name: "Renew with Balance" })).toBeDisabled();

  await page.goto("/dashboard/account-settings?tab=subscription");
  await expect(page.getByRole("region", { name: "Subscription" })).toContainText(until.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" }));
  await page.getByRole("tab", { name: "Billing" }).click();
  await expect(page.getByRole("row").filter({ hasText: "2 months paid from rewards balance" })).toContainText("$17.98");

  // The balance is spent elsewhere while the dialog is open: Renewal Failed.
  setProfile(owner.userId, { rewardsBalanceCents: 899 });
  await page.goto("/dashboard/affiliate");
  await page.getByRole("tab", { name: "Balance & Payouts" }).click();
  await page.getByRole("button", { name: "Renew with Balance" }).click();
  await dialog.getByLabel("Renewal period").selectOption("1");
  setProfile(owner.userId, { rewardsBalanceCents: 0 });
  await dialog.getByRole("button", { name: "Renew Now" }).click();
  await expect(page.getByText("Renewal Failed")).toBeVisible();
  await expect(page.getByText("An error occurred while processing your renewal")).toBeVisible();
  await expect(dialog.getByRole("alert")).toHaveText("Your rewards balance does not cover this renewal");
});
