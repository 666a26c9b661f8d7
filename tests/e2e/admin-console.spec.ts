/**
 * The operator's console as an admin uses it (ADR 105, 106): nobody else finds it; a payout is marked
 * paid and the owner sees Completed; a payout is rejected and the balance comes back; an account is
 * found and signed out everywhere; the record shows each action. A page reported through its report
 * dialog is suspended (410 and the unavailable page, a banner for the owner) and restored (ADR 108);
 * an account is suspended and restored from People (ADR 109).
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { setAdminRole } from "#api/services/admin-role.ts";
import { newId } from "#db/ids.ts";
import { payoutRequests, user2faSettings, userProfiles } from "#db/schema.ts";
import { SUSPENSION_TEXTS } from "#core/admin.ts";
import { publishPage } from "#renderer/publish.ts";
import { signInWithForm } from "./auth-helpers.ts";
import { E2E } from "./env.ts";
import { createOwner, e2eDb, expect, signInAs, test, type TestOwner } from "./fixtures.ts";

async function makeAdmin(opts: { twoFactor: boolean }): Promise<TestOwner> {
  const admin = await createOwner({ plan: "plus" });
  setAdminRole(e2eDb(), { email: admin.email, admin: true, actor: "shell (e2e)", now: new Date() });
  if (opts.twoFactor) e2eDb().insert(user2faSettings).values({ userId: admin.userId, secretKey: "JBSWY3DPEHPK3PXP", isEnabled: true }).run();
  return admin;
}

/** An owner who asked for $25.00 of a $50.00 balance (the request path itself is the affiliate test's). */
async function ownerWithPayout(): Promise<{ owner: TestOwner; id: string }> {
  const owner = await createOwner({ plan: "plus" });
  const id = newId();
  e2eDb().update(userProfiles).set({ rewardsBalanceCents: 2500 }).where(eq(userProfiles.userId, owner.userId)).run();
  e2eDb()
    .insert(payoutRequests)
    .values({ id, userId: owner.userId, requestedAmountCents: 2500, processingFeeCents: 75, netAmountCents: 2425, payoutEmail: "ada@paypal.example", eligibilityAtRequest: JSON.stringify({ isEligible: true, eligibleAmountCents: 5000 }) })
    .run();
  return { owner, id };
}

async function pageAs(browser: Browser, who: TestOwner): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: E2E.origin });
  // Signed in through the second step, as an admin must be; an account without two-factor still gets 404.
  await signInAs(context, who, { secondFactor: true });
  return { context, page: await context.newPage() };
}

const balanceOf = (userId: string) => e2eDb().select({ b: userProfiles.rewardsBalanceCents }).from(userProfiles).where(eq(userProfiles.userId, userId)).get()!.b;

