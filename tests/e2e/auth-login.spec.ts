/**
 * Signing in and out as an owner would: the form and its messages, Remember me, the throttle, an
 * unverified address with Resend Verification, the dashboard guard, and the logout upsell.
 */
import { and, eq } from "drizzle-orm";
import { SESSION_COOKIE } from "#api/auth/session.ts";
import { upgradeRequests } from "#db/schema.ts";
import { beginSetup, confirmSetup, totpAt } from "#api/services/two-factor.ts";
import { createAccountWithPassword, linkFor, nextTotp, PASSWORD, signInWithForm, signOutFromDashboard, wrongCode } from "./auth-helpers.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { createOwner, e2eDb, expect, signInAs, test } from "./fixtures.ts";

test("sign in and out; without Remember me the cookie ends with the browser, with it it lasts 30 days", async ({ page, context }) => {
  const owner = await createAccountWithPassword();
  await page.goto("/auth/login");
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  await expect(page.getByText("Sign in to your Plinth account")).toBeVisible();
  await expect(page.getByRole("link", { name: "Forgot password?" })).toHaveAttribute("href", "/auth/forgot-password");
  await expect(page.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/auth/signup");

  await signInWithForm(page, owner.email, owner.password);
  await expect(page).toHaveURL("/dashboard/links");
  let session = (await context.cookies()).find((c) => c.name === SESSION_COOKIE)!;
  expect(session.expires).toBe(-1);
  expect(session.httpOnly).toBe(true);
  expect(session.sameSite).toBe("Lax");

  await signOutFromDashboard(page);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }).last()).toBeAttached();
  expect((await context.cookies()).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  await page.goto("/dashboard/links");
  await expect(page).toHaveURL(/\/auth\/login\?next=/);

  await signInWithForm(page, owner.email, owner.password, { remember: true });
  await expect(page).toHaveURL("/dashboard/links");
  session = (await context.cookies()).find((c) => c.name === SESSION_COOKIE)!;
  const days = (session.expires * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29);
  expect(days).toBeLessThanOrEqual(30);

  // Signed in already: the sign-in page goes straight on.
  await page.goto("/auth/login");
  await expect(page).toHaveURL("/dashboard/links");
});

test("the form's messages: required, invalid, wrong password and unknown account alike; show/hide", async ({ page }) => {
  const owner = await createAccountWithPassword();
  await page.goto("/auth/login");
  const signIn = page.getByRole("button", { name: "Sign In" });
  await signIn.click();
  await expect(page.getByText("Email is required")).toBeVisible();
  await page.getByLabel("Email").fill("not-an-email");
  await signIn.click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await page.getByLabel("Email").fill(owner.email);
  await signIn.click();
  await expect(page.getByText("Password is required")).toBeVisible();

  const password = page.getByLabel("Password", { exact: true });
  await password.fill("Wrong-Password-99!");
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(password).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Hide password" }).click();
  await expect(password).toHaveAttribute("type", "password");
  await signIn.click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" })).toBeVisible();

  await page.getByLabel("Email").fill("nobody-at-all@example.com");
  await signIn.click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" })).toBeVisible();

  // A script typed around the address is cleaned away, as docs/product.md says.
  await page.getByLabel("Email").fill(`<script>alert(1)</script>${owner.email}`);
  await password.fill(owner.password);
  await signIn.click();
  await expect(page).toHaveURL("/dashboard/links");
});

test("five failures block the address for 15 minutes, even with the right password", async ({ page }) => {
  const owner = await createAccountWithPassword();
  await page.goto("/auth/login");
  for (let i = 0; i < 5; i++) {
    await signInWithForm(page, owner.email, `Wrong-Password-${i}!`);
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" })).toBeVisible();
  }
  await signInWithForm(page, owner.email, owner.password);
  await expect(page.getByRole("alert").filter({ hasText: "Too many attempts. Please try again in 15 minutes." })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login/);
});

