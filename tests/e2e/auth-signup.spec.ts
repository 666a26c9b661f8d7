/**
 * Signup as a new user walks it: the claim box, the four wizard steps with every validation message
 * and Back at each, the real code from the outbox, and the dashboard at the end.
 */
import { eq } from "drizzle-orm";
import { userProfiles, users } from "#db/schema.ts";
import { codeFor, freshName, mailTo, paste, PASSWORD, wrongCode } from "./auth-helpers.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

test("claim on the landing page, then all four steps with every message and Back, to the dashboard", async ({ page }) => {
  const name = freshName("new");
  const email = `${name}@example.com`;

  // The claim box.
  await page.goto("/");
  await page.getByRole("textbox").first().fill(name);
  await expect(page.getByText(`@${name} is available`)).toBeVisible();
  await page.getByRole("button", { name: "Claim Your Free Page!" }).click();
  await expect(page).toHaveURL(`/auth/signup?username=${name}`);

  // Step 1: e-mail.
  const progress = page.getByRole("progressbar", { name: "Signup progress" });
  await expect(page.getByRole("heading", { name: `@${name} is available` })).toBeVisible();
  await expect(page.getByText("Claim it now for free!")).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuenow", "25");
  const continueButton = page.getByRole("button", { name: "Continue", exact: true });
  await continueButton.click();
  await expect(page.getByText("Email is required")).toBeVisible();
  await page.getByLabel("Email").fill("not-an-email");
  await continueButton.click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await page.getByLabel("Email").fill(`${"a".repeat(250)}@example.com`);
  await continueButton.click();
  await expect(page.getByText("Email address is too long")).toBeVisible();
  await page.getByLabel("Email").fill("fixed@example.com");
  await expect(page.getByText("Email address is too long")).toBeHidden();

  // Back from the e-mail step: the username again, still ours.
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page.getByRole("heading", { name: "Create Your Plinth" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Username" })).toHaveValue(name);
  await expect(page.getByText(`@${name} is available`)).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: `@${name} is available` })).toBeVisible();

  await page.getByLabel("Email").fill(email);
  await continueButton.click();

  // Step 2: the code.
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(page.getByText("Enter verification code")).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuenow", "50");
  await expect(page.getByRole("button", { name: /^Resend code in \d+s$/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Verify" })).toBeDisabled();
  const code = await codeFor(email);

  // Typing moves on by itself; Backspace moves back; non-digits are ignored.
  const digit = (i: number) => page.getByLabel(`Digit ${i} of 6`);
  await digit(1).pressSequentially("12x");
  await expect(digit(1)).toHaveValue("1");
  await expect(digit(2)).toHaveValue("2");
  await expect(digit(3)).toBeFocused();
  await page.keyboard.press("Backspace");
  await expect(digit(2)).toBeFocused();
  await expect(digit(2)).toHaveValue("");
  await page.keyboard.press("Backspace");
  await expect(digit(1)).toHaveValue("");

  // A wrong code of the right length submits itself and is refused.
  await digit(1).focus();
  await page.keyboard.type(wrongCode(code));
  await expect(page.getByText("Invalid verification code. Please try again.")).toBeVisible();
  await expect(digit(1)).toHaveValue("");

  // Back to the e-mail step and on again: the code already sent still counts, no new e-mail.
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await continueButton.click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

  // Pasting the code fills every box and submits.
  await paste(page, 'input[aria-label="Digit 1 of 6"]', code);

  // Step 3: password.
  await expect(page.getByRole("heading", { name: "Create your password" })).toBeVisible();
  await expect(page.getByText("Choose a strong password for your account")).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuenow", "75");
  const pw = page.getByLabel("Password", { exact: true });
  const confirm = page.getByLabel("Confirm password", { exact: true });
  const meter = page.getByRole("meter", { name: "Password strength" });
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Password is required")).toBeVisible();
  await pw.fill("Short-1a");
  await expect(meter).toHaveAttribute("aria-valuetext", "Medium");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Password must be at least 12 characters")).toBeVisible();
  await pw.fill("alllowercaseletters");
  await expect(meter).toHaveAttribute("aria-valuetext", "Weak");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Password must include uppercase, lowercase, number, and special character")).toBeVisible();
  await pw.fill(PASSWORD);
  await expect(meter).toHaveAttribute("aria-valuetext", "Strong");
  // An error leaves as soon as its field is valid, without another submit.
  await expect(page.getByText("Password must include uppercase, lowercase, number, and special character")).toBeHidden();
  await confirm.fill(`${PASSWORD}-typo`);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await page.getByRole("button", { name: "Show password", exact: true }).click();
  await expect(pw).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Hide password", exact: true }).click();
  await expect(pw).toHaveAttribute("type", "password");
  await confirm.fill(PASSWORD);
  await expect(page.getByText("Passwords do not match")).toBeHidden();

  // Back from the password step: the code step, already verified.
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(page.getByText(`Your email address ${email} is verified.`)).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(pw).toHaveValue(PASSWORD);
  await page.getByRole("button", { name: "Continue" }).click();

  // Step 4: plan and terms.
  await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
  await expect(page.getByText("Start with our free trial or go Plus")).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuenow", "100");
  await expect(page.getByRole("radio", { name: /Plinth Lite/ })).toBeChecked();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Please agree to the Terms of Service and Privacy Policy")).toBeVisible();
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page.getByRole("heading", { name: "Create your password" })).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByText("Plinth Plus").click();
  await expect(page.getByRole("radio", { name: /Plinth Plus/ })).toBeChecked();
  await page.getByText("Plinth Lite").click();
  expect(e2eDb().select().from(users).where(eq(users.email, email)).get()).toBeUndefined();
  await page.getByRole("checkbox", { name: /I agree to the Terms of Service and Privacy Policy/ }).check();
  await page.getByRole("button", { name: "Create Account" }).click();

  // The dashboard, the account and the published page.
  await expect(page).toHaveURL("/dashboard/links");
  await expect(page.getByText(`@${name}`).first()).toBeVisible();
  const profile = e2eDb().select().from(userProfiles).where(eq(userProfiles.username, name)).get()!;
  expect(profile).toMatchObject({ displayName: name, planType: "lite", hasPublishedPage: true });
  expect((await page.request.get(`/${name}`)).status()).toBe(200);
  expect((await mailTo(email)).subject).toMatch(/^Your Plinth verification code: \d{6}$/);
});

test("the bare signup page asks for a username first, and refuses a taken one", async ({ page }) => {
  await page.goto("/auth/signup");
  await expect(page.getByRole("heading", { name: "Create Your Plinth" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Already have an account? Sign in" })).toHaveAttribute("href", "/auth/login");
  const box = page.getByRole("textbox", { name: "Username" });
  const go = page.getByRole("button", { name: "Continue" });
  await box.fill("demo");
  await expect(page.getByText("Username is already taken")).toBeVisible();
  await expect(go).toBeDisabled();
  await box.fill("ab");
  await expect(page.getByText("Username must be at least 3 characters")).toBeVisible();
  const name = freshName("bare");
  await box.fill(name);
  await expect(page.getByText(`@${name} is available`)).toBeVisible();
  await go.click();
  await expect(page.getByRole("heading", { name: `@${name} is available` })).toBeVisible();
  await expect(page).toHaveURL(`/auth/signup?username=${name}`);
});

test("a name held by a signup in progress: its owner continues it from another browser, anyone else is told when it frees up (ADR 141)", async ({ page, browser }) => {
  // Two browsers through the signup wizard: close to a minute on a busy two-core machine.
  test.setTimeout(120_000);
  const name = freshName("held");
  const email = `${name}@example.com`;
  const first = await browser.newContext();
  const firstPage = await first.newPage();
  await firstPage.goto(`/auth/signup?username=${name}`);
  await firstPage.getByLabel("Email").fill(email);
  await firstPage.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(firstPage.getByRole("heading", { name: "Check your email" })).toBeVisible();

  // Someone else opens the same link: the claim step says the name is held, and until when.
  await page.goto(`/auth/signup?username=${name}`);
  await expect(page.getByRole("heading", { name: "Create Your Plinth" })).toBeVisible();
  const held = /^Username is held by a signup in progress\. It frees up in (10|9) minutes unless that signup goes on\. If it's yours, continue with the same email address\.$/;
  await expect(page.getByText(held)).toBeVisible();
  await expect(page.getByText("Username is already taken")).toBeHidden();
  await expectNoAxeViolations(page, "the claim step of a held name");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Email").fill(`other_${email}`);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  // Another address: back to the name, told when it frees up, the button off until the name changes.
  await expect(page.getByText(/^Username is held by another signup in progress\. It frees up in (10|9) minutes unless that signup goes on\.$/)).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Username" })).toHaveValue(name);
  await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();

  // The owner, in a third browser (say their phone), continues with their own address to the end.
  const phone = await browser.newContext();
  const phonePage = await phone.newPage();
  await phonePage.goto("/");
  await phonePage.getByRole("textbox").first().fill(name);
  await expect(phonePage.getByText(held)).toBeVisible();
  await phonePage.getByRole("button", { name: "Claim Your Free Page!" }).click();
  await expect(phonePage.getByText(held)).toBeVisible();
  await phonePage.getByRole("button", { name: "Continue" }).click();
  await phonePage.getByLabel("Email").fill(email);
  await phonePage.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(phonePage.getByRole("heading", { name: "Check your email" })).toBeVisible();
  const code = await codeFor(email, 2);
  await paste(phonePage, 'input[aria-label="Digit 1 of 6"]', code);
  await expect(phonePage.getByRole("heading", { name: "Create your password" })).toBeVisible();
  await phonePage.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await phonePage.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
  await phonePage.getByRole("button", { name: "Continue", exact: true }).click();
  await phonePage.getByRole("checkbox", { name: /I agree to the Terms of Service and Privacy Policy/ }).check();
  await phonePage.getByRole("button", { name: "Create Account" }).click();
  await expect(phonePage).toHaveURL(/\/dashboard\/links$/);
  await phone.close();

  // The first browser's attempt was taken over: it starts over. And now the name is really taken.
  await firstPage.reload();
  await expect(firstPage.getByRole("heading", { name: "Create Your Plinth" })).toBeVisible();
  await first.close();
  await page.getByRole("textbox", { name: "Username" }).fill(name);
  await expect(page.getByText("Username is already taken")).toBeVisible();
});

test("every wizard step, with its errors showing, has no axe violations and fits a 320px screen", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const name = freshName("axe");
  const email = `${name}@example.com`;
  await page.goto(`/auth/signup?username=${name}`);
  const continueButton = page.getByRole("button", { name: "Continue", exact: true });
  await expect(page.getByRole("heading", { name: `@${name} is available` })).toBeVisible();
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page.getByRole("heading", { name: "Create Your Plinth" })).toBeVisible();
  await expect(page.getByText(`@${name} is available`)).toBeVisible();
  await expectNoAxeViolations(page, "signup: username step");
  await fits();
  await page.getByRole("button", { name: "Continue" }).click();
  await continueButton.click();
  await expect(page.getByText("Email is required")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "signup: e-mail step with its error");
  await fits();

  await page.getByLabel("Email").fill(email);
  await continueButton.click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expectNoAxeViolations(page, "signup: code step");
  await fits();

  await page.getByLabel("Digit 1 of 6").fill(await codeFor(email));
  await expect(page.getByRole("heading", { name: "Create your password" })).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("Short-1a");
  await continueButton.click();
  await expect(page.getByText("Password must be at least 12 characters")).toBeVisible();
  await expectNoAxeViolations(page, "signup: password step with its error");
  await fits();

  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
  await continueButton.click();
  await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Please agree to the Terms of Service and Privacy Policy")).toBeVisible();
  await expectNoAxeViolations(page, "signup: plan step with its error");
  await fits();
});
