/**
 * Plinth Plus yearly (ADR 103) as a visitor and an owner meet it: the Monthly / Yearly switch on
 * /pricing by keyboard, upgrading to yearly from the Subscription tab through the test checkout, and
 * switching to monthly billing from the next renewal.
 */
import { PLAN_NAMES } from "#core/plans.ts";
import { liteOwner, profileOf } from "./billing-helpers.ts";
import { expect, test } from "./fixtures.ts";

test("/pricing switches between the monthly and the yearly price with a labelled radio group", async ({ page }) => {
  await page.goto("/pricing");
  const plus = page.getByRole("main").getByRole("region", { name: PLAN_NAMES.plus, exact: true });
  const billing = page.getByRole("group", { name: "Billing" });
  const monthly = billing.getByRole("radio", { name: "Monthly" });
  const yearly = billing.getByRole("radio", { name: "Yearly (two months free)" });
  await expect(monthly).toBeChecked();
  await expect(plus.getByText("$8.99", { exact: true })).toBeVisible();
  await expect(plus.getByText("$89.90", { exact: true })).toBeHidden();
  await monthly.focus();
  await page.keyboard.press("ArrowRight");
  await expect(yearly).toBeChecked();
  await expect(plus.getByText("$89.90", { exact: true })).toBeVisible();
  await expect(plus).toContainText("12 months for the price of 10");
  await expect(plus.getByText("$8.99", { exact: true })).toBeHidden();
  await page.setViewportSize({ width: 320, height: 640 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
});

test("/pricing's switch works without scripts, so nothing on the page moves when they run (ADR 143)", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto("/pricing");
  const plus = page.getByRole("main").getByRole("region", { name: PLAN_NAMES.plus, exact: true });
  const billing = page.getByRole("group", { name: "Billing" });
  await expect(billing).toBeVisible();
  await expect(plus.getByText("$8.99", { exact: true })).toBeVisible();
  await expect(plus.getByText("$89.90", { exact: true })).toBeHidden();
  await billing.getByText("Yearly (two months free)").click();
  await expect(billing.getByRole("radio", { name: "Yearly (two months free)" })).toBeChecked();
  await expect(plus.getByText("$89.90", { exact: true })).toBeVisible();
  await expect(plus.getByText("$8.99", { exact: true })).toBeHidden();
  await context.close();
});

test("an owner upgrades to Plinth Plus yearly and switches to monthly billing from the next renewal", async ({ page, context }) => {
  const owner = await liteOwner(context);
  await page.goto("/dashboard/account-settings?tab=subscription");
  const panel = page.getByRole("region", { name: "Subscription" });
  await panel.getByRole("button", { name: "Upgrade to Plinth Plus yearly ($89.90 per year, two months free)" }).click();

  await expect(page).toHaveURL(/\/billing\/checkout\?session=cs_test_/);
  await expect(page.getByText("Plinth Plus (yearly)")).toBeVisible();
  await expect(page.getByText("Billed yearly from today.", { exact: false })).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("Security code").fill("123");
  await page.getByLabel("Name on card").fill("Ada Lovelace");
  await page.getByRole("button", { name: "Pay $89.90" }).click();

  await expect(page.getByText("Welcome to Plinth Plus!")).toBeVisible();
  const after = page.getByRole("region", { name: "Subscription" });
  await expect(after.getByText("Active", { exact: true })).toBeVisible();
  await expect(after.getByText("$89.90 per year")).toBeVisible();
  const end = profileOf(owner.userId).currentPeriodEndDate!;
  const start = new Date(end);
  start.setUTCFullYear(start.getUTCFullYear() - 1);
  // A year, to the day.
  expect(Math.abs(start.getTime() - Date.now())).toBeLessThan(120_000);

  const switchButton = after.getByRole("button", { name: "Switch to monthly billing" });
  await switchButton.click();
  const dialog = page.getByRole("alertdialog").or(page.getByRole("dialog"));
  await expect(dialog).toContainText("Nothing is charged now.");
  await dialog.getByRole("button", { name: "Switch to monthly" }).click();
  await expect(page.getByText("Your billing changes at your next renewal")).toBeVisible();
  await expect(after.getByText("$8.99 per month")).toBeVisible();
  await expect(after.getByRole("button", { name: "Switch to yearly billing" })).toBeVisible();
  // The paid year runs its course: the next billing date has not moved.
  expect(profileOf(owner.userId).currentPeriodEndDate!.getTime()).toBe(end.getTime());
});
