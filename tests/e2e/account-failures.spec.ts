/**
 * The dashboard's account actions when the server or the network fails (docs/product.md section 8, "Sign-in and
 * account" and "Account and affiliate"): sign-out from the user menu and from the session list,
 * password change, two-factor setup, confirmation and turning it off, and the Account tab that cannot
 * load. Texts come from core, as the screens take them. A 4xx's own message is shown; a 5xx or a
 * dropped connection shows the action's text.
 */
import type { Page } from "@playwright/test";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import { createSession } from "#api/auth/session.ts";
import { beginSetup, confirmSetup, totpAt } from "#api/services/two-factor.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

/** What the real server answers for an unexpected error (api/app.ts). */
const SERVER_ERROR = { status: 500, json: { error: { code: "internal", message: "Something went wrong. Please try again later." } } };

/** Fails the requests to `path` made with `method`; every other request reaches the server. */
async function fail(page: Page, method: string, path: string, answer: "abort" | { status: number; json: unknown }) {
  await page.route(`**${path}`, (route) => {
    if (route.request().method() !== method) return route.fallback();
    return answer === "abort" ? route.abort("connectionfailed") : route.fulfill(answer);
  });
}

/** The toast area (sonner's labelled region); the dashboard shows one toast at a time. */
const toasts = (page: Page) => page.getByRole("region", { name: /Notifications/ });

async function openSecurity(page: Page) {
  await page.goto("/dashboard/account-settings");
  await page.getByRole("tab", { name: "Security" }).click();
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
}

test.describe("sign out", () => {
  test("from the user menu: a failed sign-out says 'Failed to sign out' and stays signed in; the next try works", async ({ page, owner: _owner }) => {
    await page.goto("/dashboard/links");
    await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
    await fail(page, "POST", "/api/auth/logout", SERVER_ERROR);
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(toasts(page).getByText(AUTH_TEXT.signOutFailed, { exact: true })).toBeVisible();
    await expect(page).toHaveURL("/dashboard/links");

    await page.unroute("**/api/auth/logout");
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(page).toHaveURL("/");
  });

  test("from the user menu: a dropped connection also says 'Failed to sign out'", async ({ page, owner: _owner }) => {
    await page.goto("/dashboard/links");
    await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
    await fail(page, "POST", "/api/auth/logout", "abort");
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(toasts(page).getByText(AUTH_TEXT.signOutFailed, { exact: true })).toBeVisible();
    await expect(page).toHaveURL("/dashboard/links");
  });

  async function twoSessions(page: Page, owner: { userId: string }) {
    createSession(e2eDb(), owner.userId, { persistent: false, now: new Date() });
    await openSecurity(page);
    const sessions = page.getByRole("list", { name: "Active sessions" }).getByRole("listitem");
    await expect(sessions).toHaveCount(2);
    return sessions;
  }

  test("from the session list: signing out another session failing says 'Failed to sign out', and it stays listed", async ({ page, owner }) => {
    const sessions = await twoSessions(page, owner);
    await fail(page, "DELETE", "/api/auth/sessions/*", SERVER_ERROR);
    await page.getByRole("button", { name: /^Sign out Unknown device, signed in / }).click();
    await expect(toasts(page).getByText(AUTH_TEXT.signOutFailed, { exact: true })).toBeVisible();
    await expect(toasts(page).getByText("Session signed out")).toHaveCount(0);
    await expect(toasts(page).getByText(SERVER_ERROR.json.error.message)).toHaveCount(0);
    await expect(sessions).toHaveCount(2);
  });

  test("from the session list: 'Sign out everywhere else' failing says 'Failed to sign out'", async ({ page, owner }) => {
    const sessions = await twoSessions(page, owner);
    await fail(page, "POST", "/api/auth/sessions/revoke-others", "abort");
    await page.getByRole("button", { name: "Sign out everywhere else" }).click();
    await expect(toasts(page).getByText(AUTH_TEXT.signOutFailed, { exact: true })).toBeVisible();
    await expect(toasts(page).getByText(/^Signed out of \d+ other session/)).toHaveCount(0);
    await expect(sessions).toHaveCount(2);
  });
});

