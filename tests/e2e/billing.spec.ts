/**
 * Paying for Plinth Plus as an owner would: upgrade through the hosted test checkout (a card that
 * pays and one that is declined), the trial's badge, cancel in two steps and resume, the period end,
 * a declined renewal and a new card in the customer portal, the billing history with its printable
 * invoices, the failure messages, and all of it at 320 px by keyboard.
 * Renewals happen because a period end is moved into the past in the test server's database and
 * its job worker runs; the assertions wait for what the owner would see.
 */
import { eq } from "drizzle-orm";
import { addMonths } from "#core/schemas/billing.ts";
import { newId } from "#db/ids.ts";
import { referralEarnings, subscriptionCancellations, userProfiles } from "#db/schema.ts";
import { mailsTo } from "#tests/support/mail.ts";
import { CARD_DECLINED, CARD_DECLINES_RENEWALS, CARD_OK, endPeriodNow, liteOwner, payOnCheckout, profileOf, subscribeInBrowser } from "./billing-helpers.ts";
import { E2E } from "./env.ts";
import { e2eDb, editProfile, expect, test } from "./fixtures.ts";

const subscriptionTab = "/dashboard/account-settings?tab=subscription";

test("a Lite owner upgrades through the test checkout and is Plus at once", async ({ page, context }) => {
  const owner = await liteOwner(context);
  await page.goto(subscriptionTab);
  await expect(page.getByRole("tab", { name: "Subscription" })).toHaveAttribute("aria-selected", "true");
  const panel = page.getByRole("region", { name: "Subscription" });
  await expect(panel.getByText("Lite", { exact: true })).toBeVisible();
  await expect(page.getByText("Test mode: payments use test cards and no real money is charged.")).toBeVisible();
  await panel.getByRole("button", { name: "Upgrade to Plinth Plus ($8.99 per month)" }).click();

  await expect(page).toHaveURL(/\/billing\/checkout\?session=cs_test_/);
  await expect(page.getByRole("heading", { name: "Subscribe to Plinth Plus" })).toBeVisible();
  await expect(page.getByText(owner.email)).toBeVisible();
  // The form checks itself before anything is sent.
  await page.getByRole("button", { name: "Pay $8.99" }).click();
  await expect(page.getByText("Please enter your card number")).toBeVisible();
  await payOnCheckout(page, CARD_OK);

  await expect(page).toHaveURL(/\/dashboard\/account-settings\?tab=subscription$/);
  await expect(page.getByText("Welcome to Plinth Plus!")).toBeVisible();
  const after = page.getByRole("region", { name: "Subscription" });
  await expect(after.getByText("Active", { exact: true })).toBeVisible();
  await expect(after.getByText("Visa ending in 4242")).toBeVisible();
  const end = profileOf(owner.userId).currentPeriodEndDate!;
  await expect(after.getByText(end.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" }))).toBeVisible();
  await expect(page.getByRole("region", { name: "Page status" }).getByText("Plus", { exact: true })).toBeVisible();
  await expect.poll(() => mailsTo(E2E.outboxDir, owner.email).map((m) => m.subject)).toContainEqual(expect.stringMatching(/^Your Plinth receipt PLN-\d{6}$/));
});

test("an owner on the 7-day trial sees Trial Active and an open billing history", async ({ page, owner }) => {
  const trialEnd = profileOf(owner.userId).trialEndsAt!;
  expect(trialEnd.getTime() - profileOf(owner.userId).createdAt.getTime()).toBe(7 * 86_400_000);
  await page.goto(subscriptionTab);
  const panel = page.getByRole("region", { name: "Subscription" });
  await expect(panel.getByText("Trial Active", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Page status" }).getByText("Trial Active", { exact: true })).toBeVisible();
  await expect(panel).toContainText(`You're trying Plinth Plus for free until ${trialEnd.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" })}.`);
  await expect(panel.getByRole("button", { name: "Upgrade to Plinth Plus ($8.99 per month)" })).toBeVisible();
  await expect(panel.getByRole("button", { name: "Cancel Subscription" })).toHaveCount(0);
  // The trial counts as Plus: billing history is open, and empty.
  await page.getByRole("tab", { name: "Billing" }).click();
  await expect(page.getByRole("region", { name: "Billing History" })).toContainText("No invoices yet.");
});

test("a declined card stays on checkout with the card's message, and cancelling returns to the dashboard", async ({ page, context }) => {
  const owner = await liteOwner(context);
  await page.goto("/dashboard/account-settings?tab=billing");
  // Billing history is locked for Lite; its upgrade goes through the upgrade prompt to checkout.
  const billing = page.getByRole("region", { name: "Billing History" });
  await expect(billing.getByText("Billing history is a Plinth Plus feature.")).toBeVisible();
  await billing.getByRole("button", { name: "Upgrade to Plus" }).click();
  const prompt = page.getByRole("dialog", { name: "Upgrade to Plinth Plus" });
  await expect(prompt).toContainText("Billing history is a Plinth Plus feature. Upgrade to Plinth Plus ($8.99 per month) to use it.");
  await prompt.getByRole("button", { name: "Upgrade to Plus" }).click();

  await expect(page).toHaveURL(/\/billing\/checkout\?session=/);
  await payOnCheckout(page, CARD_DECLINED);
  await expect(page.getByRole("alert")).toHaveText("Your card was declined.");
  await expect(page).toHaveURL(/\/billing\/checkout\?session=/);
  expect(profileOf(owner.userId)).toMatchObject({ planType: "lite", subscriptionStatus: null });

  await page.getByRole("link", { name: "Cancel and return to Plinth" }).click();
  await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
  await page.getByRole("tab", { name: "Subscription" }).click();
  await expect(page.getByRole("region", { name: "Subscription" }).getByText("Lite", { exact: true })).toBeVisible();
});

test("cancel in two steps with a reason keeps Plus until the period end, and Resume takes it back", async ({ page, context }) => {
  const owner = await liteOwner(context);
  await page.goto("/dashboard/links");
  await subscribeInBrowser(page);
  const end = profileOf(owner.userId).currentPeriodEndDate!.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" });

  await page.goto(subscriptionTab);
  const panel = page.getByRole("region", { name: "Subscription" });
  await expect(panel.getByText("Active", { exact: true })).toBeVisible();
  await expect(panel.getByText("Next billing date")).toBeVisible();
  await panel.getByRole("button", { name: "Cancel Subscription" }).click();
  // Step one: confirm.
  const confirm = page.getByRole("alertdialog", { name: "Cancel your subscription?" });
  await expect(confirm).toContainText(`You keep every Plus feature until ${end}.`);
  await confirm.getByRole("button", { name: "Continue" }).click();
  // Step two: the reason, from docs/product.md's list.
  const why = page.getByRole("dialog", { name: "Why are you cancelling?" });
  await expect(why.getByRole("radio")).toHaveCount(5);
  await why.getByRole("radio", { name: "Too expensive" }).check();
  await why.getByRole("button", { name: "Cancel Subscription" }).click();

  await expect(page.getByText("Your subscription has been cancelled")).toBeVisible();
  await expect(why).toBeHidden();
  await expect(panel.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(panel.getByText("Access ends on")).toBeVisible();
  await expect(panel.getByText("Next billing date")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Page status" }).getByText("Plus", { exact: true })).toBeVisible();
  expect(e2eDb().select().from(subscriptionCancellations).where(eq(subscriptionCancellations.userId, owner.userId)).get()!.reason).toBe("Too expensive");
  expect(profileOf(owner.userId).subscriptionStatus).toBe("canceled_plus");

  await panel.getByRole("button", { name: "Resume Subscription" }).click();
  await expect(page.getByText("Your subscription will renew as usual")).toBeVisible();
  await expect(panel.getByText("Active", { exact: true })).toBeVisible();
  await expect(panel.getByText("Next billing date").locator("xpath=following-sibling::dd[1]")).toHaveText(end);
  await expect(panel.getByRole("button", { name: "Cancel Subscription" })).toBeVisible();
  expect(profileOf(owner.userId).subscriptionStatus).toBe("active_plus");
  // Resumed, the renewal is charged as usual at the period end.
  endPeriodNow(owner.userId);
  await expect.poll(() => mailsTo(E2E.outboxDir, owner.email).filter((m) => m.subject.startsWith("Your Plinth receipt")).length, { timeout: 20_000 }).toBe(2);
  expect(profileOf(owner.userId).subscriptionStatus).toBe("active_plus");
});

test("a cancelled subscription ends at the period end: Lite, and the page re-rendered without Plus", async ({ page, context }) => {
  const owner = await liteOwner(context);
  await page.goto("/dashboard/links");
  await subscribeInBrowser(page);
  // A Plus-only setting on the published page, as the Theme screen saves it: no Plinth branding.
  expect((await editProfile(page, "/api/profile/appearance", { removeBranding: true })).status).toBe(200);
  expect(await page.evaluate(async () => (await fetch("/api/publish", { method: "POST" })).status)).toBe(200);
  expect(await (await page.request.get(`/${owner.username}`)).text()).not.toContain("Powered by");

  await page.goto(subscriptionTab);
  const panel = page.getByRole("region", { name: "Subscription" });
  await panel.getByRole("button", { name: "Cancel Subscription" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Cancel your subscription?" });
  await expect(confirm).toContainText("You keep every Plus feature until");
  await confirm.getByRole("button", { name: "Keep Subscription" }).click();
  await expect(confirm).toBeHidden();
  await panel.getByRole("button", { name: "Cancel Subscription" }).click();
  await page.getByRole("alertdialog", { name: "Cancel your subscription?" }).getByRole("button", { name: "Continue" }).click();

  const why = page.getByRole("dialog", { name: "Why are you cancelling?" });
  for (const reason of ["Too expensive", "Not using the features", "Found a better alternative", "Technical issues", "Other"]) {
    await expect(why.getByRole("radio", { name: reason })).toBeVisible();
  }
  await why.getByRole("radio", { name: "Other" }).check();
  await why.getByLabel("Tell us more").fill("Moving to a paper notebook");
  await why.getByRole("button", { name: "Cancel Subscription" }).click();

  await expect(page.getByText("Your subscription has been cancelled")).toBeVisible();
  await expect(panel.getByText("Cancelled", { exact: true })).toBeVisible();
  const end = profileOf(owner.userId).currentPeriodEndDate!.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" });
  await expect(panel.getByText(`You keep every Plus feature until ${end}`)).toBeVisible();
  await expect(panel.getByRole("button", { name: "Resume Subscription" })).toBeVisible();
  expect(e2eDb().select().from(subscriptionCancellations).where(eq(subscriptionCancellations.userId, owner.userId)).get()!.reason).toBe("Moving to a paper notebook");

  // The paid month ends: the job worker ends the subscription and the page is re-rendered as Lite.
  endPeriodNow(owner.userId);
  await expect.poll(() => profileOf(owner.userId).planType, { timeout: 20_000 }).toBe("lite");
  await expect.poll(async () => (await (await page.request.get(`/${owner.username}`)).text()).includes("Powered by"), { timeout: 20_000 }).toBe(true);
  await page.reload();
  await expect(page.getByRole("region", { name: "Subscription" }).getByText("Lite", { exact: true })).toBeVisible();
  await expect.poll(() => mailsTo(E2E.outboxDir, owner.email).map((m) => m.subject)).toContain("Your Plinth Plus subscription has ended");
});

test("a declined renewal shows Past Due with Update Payment Method; a new card in the portal settles it", async ({ page, context }) => {
  const owner = await liteOwner(context);
  await page.goto("/dashboard/links");
  await subscribeInBrowser(page, CARD_DECLINES_RENEWALS);
  endPeriodNow(owner.userId);
  await expect.poll(() => profileOf(owner.userId).subscriptionStatus, { timeout: 20_000 }).toBe("past_due_plus");

  await page.goto(subscriptionTab);
  const warning = page.getByRole("alert").filter({ hasText: "Your last payment failed. Update your payment method to keep Plinth Plus." });
  await expect(warning).toBeVisible();
  await expect(page.getByRole("region", { name: "Subscription" }).getByText("Past Due", { exact: true })).toBeVisible();

  const [portal] = await Promise.all([context.waitForEvent("page"), warning.getByRole("button", { name: "Update Payment Method" }).click()]);
  await expect(portal).toHaveURL(/\/billing\/portal\?session=bps_test_/);
  await expect(portal.getByText("Your last payment of $8.99 failed.")).toBeVisible();
  await expect(portal.getByText("Visa ending in 0341")).toBeVisible();
  await portal.getByLabel("Card number").fill(CARD_DECLINED);
  await portal.getByLabel("Expiry (MM / YY)").fill("1234");
  await portal.getByLabel("Security code").fill("123");
  await portal.getByLabel("Name on card").fill("Ada Lovelace");
  await portal.getByRole("button", { name: "Save card and pay $8.99" }).click();
  await expect(portal.getByRole("alert").filter({ hasText: "Your card was declined." })).toBeVisible();
  await portal.getByLabel("Card number").fill(CARD_OK);
  await portal.getByRole("button", { name: "Save card and pay $8.99" }).click();
  await expect(portal.getByText("Your payment method has been updated. Your payment of $8.99 went through.")).toBeVisible();
  await expect(portal.getByText("Visa ending in 4242")).toBeVisible();
  await portal.close();

  await page.reload();
  await expect(page.getByRole("region", { name: "Subscription" }).getByText("Active", { exact: true })).toBeVisible();
  await expect(page.getByText("Your last payment failed.")).toBeHidden();
});

test("billing history lists real invoices, each with a printable invoice page", async ({ page, context, browser }) => {
  const owner = await liteOwner(context);
  await page.goto("/dashboard/links");
  await subscribeInBrowser(page);
  endPeriodNow(owner.userId);
  // The renewal: a second paid invoice.
  await expect.poll(() => mailsTo(E2E.outboxDir, owner.email).filter((m) => m.subject.startsWith("Your Plinth receipt")).length, { timeout: 20_000 }).toBe(2);

  await page.goto("/dashboard/account-settings?tab=billing");
  const rows = page.getByRole("table", { name: "Your invoices, newest first" }).getByRole("row").filter({ has: page.getByRole("cell") });
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) {
    await expect(row).toContainText("Plinth Plus (monthly)");
    await expect(row).toContainText("$8.99");
    await expect(row).toContainText("Paid");
    await expect(row).toContainText(/PLN-\d{6}/);
  }
  const number = (await rows.first().getByRole("cell").first().textContent())!.trim();
  const [invoice] = await Promise.all([context.waitForEvent("page"), rows.first().getByRole("link", { name: `View invoice ${number}` }).click()]);
  await expect(invoice.getByRole("heading", { name: "Invoice" })).toBeVisible();
  await expect(invoice.getByText(number)).toBeVisible();
  await expect(invoice.getByText(`@${owner.username}`)).toBeVisible();
  await expect(invoice.getByRole("row", { name: /Total \(USD\)/ })).toContainText("$8.99");
  await expect(invoice.getByText("Paid with Visa ending in 4242.")).toBeVisible();
  await expect(invoice.getByRole("button", { name: "Print or save as PDF" })).toBeVisible();
  // Another owner, in a browser of their own, cannot open it.
  const address = invoice.url();
  await invoice.close();
  const elsewhere = await browser.newContext();
  await liteOwner(elsewhere);
  const other = await elsewhere.newPage();
  await other.goto(address);
  await expect(other.getByRole("heading", { name: "Invoice not found" })).toBeVisible();
  await expect(other.getByText(number)).toHaveCount(0);
  await elsewhere.close();
});

test("failures say what failed: a cancellation made meanwhile elsewhere, and no connection to the portal", async ({ page, context }) => {
  await liteOwner(context);
  await page.goto("/dashboard/links");
  await subscribeInBrowser(page);
  await page.goto(subscriptionTab);
  const panel = page.getByRole("region", { name: "Subscription" });
  await panel.getByRole("button", { name: "Cancel Subscription" }).click();
  await page.getByRole("alertdialog", { name: "Cancel your subscription?" }).getByRole("button", { name: "Continue" }).click();
  const why = page.getByRole("dialog", { name: "Why are you cancelling?" });
  await expect(why).toBeVisible();
  // Meanwhile the owner cancelled in another tab.
  expect(await page.evaluate(async () => (await fetch("/api/billing/cancel", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status)).toBe(200);
  await why.getByRole("button", { name: "Cancel Subscription" }).click();
  await expect(page.getByText("Failed to cancel subscription")).toBeVisible();
  await expect(page.getByText("Your subscription is already cancelled.")).toBeVisible();

  await page.reload();
  await expect(panel.getByText("Cancelled", { exact: true })).toBeVisible();
  await page.route("**/api/billing/portal", (route) => route.abort("internetdisconnected"));
  const [blank] = await Promise.all([context.waitForEvent("page"), panel.getByRole("button", { name: "Manage Payment Method" }).click()]);
  await expect(page.getByText("Failed to open customer portal")).toBeVisible();
  // The tab opened for the portal is closed again rather than left blank.
  await expect.poll(() => blank.isClosed()).toBe(true);
});

test("at 320 px and by keyboard alone: upgrade, pay, and read the subscription, the invoice and the programme", async ({ page, context }) => {
  const owner = await liteOwner(context);
  await page.setViewportSize({ width: 320, height: 640 });
  const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), page.url()).toBe(0);

  await page.goto(subscriptionTab);
  const upgrade = page.getByRole("region", { name: "Subscription" }).getByRole("button", { name: "Upgrade to Plinth Plus ($8.99 per month)" });
  await expect(upgrade).toBeVisible();
  await fits();
  await upgrade.focus();
  await page.keyboard.press("Enter");

  await expect(page.getByRole("heading", { name: "Subscribe to Plinth Plus" })).toBeVisible();
  await fits();
  await page.getByLabel("Card number").focus();
  await page.keyboard.type("4242424242424242");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Expiry (MM / YY)")).toBeFocused();
  await page.keyboard.type("1234");
  await page.keyboard.press("Tab");
  await page.keyboard.type("123");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Ada Lovelace");
  await page.keyboard.press("Enter");

  const panel = page.getByRole("region", { name: "Subscription" });
  await expect(panel.getByText("Active", { exact: true })).toBeVisible();
  await fits();
  const [portal] = await Promise.all([context.waitForEvent("page"), panel.getByRole("button", { name: "Manage Payment Method" }).click()]);
  await portal.setViewportSize({ width: 320, height: 640 });
  await expect(portal.getByText("Visa ending in 4242")).toBeVisible();
  expect(await portal.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await portal.close();
  await page.getByRole("tab", { name: "Billing" }).click();
  const view = page.getByRole("link", { name: /^View invoice PLN-\d{6}$/ });
  await expect(view).toBeVisible();
  await fits();
  const [invoice] = await Promise.all([context.waitForEvent("page"), view.focus().then(() => page.keyboard.press("Enter"))]);
  await invoice.setViewportSize({ width: 320, height: 640 });
  await expect(invoice.getByRole("heading", { name: "Invoice" })).toBeVisible();
  expect(await invoice.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

  // The programme's tables, with a month of earnings and a payout request in them.
  e2eDb().insert(referralEarnings).values({ id: newId(), referrerId: owner.userId, paymentCents: 899, commissionCents: 180, createdAt: new Date() }).run();
  e2eDb().update(userProfiles).set({ rewardsBalanceCents: 5000, payingSince: addMonths(new Date(), -4) }).where(eq(userProfiles.userId, owner.userId)).run();
  const payout = await page.evaluate(async () => {
    const body = JSON.stringify({ amount: 20, payoutEmail: "ada@paypal.example", requestKey: crypto.randomUUID() });
    return (await fetch("/api/affiliate/payouts", { method: "POST", headers: { "Content-Type": "application/json" }, body })).status;
  });
  expect(payout).toBe(201);
  await page.goto("/dashboard/affiliate");
  await expect(page.getByRole("tab", { name: "Overview" })).toBeVisible();
  await fits();
  await page.getByRole("tab", { name: "Detailed Earnings" }).click();
  await expect(page.getByRole("table", { name: "Earnings per month, newest first" })).toBeVisible();
  await fits();
  await page.getByRole("tab", { name: "Balance & Payouts" }).click();
  await expect(page.getByRole("table", { name: "Your payout requests, newest first" })).toBeVisible();
  await fits();
});