test("an unverified address: docs/product.md's message, Resend Verification, the link, then sign-in works", async ({ page }) => {
  const owner = await createAccountWithPassword({ verified: false });
  await page.goto("/auth/login");
  await signInWithForm(page, owner.email, owner.password);
  const alert = page.getByRole("alert").filter({ hasText: "Please verify your email address to log in." });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("Check your email for a verification link.");
  await alert.getByRole("button", { name: "Resend Verification" }).click();
  await expect(page.getByText("Verification email sent!")).toBeVisible();

  await page.goto(await linkFor(owner.email, "/auth/verify-email?token="));
  await expect(page.getByText("Your email address is verified. You can sign in now.")).toBeVisible();
  await page.getByRole("link", { name: "Sign In" }).click();
  await signInWithForm(page, owner.email, owner.password);
  await expect(page).toHaveURL("/dashboard/links");
});

test("the dashboard sends a signed-out visitor to sign in, and back to the page afterwards", async ({ page }) => {
  const owner = await createAccountWithPassword();
  await page.goto("/dashboard/social-links");
  await expect(page).toHaveURL("/auth/login?next=%2Fdashboard%2Fsocial-links");
  await signInWithForm(page, owner.email, owner.password);
  await expect(page).toHaveURL("/dashboard/social-links");
  await expect(page.getByRole("heading", { name: "Social Links", exact: true })).toBeVisible();
});

test("a Lite owner without a trial sees the upgrade dialog after signing out; a trial owner does not", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await signInAs(context, lite);
  await page.goto("/dashboard/links");
  await signOutFromDashboard(page);
  const dialog = page.getByRole("dialog", { name: "Upgrade to Plinth Plus" });
  await expect(dialog).toBeVisible();
  const recorded = e2eDb().select().from(upgradeRequests).where(and(eq(upgradeRequests.userId, lite.userId), eq(upgradeRequests.featureKey, "logout_redirect"))).all();
  expect(recorded).toHaveLength(1);
  await dialog.getByRole("button", { name: "Not Now" }).click();
  await expect(dialog).toBeHidden();
  // Once only: a reload shows the page without the dialog.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your Links, Elevated" })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem("plinth_logout_upsell"))).toBeNull();

  const trial = await createOwner();
  await signInAs(context, trial);
  await page.goto("/dashboard/links");
  await signOutFromDashboard(page);
  expect(await page.evaluate(() => sessionStorage.getItem("plinth_logout_upsell"))).toBeNull();
  expect(e2eDb().select().from(upgradeRequests).where(eq(upgradeRequests.userId, trial.userId)).all()).toHaveLength(0);
});

test("works at 320px and by keyboard alone", async ({ page }) => {
  const owner = await createAccountWithPassword();
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto("/auth/login");
  // The form's controls are enabled once its script has taken over; focus() does not wait for that.
  await expect(page.getByLabel("Email")).toBeEnabled();
  await page.getByLabel("Email").focus();
  await expect(page.getByLabel("Email")).toBeFocused();
  await page.keyboard.type(owner.email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL("/dashboard/links");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
});

test("the two-factor step: a wrong code clears the boxes, backup code and back, a different account, axe clean, then the right code", async ({ page }) => {
  const owner = await createAccountWithPassword();
  const now = new Date();
  const { secret } = await beginSetup(e2eDb(), { id: owner.userId, email: owner.email }, now);
  expect(confirmSetup(e2eDb(), owner.userId, totpAt(secret, now), now)).not.toBeNull();

  await page.goto("/auth/login");
  await signInWithForm(page, owner.email, owner.password);
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  const digit = (i: number) => page.getByLabel(`Digit ${i} of 6`);
  await expect(digit(1)).toBeFocused();
  const verify = page.getByRole("button", { name: "Verify" });
  await expect(verify).toBeDisabled();
  await page.keyboard.type(wrongCode(nextTotp(secret)));
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(digit(1)).toHaveValue("");
  await expect(digit(1)).toBeFocused();
  await expectNoAxeViolations(page, "sign-in: two-factor step with its error");

  await page.getByRole("button", { name: "Use a backup code instead" }).click();
  await expect(page.getByText("Enter one of your backup codes. Each code works once.")).toBeVisible();
  await expect(page.getByLabel("Backup code")).toBeFocused();
  await expect(verify).toBeDisabled();
  await page.getByLabel("Backup code").fill("abcde-fghij");
  await expect(verify).toBeEnabled();
  await page.getByRole("button", { name: "Use your authenticator app instead" }).click();
  await expect(digit(1)).toBeFocused();

  await page.getByRole("button", { name: "Use a different account" }).click();
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await page.keyboard.type(nextTotp(secret));
  await expect(page).toHaveURL("/dashboard/links");
});
