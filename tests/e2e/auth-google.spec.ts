/**
 * Continue with Google against a real OpenID Connect provider (started by the test server): a new
 * user lands in the signup wizard with the address filled in, picks a username and the plan; next
 * time Google signs them straight in.
 */
import { eq } from "drizzle-orm";
import { users } from "#db/schema.ts";
import { MOCK_IDENTITY_COOKIE } from "#tests/support/oidc-mock.ts";
import { E2E } from "./env.ts";
import { freshName, signOutFromDashboard } from "./auth-helpers.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

test("a new Google user signs up by picking a username and a plan, then signs in with Google", async ({ page, context }) => {
  const name = freshName("goog");
  const email = `${name}@gmail.example`;
  const identity = { sub: `google-${name}`, email, email_verified: true };
  await context.addCookies([{ name: MOCK_IDENTITY_COOKIE, value: encodeURIComponent(JSON.stringify(identity)), url: `http://localhost:${E2E.oidcPort}` }]);

  await page.goto("/auth/login");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await expect(page).toHaveURL(/\/auth\/signup/);
  await expect(page.getByRole("heading", { name: "Create Your Plinth" })).toBeVisible();
  await expect(page.getByText(`Signing up with Google as ${email}. Pick your username to continue.`)).toBeVisible();
  await page.getByRole("textbox", { name: "Username" }).fill(name);
  await expect(page.getByText(`@${name} is available`)).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Signup progress" })).toHaveAttribute("aria-valuenow", "100");
  await page.getByRole("checkbox", { name: /I agree to the Terms of Service/ }).check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL("/dashboard/links");
  expect(e2eDb().select().from(users).where(eq(users.email, email)).get()).toMatchObject({ googleSub: identity.sub, passwordHash: null, emailVerified: true });

  await signOutFromDashboard(page);
  await page.goto("/auth/login?next=%2Fdashboard%2Fappearance");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await expect(page).toHaveURL("/dashboard/appearance");
});

test("the Continue with Google button shows when configured, on sign-in and signup", async ({ page }) => {
  await page.goto("/auth/login");
  await expect(page.getByRole("link", { name: "Continue with Google" })).toHaveAttribute("href", /^\/api\/auth\/google\?/);
  await page.goto(`/auth/signup?username=${freshName("gbtn")}`);
  await expect(page.getByRole("link", { name: "Continue with Google" })).toHaveAttribute("href", /username=gbtn_/);
});

test("a refused or forged answer shows docs/product.md's message", async ({ page }) => {
  await page.goto("/auth/callback?error=access_denied&state=x");
  await expect(page.getByText("Failed to sign in with provider")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to sign in" })).toBeVisible();
});