test.describe("password change", () => {
  async function fillChange(page: Page, current: string) {
    await page.getByLabel("Current password", { exact: true }).fill(current);
    await page.getByLabel("New password", { exact: true }).fill("Brand-New-Pass-31!");
    await page.getByLabel("Confirm new password", { exact: true }).fill("Brand-New-Pass-31!");
    await page.getByRole("button", { name: "Update Password" }).click();
  }

  test("a server error shows 'Error' with 'Failed to update password'", async ({ page, owner }) => {
    await openSecurity(page);
    await fail(page, "POST", "/api/auth/password", SERVER_ERROR);
    await fillChange(page, owner.password);
    const toast = toasts(page).getByRole("listitem").filter({ hasText: AUTH_TEXT.passwordChangeFailed });
    await expect(toast).toBeVisible();
    await expect(toast.getByText("Error", { exact: true })).toBeVisible();
    await expect(toasts(page).getByText(SERVER_ERROR.json.error.message)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Update Password" })).toBeEnabled();
  });

  test("a dropped connection shows 'Failed to update password'", async ({ page, owner }) => {
    await openSecurity(page);
    await fail(page, "POST", "/api/auth/password", "abort");
    await fillChange(page, owner.password);
    await expect(toasts(page).getByText(AUTH_TEXT.passwordChangeFailed, { exact: true })).toBeVisible();
  });

  test("the server's own message (a wrong current password) is shown instead of the fallback", async ({ page, owner: _owner }) => {
    await openSecurity(page);
    await fillChange(page, "Not-My-Password-1!");
    const toast = toasts(page).getByRole("listitem").filter({ hasText: AUTH_TEXT.currentPasswordWrong });
    await expect(toast).toBeVisible();
    await expect(toast.getByText("Error", { exact: true })).toBeVisible();
    await expect(toasts(page).getByText(AUTH_TEXT.passwordChangeFailed)).toHaveCount(0);
    await expect(page.getByText(AUTH_TEXT.currentPasswordWrong).first()).toBeVisible();
  });
});

test.describe("two-factor", () => {
  test("setting it up failing shows 'Failed to set up 2FA' and no QR code", async ({ page, owner }) => {
    await openSecurity(page);
    await fail(page, "POST", "/api/auth/two-factor/setup", SERVER_ERROR);
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    const dialog = page.getByRole("dialog", { name: "Set up two-factor authentication" });
    await dialog.getByLabel("Password", { exact: true }).fill(owner.password);
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(toasts(page).getByText(AUTH_TEXT.twoFactorSetupFailed, { exact: true })).toBeVisible();
    await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Continue" })).toBeEnabled();
  });

  test("confirming the code failing on the server shows 'Failed to verify 2FA code', and two-factor stays off", async ({ page, owner }) => {
    await openSecurity(page);
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await page.getByLabel("Password", { exact: true }).fill(owner.password);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
    const secret = (await page.getByTestId("totp-secret").textContent())!;

    await fail(page, "POST", "/api/auth/two-factor/enable", SERVER_ERROR);
    await page.getByLabel("Digit 1 of 6").fill(totpAt(secret, new Date()));
    await page.getByRole("button", { name: "Enable" }).click();
    await expect(page.getByRole("alert").filter({ hasText: AUTH_TEXT.twoFactorVerifyFailed })).toBeVisible();
    await expect(toasts(page).getByText(AUTH_TEXT.twoFactorVerifyFailed, { exact: true })).toBeVisible();
    await expect(page.getByText(SERVER_ERROR.json.error.message)).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Backup codes" })).toHaveCount(0);
  });

  test("turning it off failing shows 'Failed to disable 2FA', and two-factor stays on", async ({ page, owner }) => {
    const now = new Date();
    const { secret } = await beginSetup(e2eDb(), { id: owner.userId, email: owner.email }, now);
    expect(confirmSetup(e2eDb(), owner.userId, totpAt(secret, now), now)).not.toBeNull();
    await openSecurity(page);
    await page.getByRole("button", { name: "Turn off", exact: true }).click();

    await fail(page, "POST", "/api/auth/two-factor/disable", "abort");
    await page.getByLabel("Password", { exact: true }).fill(owner.password);
    const field = page.getByLabel("Code from your app, or a backup code");
    await field.fill(totpAt(secret, new Date(), 1));
    await page.getByRole("button", { name: "Turn off two-factor" }).click();
    await expect(toasts(page).getByText(AUTH_TEXT.twoFactorDisableFailed, { exact: true })).toBeVisible();
    // The field says it too, tied to the input for screen readers.
    await expect(field).toHaveAccessibleDescription(AUTH_TEXT.twoFactorDisableFailed);
    await expect(page.getByText("8 of 8 backup codes left.")).toBeVisible();
  });
});

test("the Account tab that cannot load its account says 'Something went wrong. Please try again later.'", async ({ page, owner }) => {
  await fail(page, "GET", "/api/auth/account", SERVER_ERROR);
  await page.goto("/dashboard/account-settings");
  await expect(page.getByRole("tab", { name: "Account", selected: true })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: AUTH_TEXT.accountLoadFailed })).toBeVisible();
  await expect(page.getByText(owner.email)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete account" })).toHaveCount(0);
});
