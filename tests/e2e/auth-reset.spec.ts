/**
 * Forgot password as an owner would: the e-mailed link from the outbox, a new password, every
 * session ended, no sign-in, the link good once.
 */
import { createAccountWithPassword, linkFor, signInWithForm } from "./auth-helpers.ts";
import { expect, signInAs, test } from "./fixtures.ts";

const NEW_PASSWORD = "Brand-New-Secret-77!";

test("reset by e-mail link: new password, every session ended, not signed in, link works once", async ({ page, browser }) => {
  const owner = await createAccountWithPassword();
  // Signed in on another device.
  const laptop = await browser.newContext();
  await signInAs(laptop, owner);
  const laptopPage = await laptop.newPage();
  await laptopPage.goto("/dashboard/links");
  await expect(laptopPage.getByText(`@${owner.username}`).first()).toBeVisible();

  await page.goto("/auth/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL("/auth/forgot-password");
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  const send = page.getByRole("button", { name: "Send Reset Link" });
  await send.click();
  await expect(page.getByText("Email is required")).toBeVisible();
  await page.getByLabel("Email").fill(owner.email);
  await send.click();
  await expect(page.getByText("Password reset email sent!")).toBeVisible();

  const link = await linkFor(owner.email, "/auth/update-password?token=");
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(page).toHaveURL("/auth/update-password");
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText("Password must be at least 12 characters")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirm new password", { exact: true }).fill("Something-Else-1!");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await page.getByLabel("Confirm new password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText("Your password has been updated. Please sign in with your new password.")).toBeVisible();

  // Not signed in here, and signed out on the other device.
  await page.goto("/dashboard/links");
  await expect(page).toHaveURL(/\/auth\/login/);
  // The open dashboard may notice on its own and go to sign-in; a new tab there must too.
  const laptopAgain = await laptop.newPage();
  await laptopAgain.goto("/dashboard/bio");
  await expect(laptopAgain).toHaveURL("/auth/login?next=%2Fdashboard%2Fbio");
  await laptop.close();

  // The old password is gone, the new one works.
  await signInWithForm(page, owner.email, owner.password);
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL("/dashboard/links");

  // The link was good once.
  await page.goto(link);
  await expect(page.getByText("This password reset link is invalid or has expired.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Request a new link" })).toHaveAttribute("href", "/auth/forgot-password");
});

test("an unknown address gets the same answer", async ({ page }) => {
  await page.goto("/auth/forgot-password");
  await page.getByLabel("Email").fill("nobody-here@example.com");
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Password reset email sent!")).toBeVisible();
});
