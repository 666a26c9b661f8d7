/**
 * The sign-in, sign-up and reset pages when the server or the network fails (docs/product.md section 8, "Sign-in
 * and account"): each failure is met the way a user meets it, by walking the page to the request that
 * fails, and docs/product.md's text is asserted from core, where the pages take it too. A 5xx or a request
 * that never got an answer shows the action's own text; a 4xx shows the server's message.
 */
import type { Page, Route } from "@playwright/test";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import { beginSetup, confirmSetup, totpAt } from "#api/services/two-factor.ts";
import { codeFor, createAccountWithPassword, freshName, linkFor, PASSWORD, signInWithForm } from "./auth-helpers.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

/** What the real server answers for an unexpected error (api/app.ts): a message meant for nobody in particular. */
const SERVER_ERROR = { status: 500, json: { error: { code: "internal", message: "Something went wrong. Please try again later." } } };
const RATE_LIMITED = { status: 429, json: { error: { code: "rate_limited", message: AUTH_TEXT.tooManyRequests } } };

/** Answers the POSTs to `path` with `answer` (or drops the connection); anything else reaches the server. */
async function failPost(page: Page, path: string, answer: "abort" | { status: number; json: unknown } | ((route: Route) => Promise<void>)) {
  await page.route(`**${path}`, (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    if (answer === "abort") return route.abort("connectionfailed");
    if (typeof answer === "function") return answer(route);
    return route.fulfill(answer);
  });
}

const alertWith = (page: Page, text: string) => page.getByRole("alert").filter({ hasText: text });

test.describe("sign in", () => {
  test("a server error on sign-in shows 'An error occurred during sign in', not the server's generic text", async ({ page }) => {
    const owner = await createAccountWithPassword();
    await failPost(page, "/api/auth/login", SERVER_ERROR);
    await page.goto("/auth/login");
    await signInWithForm(page, owner.email, owner.password);
    await expect(alertWith(page, AUTH_TEXT.signInFailed)).toBeVisible();
    await expect(page.getByText(SERVER_ERROR.json.error.message)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Sign In" })).toBeEnabled();
    await expect(page).toHaveURL("/auth/login");
  });

  test("a dropped connection on sign-in shows 'An error occurred during sign in', and a retry then signs in", async ({ page }) => {
    const owner = await createAccountWithPassword();
    await failPost(page, "/api/auth/login", "abort");
    await page.goto("/auth/login");
    await signInWithForm(page, owner.email, owner.password);
    await expect(alertWith(page, AUTH_TEXT.signInFailed)).toBeVisible();

    await page.unroute("**/api/auth/login");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL("/dashboard/links");
  });

  test("a successful sign-in says 'Successfully signed in!' on its way to the dashboard", async ({ page }) => {
    const owner = await createAccountWithPassword();
    // The dashboard's document answers 204 No Content, so the browser stays on the sign-in page and
    // the message can be read without racing the navigation that follows it.
    const opened: string[] = [];
    await page.route("**/dashboard/links", (route) => {
      opened.push(new URL(route.request().url()).pathname);
      return route.fulfill({ status: 204 });
    });
    await page.goto("/auth/login");
    await signInWithForm(page, owner.email, owner.password);
    await expect(page.getByRole("status").filter({ hasText: AUTH_TEXT.signedIn })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    expect(opened).toEqual(["/dashboard/links"]);

    // Signed in for real: the dashboard opens without asking again.
    await page.unroute("**/dashboard/links");
    await page.goto("/dashboard/links");
    await expect(page).toHaveURL("/dashboard/links");
    await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
  });

  test("Resend Verification failing shows 'Failed to resend verification email'", async ({ page }) => {
    const owner = await createAccountWithPassword({ verified: false });
    await page.goto("/auth/login");
    await signInWithForm(page, owner.email, owner.password);
    const unverified = alertWith(page, AUTH_TEXT.unverifiedTitle);
    await expect(unverified).toBeVisible();

    await failPost(page, "/api/auth/resend-verification", SERVER_ERROR);
    await unverified.getByRole("button", { name: "Resend Verification" }).click();
    await expect(alertWith(page, AUTH_TEXT.verificationFailed)).toBeVisible();
    await expect(page.getByText(AUTH_TEXT.verificationSent)).toHaveCount(0);
  });

  test("the two-factor step failing on the server shows 'Failed to verify 2FA code'", async ({ page }) => {
    const owner = await createAccountWithPassword();
    const now = new Date();
    const { secret } = await beginSetup(e2eDb(), { id: owner.userId, email: owner.email }, now);
    expect(confirmSetup(e2eDb(), owner.userId, totpAt(secret, now), now)).not.toBeNull();

    await failPost(page, "/api/auth/login/two-factor", SERVER_ERROR);
    await page.goto("/auth/login");
    await signInWithForm(page, owner.email, owner.password);
    await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
    await page.getByLabel("Digit 1 of 6").fill(totpAt(secret, new Date(), 1));
    await expect(alertWith(page, AUTH_TEXT.twoFactorVerifyFailed)).toBeVisible();
    await expect(page).toHaveURL("/auth/login");
  });
});

test.describe("sign up", () => {
  async function toEmailStep(page: Page) {
    const name = freshName("fail");
    await page.goto(`/auth/signup?username=${name}`);
    await expect(page.getByRole("heading", { name: `@${name} is available` })).toBeVisible();
    return { name, email: `${name}@example.com` };
  }

  const continueButton = (page: Page) => page.getByRole("button", { name: "Continue", exact: true });

  test("sending the code: a server error and a dropped connection show the fallback, a 4xx its own message", async ({ page }) => {
    const { email } = await toEmailStep(page);
    const answers = [SERVER_ERROR, "abort", RATE_LIMITED] as const;
    let calls = 0;
    await failPost(page, "/api/auth/signup/start", async (route) => {
      const answer = answers[calls++]!;
      await (answer === "abort" ? route.abort("connectionfailed") : route.fulfill(answer));
    });
    await page.getByLabel("Email").fill(email);

    await continueButton(page).click();
    await expect(alertWith(page, AUTH_TEXT.codeSendFailed)).toBeVisible();
    await expect(page.getByText(SERVER_ERROR.json.error.message)).toHaveCount(0);

    // The same text again: the second request was answered (dropped) and the form is ready again.
    await continueButton(page).click();
    await expect.poll(() => calls).toBe(2);
    await expect(continueButton(page)).toBeEnabled();
    await expect(alertWith(page, AUTH_TEXT.codeSendFailed)).toBeVisible();

    await continueButton(page).click();
    await expect(alertWith(page, AUTH_TEXT.tooManyRequests)).toBeVisible();
    await expect(page.getByText(AUTH_TEXT.codeSendFailed)).toHaveCount(0);
    expect(calls).toBe(3);
    // Still on the e-mail step, nothing lost.
    await expect(page.getByLabel("Email")).toHaveValue(email);
  });

  test("resending the code failing shows 'Failed to resend code. Please try again.'", async ({ page }) => {
    const { email } = await toEmailStep(page);
    // The server's answer as it is once the resend wait is over (a minute in real time).
    await failPost(page, "/api/auth/signup/start", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), resendInMs: 0 } });
    });
    await failPost(page, "/api/auth/signup/resend", SERVER_ERROR);
    await page.getByLabel("Email").fill(email);
    await continueButton(page).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

    await page.getByRole("button", { name: "Resend code", exact: true }).click();
    await expect(alertWith(page, AUTH_TEXT.codeResendFailed)).toBeVisible();
    await expect(page.getByText(`We sent a new code to ${email}.`)).toHaveCount(0);
  });

  test("creating the account: a server error shows 'Failed to create account', a 4xx its own message, then it succeeds", async ({ page }) => {
    const { email } = await toEmailStep(page);
    await page.getByLabel("Email").fill(email);
    await continueButton(page).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
    await page.getByLabel("Digit 1 of 6").fill(await codeFor(email));
    await expect(page.getByRole("heading", { name: "Create your password" })).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
    await continueButton(page).click();
    await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
    await page.getByRole("checkbox", { name: /I agree to the/ }).check();

    const answers = [SERVER_ERROR, RATE_LIMITED];
    await failPost(page, "/api/auth/signup/complete", async (route) => {
      const answer = answers.shift();
      await (answer ? route.fulfill(answer) : route.fallback());
    });
    const create = page.getByRole("button", { name: "Create Account" });
    await create.click();
    await expect(alertWith(page, AUTH_TEXT.signUpFailed)).toBeVisible();
    await expect(page.getByText(SERVER_ERROR.json.error.message)).toHaveCount(0);

    await create.click();
    await expect(alertWith(page, AUTH_TEXT.tooManyRequests)).toBeVisible();
    await expect(page.getByText(AUTH_TEXT.signUpFailed)).toHaveCount(0);

    // The wizard kept everything: the third try reaches the real server and the account exists.
    await create.click();
    await expect(page).toHaveURL(/\/dashboard\//);
  });
});