test("the console is a 404 to a visitor, an owner and an admin without two-factor", async ({ browser, page }) => {
  for (const path of ["/admin", "/admin/payouts"]) {
    const res = await page.goto(path);
    expect(res!.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  }
  for (const who of [await createOwner({ plan: "plus" }), await makeAdmin({ twoFactor: false })]) {
    const as = await pageAs(browser, who);
    const res = await as.page.goto("/admin");
    expect(res!.status()).toBe(404);
    await expect(as.page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await as.context.close();
  }
});

test("a payout is marked paid with its reference, and the owner sees Completed", async ({ browser }) => {
  const { owner, id } = await ownerWithPayout();
  const admin = await makeAdmin({ twoFactor: true });
  const { context, page } = await pageAs(browser, admin);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/payouts$/);
  await expect(page.getByRole("heading", { name: "Payouts", level: 1 })).toBeVisible();
  const card = page.getByRole("listitem", { name: `$25.00 for ${owner.username}` });
  await expect(card).toContainText("PayPal e-mail:ada@paypal.example");
  await expect(card).toContainText("Net to send:$24.25");
  await expect(card).toContainText("Eligible when asked:Yes, up to $50.00");
  await card.getByRole("button", { name: "Balance history" }).click();
  await expect(card.getByRole("table", { name: `Balance history of ${owner.username}` })).toContainText("Cash payout to ada@paypal.example");

  const markPaid = card.getByRole("button", { name: "Mark paid" });
  await markPaid.click();
  const dialog = page.getByRole("dialog", { name: "Mark payout paid" });
  await expect(dialog).toContainText("Send $24.25 to ada@paypal.example via PayPal first");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(markPaid).toBeFocused();
  await markPaid.click();
  await dialog.getByRole("button", { name: "Mark paid" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Please enter the payment reference");
  await expect(dialog.getByLabel("Payment reference")).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("Payment reference").fill("PAYPAL-7XK2");
  await dialog.getByRole("button", { name: "Mark paid" }).click();
  await expect(page.getByText("Marked paid: $24.25 to ada@paypal.example")).toBeVisible();
  await expect(card).toBeHidden();
  await page.getByRole("button", { name: "Decided" }).click();
  await expect(page.getByRole("listitem", { name: `$25.00 for ${owner.username}` })).toContainText("reference PAYPAL-7XK2");
  expect(e2eDb().select().from(payoutRequests).where(eq(payoutRequests.id, id)).get()!.status).toBe("completed");

  await page.getByRole("link", { name: "Audit log" }).click();
  await page.getByLabel("Action").selectOption({ label: "Payout marked paid" });
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByRole("table", { name: "Audit log entries, newest first" }).getByRole("row").filter({ hasText: owner.username })).toContainText("paymentReference");
  await context.close();

  const mine = await pageAs(browser, owner);
  await mine.page.goto("/dashboard/affiliate");
  await mine.page.getByRole("tab", { name: "Balance & Payouts" }).click();
  await expect(mine.page.getByRole("table", { name: "Your payout requests, newest first" })).toContainText("Completed");
  await mine.context.close();
});

test("a payout is rejected with a reason, and the amount is back in the owner's balance", async ({ browser }) => {
  const { owner } = await ownerWithPayout();
  const admin = await makeAdmin({ twoFactor: true });
  const { context, page } = await pageAs(browser, admin);
  await page.goto("/admin/payouts");
  const card = page.getByRole("listitem", { name: `$25.00 for ${owner.username}` });
  await card.getByRole("button", { name: "Reject" }).click();
  const dialog = page.getByRole("dialog", { name: "Reject payout" });
  await dialog.getByRole("button", { name: "Reject payout" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Please give the reason the owner will read");
  await dialog.getByLabel("Reason").fill("The PayPal account does not accept payments.");
  await dialog.getByRole("button", { name: "Reject payout" }).click();
  await expect(page.getByText(`Rejected: $25.00 is back in ${owner.username}'s balance`)).toBeVisible();
  expect(balanceOf(owner.userId)).toBe(5000);
  await context.close();

  const mine = await pageAs(browser, owner);
  await mine.page.goto("/dashboard/affiliate");
  await mine.page.getByRole("tab", { name: "Balance & Payouts" }).click();
  await expect(mine.page.getByRole("table", { name: "Your payout requests, newest first" })).toContainText("Rejected");
  await mine.context.close();
});

test("an account is found by its username and signed out everywhere, with the reason on record", async ({ browser }) => {
  const someone = await createOwner();
  const theirs = await pageAs(browser, someone);
  await theirs.page.goto("/dashboard/links");
  await expect(theirs.page.getByRole("heading", { name: "Page Layout" })).toBeVisible();

  const admin = await makeAdmin({ twoFactor: true });
  const { context, page } = await pageAs(browser, admin);
  await page.goto("/admin/people");
  await page.getByRole("searchbox", { name: "Search by e-mail or username" }).fill("a");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please enter at least 2 characters of an e-mail address or username");
  await page.getByRole("searchbox", { name: "Search by e-mail or username" }).fill(someone.username);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: someone.email }).click();
  await expect(page.getByRole("heading", { name: someone.email })).toBeVisible();
  await expect(page.getByText("Two-factor:")).toBeVisible();
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  const dialog = page.getByRole("dialog", { name: "Sign out everywhere" });
  await dialog.getByLabel("Reason").fill("Reported a stolen phone");
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByText("Signed out of 1 session")).toBeVisible();

  await page.getByRole("link", { name: "Audit log" }).click();
  await page.getByLabel("Target").fill(someone.email);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByRole("table", { name: "Audit log entries, newest first" })).toContainText("Reported a stolen phone");
  await context.close();

  // The open dashboard may notice the ended session itself and leave for the sign-in page while the
  // reload runs, which aborts the reload: either way it must end on the sign-in page.
  await theirs.page.reload().catch(() => undefined);
  await expect(theirs.page).toHaveURL(/\/auth\/login/);
  await theirs.context.close();
});

