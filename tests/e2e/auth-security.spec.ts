/**
 * Account settings as an owner uses them: two-factor enrolment with the QR code and backup codes,
 * sign-in with a TOTP code and with a backup code (once), password change, sessions, and deleting
 * the account.
 */
import { eq } from "drizzle-orm";
import { BILLING_MESSAGES } from "#core/schemas/billing.ts";
import { invoices, sessions, testBillingSubscriptions, users } from "#db/schema.ts";
import { createAccountWithPassword, nextTotp, signInWithForm, signOutFromDashboard, wrongCode } from "./auth-helpers.ts";
import { subscribeInBrowser, subscriptionIdOf } from "./billing-helpers.ts";
import { createOwner, e2eDb, expect, signInAs, test } from "./fixtures.ts";
import { beginSetup, confirmSetup, totpAt } from "#api/services/two-factor.ts";

async function openSecurity(page: import("@playwright/test").Page) {
  await page.goto("/dashboard/account-settings");
  await page.getByRole("tab", { name: "Security" }).click();
}

/** The sign-in page with the password, then a backup code instead of the app's code. */
async function signInWithBackupCode(page: import("@playwright/test").Page, owner: { email: string; password: string }, code: string) {
  await page.goto("/auth/login");
  await signInWithForm(page, owner.email, owner.password);
  await page.getByRole("button", { name: "Use a backup code instead" }).click();
  await page.getByLabel("Backup code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

test("two-factor: enrol with the QR code behind the password, sign in with a TOTP code, then with a backup code once", async ({ page, context }) => {
  const owner = await createAccountWithPassword();
  await signInAs(context, owner);
  await openSecurity(page);
  const opener = page.getByRole("button", { name: "Set up two-factor authentication" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Set up two-factor authentication" });
  // The password comes first: no QR code, no key before it.
  await expect(dialog.getByRole("img", { name: "QR code for your authenticator app" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByText("Please enter your password to confirm")).toBeVisible();
  await dialog.getByLabel("Password", { exact: true }).fill("Not-My-Password-1!");
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByText("Current password is incorrect")).toBeVisible();
  await expect(dialog.getByRole("img", { name: "QR code for your authenticator app" })).toHaveCount(0);
  // Cancel: focus goes back to the button that opened the dialog.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();

  await opener.click();
  await dialog.getByLabel("Password", { exact: true }).fill(owner.password);
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await dialog.getByTestId("totp-secret").textContent())!;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  // Fewer than six digits, then a wrong code, then the right one.
  await dialog.getByLabel("Digit 1 of 6").pressSequentially("123");
  await dialog.getByRole("button", { name: "Enable" }).click();
  await expect(dialog.getByText("A 2FA code must be exactly 6 characters to enable")).toBeVisible();
  const right = totpAt(secret, new Date());
  await dialog.getByLabel("Digit 1 of 6").fill(wrongCode(right));
  await dialog.getByRole("button", { name: "Enable" }).click();
  await expect(dialog.getByRole("alert").filter({ hasText: "Invalid verification code. Please try again." })).toBeVisible();
  await dialog.getByLabel("Digit 1 of 6").fill(right);
  await dialog.getByRole("button", { name: "Enable" }).click();

  const codes = dialog.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(8);
  await expect(dialog.getByRole("button", { name: "Copy codes" })).toBeVisible();
  const download = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download" }).click();
  expect((await download).suggestedFilename()).toBe("plinth-backup-codes.txt");
  const backup = (await codes.allTextContents()).map((c) => c.trim());
  await dialog.getByRole("button", { name: "I've saved my codes" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("8 of 8 backup codes left.")).toBeVisible();
  // The button that opened the dialog is gone (two-factor is on): focus lands on the section.
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeFocused();

  // Sign in with the app's code.
  await signOutFromDashboard(page);
  await page.goto("/auth/login");
  await signInWithForm(page, owner.email, owner.password);
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await page.getByLabel("Digit 1 of 6").fill(nextTotp(secret));
  await expect(page).toHaveURL("/dashboard/links");

  // Sign in with a backup code; the same code never works twice.
  await signOutFromDashboard(page);
  await signInWithBackupCode(page, owner, backup[0]!);
  await expect(page).toHaveURL("/dashboard/links");
  await signOutFromDashboard(page);
  await signInWithBackupCode(page, owner, backup[0]!);
  await expect(page.getByRole("alert").filter({ hasText: "Invalid verification code. Please try again." })).toBeVisible();
  await page.getByLabel("Backup code").fill(backup[1]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL("/dashboard/links");

  // Turning it off needs the password and a code.
  await openSecurity(page);
  await expect(page.getByText("6 of 8 backup codes left.")).toBeVisible();
  await page.getByRole("button", { name: "Turn off", exact: true }).click();
  const off = page.getByRole("dialog", { name: "Turn off two-factor authentication" });
  await off.getByLabel("Code from your app, or a backup code").fill(backup[2]!);
  await off.getByRole("button", { name: "Turn off two-factor" }).click();
  await expect(off.getByText("Please enter your password to confirm")).toBeVisible();
  await off.getByLabel("Password", { exact: true }).fill(owner.password);
  await off.getByRole("button", { name: "Turn off two-factor" }).click();
  await expect(off).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Set up two-factor authentication" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeFocused();
});

test("two-factor: new backup codes need the password and a code, and the old ones stop working", async ({ page, context }) => {
  const owner = await createAccountWithPassword();
  const now = new Date();
  const { secret } = await beginSetup(e2eDb(), { id: owner.userId, email: owner.email }, now);
  const old = confirmSetup(e2eDb(), owner.userId, totpAt(secret, now), now)!;
  await signInAs(context, owner);
  await openSecurity(page);
  const opener = page.getByRole("button", { name: "Generate new backup codes" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Generate new backup codes" });
  await expect(dialog).toContainText("Your current backup codes stop working as soon as the new ones are made.");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(opener).toBeFocused();

  await opener.click();
  await dialog.getByLabel("Password", { exact: true }).fill("Not-My-Password-1!");
  await dialog.getByLabel("Code from your app, or a backup code").fill(nextTotp(secret));
  await dialog.getByRole("button", { name: "Generate new codes" }).click();
  await expect(dialog.getByText("Current password is incorrect")).toBeVisible();
  await dialog.getByLabel("Password", { exact: true }).fill(owner.password);
  await dialog.getByRole("button", { name: "Generate new codes" }).click();
  const codes = dialog.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(8);
  const fresh = (await codes.allTextContents()).map((c) => c.trim());
  expect(fresh.filter((c) => old.includes(c))).toEqual([]);
  await dialog.getByRole("button", { name: "I've saved my codes" }).click();
  await expect(opener).toBeFocused();
  await expect(page.getByText("8 of 8 backup codes left.")).toBeVisible();

  // An old code no longer signs in; a new one does.
  await signOutFromDashboard(page);
  await signInWithBackupCode(page, owner, old[0]!);
  await expect(page.getByRole("alert").filter({ hasText: "Invalid verification code. Please try again." })).toBeVisible();
  await page.getByLabel("Backup code").fill(fresh[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL("/dashboard/links");
});

test("change password: docs/product.md's messages, then other sessions end and this one stays", async ({ page, context, browser }) => {
  const owner = await createAccountWithPassword();
  await signInAs(context, owner);
  const phone = await browser.newContext();
  await signInAs(phone, owner);

  await openSecurity(page);
  await expect(page.getByRole("list", { name: "Active sessions" }).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByText("This device")).toBeVisible();

  const current = page.getByLabel("Current password", { exact: true });
  const fresh = page.getByLabel("New password", { exact: true });
  const confirm = page.getByLabel("Confirm new password", { exact: true });
  const update = page.getByRole("button", { name: "Update Password" });
  await current.fill(owner.password);
  await fresh.fill("Another-Strong-1!");
  await confirm.fill("Another-Strong-2!");
  await update.click();
  await expect(page.getByText("New passwords don't match")).toBeVisible();
  await fresh.fill("weakpassword");
  await confirm.fill("weakpassword");
  await update.click();
  await expect(page.getByText("Password must include uppercase, lowercase, number, and special character")).toBeVisible();
  await current.fill("Not-The-Password-1!");
  await fresh.fill("Another-Strong-1!");
  await confirm.fill("Another-Strong-1!");
  await update.click();
  await expect(page.getByText("Current password is incorrect").first()).toBeVisible();
  await current.fill(owner.password);
  await update.click();
  await expect(page.getByText("Password updated successfully")).toBeVisible();

  const phonePage = await phone.newPage();
  await phonePage.goto("/dashboard/links");
  await expect(phonePage).toHaveURL(/\/auth\/login/);
  await phone.close();
  await page.reload();
  await page.getByRole("tab", { name: "Security" }).click();
  await expect(page.getByRole("list", { name: "Active sessions" }).getByRole("listitem")).toHaveCount(1);
});

test("sessions: sign out everywhere else", async ({ page, context, browser }) => {
  const owner = await createAccountWithPassword();
  await signInAs(context, owner);
  const other = await browser.newContext();
  await signInAs(other, owner);
  await openSecurity(page);
  await expect(page.getByRole("list", { name: "Active sessions" }).getByRole("listitem")).toHaveCount(2);
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByText("Signed out of 1 other session")).toBeVisible();
  await expect(page.getByRole("list", { name: "Active sessions" }).getByRole("listitem")).toHaveCount(1);
  const otherPage = await other.newPage();
  await otherPage.goto("/dashboard/links");
  await expect(otherPage).toHaveURL(/\/auth\/login/);
  await other.close();
});

test("account tab: e-mail and username shown; deletion needs the password and removes the page", async ({ page, context }) => {
  const owner = await createAccountWithPassword();
  await signInAs(context, owner);
  await page.goto("/dashboard/account-settings");
  await expect(page.getByRole("tab", { name: "Account" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText(owner.email)).toBeVisible();
  await expect(page.getByText(`@${owner.username}`).last()).toBeVisible();
  await expect(page.getByRole("tab", { name: "Subscription" })).toBeVisible();
  await page.getByRole("tab", { name: "Billing" }).click();
  // The trial counts as Plus: the billing history is open, with nothing paid yet.
  await expect(page.getByRole("region", { name: "Billing History" })).toContainText("No invoices yet.");
  await page.getByRole("tab", { name: "Account" }).click();

  // Publish once so there is a page to delete.
  expect((await page.evaluate(async () => (await fetch("/api/publish", { method: "POST" })).status))).toBe(200);
  expect((await page.request.get(`/${owner.username}`)).status()).toBe(200);

  await page.getByRole("button", { name: "Delete account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(dialog.getByText("Please enter your password to confirm")).toBeVisible();
  await dialog.getByLabel("Password", { exact: true }).fill("Not-My-Password-1!");
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(dialog.getByText("Current password is incorrect")).toBeVisible();
  await dialog.getByLabel("Password", { exact: true }).fill(owner.password);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL("/");
  expect(e2eDb().select().from(users).where(eq(users.id, owner.userId)).get()).toBeUndefined();
  expect((await page.request.get(`/${owner.username}`)).status()).toBe(404);
  await page.goto("/auth/login");
  await signInWithForm(page, owner.email, owner.password);
  await expect(page.getByText("Invalid email or password")).toBeVisible();
});

test("account tab: with a subscription, the delete dialog warns that it ends; deleting ends it at the provider and keeps the invoice", async ({ page, context }) => {
  const owner = await createAccountWithPassword();
  await signInAs(context, owner);
  await page.goto("/dashboard/account-settings");
  const opener = page.getByRole("button", { name: "Delete account" });
  await expect(opener).toBeVisible();
  // A subscription started after the tab loaded (in another tab, say): the open dialog has not warned yet.
  await subscribeInBrowser(page);
  const subscriptionId = subscriptionIdOf(owner.userId);
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog.getByText("Your Plinth Plus subscription ends too.")).toHaveCount(0);
  await dialog.getByLabel("Password", { exact: true }).fill(owner.password);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  // The server asks for the warning to be seen first; now the dialog shows it.
  await expect(dialog.getByText(BILLING_MESSAGES.deleteNeedsSubscriptionEnd)).toBeVisible();
  await expect(dialog.getByText("Your Plinth Plus subscription ends too.")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(opener).toBeFocused();
  expect(e2eDb().select().from(users).where(eq(users.id, owner.userId)).get()).toBeTruthy();

  // A fresh look: the section and the dialog say it from the start.
  await page.reload();
  await expect(page.getByText("Your Plinth Plus subscription ends at once.")).toBeVisible();
  await opener.click();
  await expect(dialog).toHaveAccessibleDescription(new RegExp(BILLING_MESSAGES.deleteEndsSubscription.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  await expect(dialog.getByText("Your Plinth Plus subscription ends too.")).toBeVisible();
  await dialog.getByLabel("Password", { exact: true }).fill(owner.password);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL("/");
  expect(e2eDb().select().from(users).where(eq(users.id, owner.userId)).get()).toBeUndefined();
  expect(e2eDb().select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.id, subscriptionId)).get()!.status).toBe("canceled");
  const kept = e2eDb().select().from(invoices).where(eq(invoices.billedUsername, owner.username)).all();
  expect(kept.map((i) => ({ userId: i.userId, status: i.status }))).toEqual([{ userId: null, status: "paid" }]);
});

test("two-factor for a Google-only account: a sign-in older than 10 minutes is asked to sign in again with Google", async ({ page, context }) => {
  const owner = await createOwner();
  e2eDb().update(users).set({ passwordHash: null, googleSub: `google-${owner.username}` }).where(eq(users.id, owner.userId)).run();
  await signInAs(context, owner);
  e2eDb().update(sessions).set({ createdAt: new Date(Date.now() - 11 * 60_000) }).where(eq(sessions.userId, owner.userId)).run();
  await openSecurity(page);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const dialog = page.getByRole("dialog", { name: "Set up two-factor authentication" });
  await expect(dialog.getByLabel("Password", { exact: true })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByRole("alert")).toContainText("For your security, sign in with Google again to make this change.");
  const again = dialog.getByRole("link", { name: "Sign in again with Google" });
  expect(new URL((await again.getAttribute("href"))!, "http://x").searchParams.get("next")).toBe("/dashboard/account-settings?tab=security");
  await expect(dialog.getByRole("img", { name: "QR code for your authenticator app" })).toHaveCount(0);

  // Just signed in: the QR code comes without a password.
  e2eDb().update(sessions).set({ createdAt: new Date() }).where(eq(sessions.userId, owner.userId)).run();
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
});