test.describe("password reset", () => {
  test("asking for a reset link: a server error shows 'Failed to reset password', a 4xx its own message", async ({ page }) => {
    const owner = await createAccountWithPassword();
    const answers = [SERVER_ERROR, RATE_LIMITED] as const;
    let calls = 0;
    await failPost(page, "/api/auth/forgot-password", (route) => route.fulfill(answers[calls++]!));
    await page.goto("/auth/forgot-password");
    await page.getByLabel("Email").fill(owner.email);
    const send = page.getByRole("button", { name: "Send Reset Link" });

    await send.click();
    await expect(alertWith(page, AUTH_TEXT.resetFailed)).toBeVisible();
    await expect(page.getByText(AUTH_TEXT.resetSent)).toHaveCount(0);

    await send.click();
    await expect(alertWith(page, AUTH_TEXT.tooManyRequests)).toBeVisible();
    await expect(page.getByText(AUTH_TEXT.resetFailed)).toHaveCount(0);
  });

  test("choosing the new password failing shows 'Failed to reset password' and keeps the form", async ({ page }) => {
    const owner = await createAccountWithPassword();
    await page.goto("/auth/forgot-password");
    await page.getByLabel("Email").fill(owner.email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByText(AUTH_TEXT.resetSent)).toBeVisible();

    await failPost(page, "/api/auth/reset-password", "abort");
    await page.goto(await linkFor(owner.email, "/auth/update-password?token="));
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    const fresh = "Another-Sturdy-77!";
    await page.getByLabel("New password", { exact: true }).fill(fresh);
    await page.getByLabel("Confirm new password", { exact: true }).fill(fresh);
    await page.getByRole("button", { name: "Update Password" }).click();
    await expect(alertWith(page, AUTH_TEXT.resetFailed)).toBeVisible();
    await expect(page.getByText(AUTH_TEXT.passwordUpdated)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Update Password" })).toBeEnabled();
  });
});