test("a reported page is suspended, answers 410 with the unavailable page, the owner sees why, and restoring brings it back", async ({ browser, page }) => {
  const owner = await createOwner({ plan: "plus" });
  e2eDb().update(userProfiles).set({ displayName: "Reported Person", bio: "Buy followers here" }).where(eq(userProfiles.userId, owner.userId)).run();
  expect(publishPage(e2eDb(), owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, apiOrigin: E2E.origin, now: new Date() }).ok).toBe(true);

  // A visitor reports the page through its report dialog.
  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Report", exact: true }).click();
  const reportDialog = page.getByRole("dialog", { name: "Report this page" });
  await reportDialog.getByLabel("Reason").selectOption({ label: "Spam" });
  await reportDialog.getByLabel("Details (optional)").fill("Sells fake followers");
  await reportDialog.getByRole("button", { name: "Submit Report" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Report submitted" })).toBeVisible();

  // The admin finds it in the queue and suspends the page.
  const admin = await makeAdmin({ twoFactor: true });
  const console_ = await pageAs(browser, admin);
  await console_.page.goto("/admin");
  await console_.page.getByRole("link", { name: "Reports" }).click();
  await expect(console_.page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  const card = console_.page.getByRole("listitem", { name: `/${owner.username}: 1 report` });
  await expect(card).toContainText("Reasons:Spam (1)");
  await card.getByText("Details of each report").click();
  await expect(card).toContainText("Sells fake followers");
  await expect(card.getByRole("link", { name: "View version 1 as reported (opens in a new tab)" })).toHaveAttribute("href", `/api/admin/reports/${owner.userId}/pinned`);
  const suspend = card.getByRole("button", { name: "Suspend page" });
  await suspend.click();
  const dialog = console_.page.getByRole("dialog", { name: "Suspend page" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(suspend).toBeFocused();
  await suspend.click();
  await dialog.getByRole("button", { name: "Suspend page" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Please give the reason the owner will read");
  await dialog.getByLabel("Reason").fill("Selling fake followers breaks the terms");
  await dialog.getByRole("button", { name: "Suspend page" }).click();
  await expect(console_.page.getByText(`Suspended /${owner.username}`)).toBeVisible();
  await expect(card).toContainText("Status:Suspended");

  // The public URL answers as decided.
  const gone = await page.goto(`/${owner.username}`);
  expect(gone!.status()).toBe(410);
  await expect(page.getByRole("heading", { name: "This page is unavailable" })).toBeVisible();
  await expect(page.getByText("Buy followers here")).toHaveCount(0);
  // Nothing there to report: the report dialog's button is gone with the page.
  await expect(page.getByRole("button", { name: "Report", exact: true })).toHaveCount(0);

  // The owner sees why in the dashboard.
  const theirs = await pageAs(browser, owner);
  await theirs.page.goto("/dashboard/links");
  const banner = theirs.page.getByRole("alert").filter({ hasText: "Your page is suspended" });
  await expect(banner).toContainText("Selling fake followers breaks the terms");

  // The admin restores it, and the page is back.
  await card.getByRole("button", { name: "Restore page" }).click();
  const restore = console_.page.getByRole("dialog", { name: "Restore page" });
  await restore.getByLabel("Note").fill("Owner removed the offer");
  await restore.getByRole("button", { name: "Restore page" }).click();
  await expect(console_.page.getByText(`Restored /${owner.username}`)).toBeVisible();
  const back = await page.goto(`/${owner.username}`);
  expect(back!.status()).toBe(200);
  await expect(page.getByText("Buy followers here")).toBeVisible();
  await theirs.page.reload();
  await expect(theirs.page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
  await expect(theirs.page.getByText("Your page is suspended")).toHaveCount(0);
  await theirs.context.close();

  // Dismissed, the report leaves the queue; its toast's Undo brings it back.
  await card.getByRole("button", { name: "Dismiss" }).click();
  const dismiss = console_.page.getByRole("dialog", { name: "Dismiss reports" });
  await dismiss.getByLabel("Note").fill("Resolved with the owner");
  await dismiss.getByRole("button", { name: "Dismiss" }).click();
  await expect(card).toBeHidden();
  await expect(console_.page.getByText("No reported pages are waiting.")).toBeVisible();
  await console_.page.getByRole("listitem").filter({ hasText: `Dismissed the reports of /${owner.username}` }).getByRole("button", { name: "Undo" }).click();
  await expect(console_.page.getByText("Reports reopened")).toBeVisible();
  await expect(card).toContainText("Reasons:Spam (1)");
  await console_.context.close();
});

test("an account is suspended from People: its session ends, sign-in is refused with a message, and Restore lets it back in", async ({ browser, page }) => {
  const someone = await createOwner({ plan: "plus" });
  const theirs = await pageAs(browser, someone);
  await theirs.page.goto("/dashboard/links");
  await expect(theirs.page.getByRole("heading", { name: "Page Layout" })).toBeVisible();

  const admin = await makeAdmin({ twoFactor: true });
  const console_ = await pageAs(browser, admin);
  await console_.page.goto(`/admin/people/${someone.userId}`);
  await expect(console_.page.getByRole("heading", { name: someone.email })).toBeVisible();
  await expect(console_.page.getByText("Account:Active")).toBeVisible();
  await console_.page.getByRole("button", { name: "Suspend account" }).click();
  const dialog = console_.page.getByRole("dialog", { name: "Suspend account" });
  await dialog.getByLabel("Reason").fill("Card fraud");
  await dialog.getByRole("button", { name: "Suspend account" }).click();
  await expect(console_.page.getByText(`Suspended ${someone.email}`)).toBeVisible();
  await expect(console_.page.getByText("Account:Suspended")).toContainText("Card fraud");

  // The open dashboard may notice the ended session itself and leave for the sign-in page while the
  // reload runs, which aborts the reload: either way it must end on the sign-in page.
  await theirs.page.reload().catch(() => undefined);
  await expect(theirs.page).toHaveURL(/\/auth\/login/);
  await signInWithForm(theirs.page, someone.email, someone.password);
  await expect(theirs.page.getByText(SUSPENSION_TEXTS.signInRefused)).toBeVisible();
  expect((await page.goto(`/${someone.username}`))!.status()).toBe(410);

  await console_.page.getByRole("button", { name: "Restore account" }).click();
  const restore = console_.page.getByRole("dialog", { name: "Restore account" });
  await restore.getByLabel("Note").fill("Chargeback resolved");
  await restore.getByRole("button", { name: "Restore account" }).click();
  await expect(console_.page.getByText(`Restored ${someone.email}`)).toBeVisible();
  await expect(console_.page.getByText("Account:Active")).toBeVisible();
  await signInWithForm(theirs.page, someone.email, someone.password);
  await expect(theirs.page).toHaveURL("/dashboard/links");
  await theirs.context.close();
  await console_.context.close();
});
