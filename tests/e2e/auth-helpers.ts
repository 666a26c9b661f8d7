/**
 * Helpers of the account browser tests: mail from the test server's outbox (codes and links), TOTP
 * codes for a secret, and accounts made straight in the database for the flows that start signed up.
 */
import { randomBytes } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { hashPassword } from "#api/auth/password.ts";
import { createAccount } from "#api/services/accounts.ts";
import { totpAt } from "#api/services/two-factor.ts";
import { linkIn, mailsTo, sixDigitCode, type OutboxMail } from "#tests/support/mail.ts";
import { E2E } from "./env.ts";
import { e2eDb, type TestOwner } from "./fixtures.ts";

export const PASSWORD = "Sturdy-Password-42!";

export function freshName(prefix = "acct"): string {
  return `${prefix}_${randomBytes(4).toString("hex")}`;
}

/** Waits for the nth mail (1-based) to an address and returns it. */
export async function mailTo(email: string, nth = 1): Promise<OutboxMail> {
  await expect.poll(() => mailsTo(E2E.outboxDir, email).length, { message: `mail #${nth} to ${email}` }).toBeGreaterThanOrEqual(nth);
  return mailsTo(E2E.outboxDir, email)[nth - 1]!;
}

export async function codeFor(email: string, nth = 1): Promise<string> {
  return sixDigitCode(await mailTo(email, nth));
}

export async function linkFor(email: string, path: string, nth = 1): Promise<string> {
  return linkIn(await mailTo(email, nth), path);
}

/** A code the server accepts now and has not seen: the next time step (within the ±1 window). */
export function nextTotp(secret: string): string {
  return totpAt(secret, new Date(), 1);
}

export function wrongCode(right: string): string {
  return ((Number(right) + 1) % 1_000_000).toString().padStart(6, "0");
}

export async function createAccountWithPassword(opts: { verified?: boolean; username?: string } = {}): Promise<TestOwner> {
  const username = opts.username ?? freshName();
  const email = `${username}@example.com`;
  const { userId } = createAccount(e2eDb(), { email, username, passwordHash: await hashPassword(PASSWORD), emailVerified: opts.verified ?? true, now: new Date() });
  return { userId, username, email, password: PASSWORD };
}

export async function signInWithForm(page: Page, email: string, password: string, opts: { remember?: boolean } = {}) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  if (opts.remember) await page.getByLabel("Remember me").check();
  await page.getByRole("button", { name: "Sign In" }).click();
}

export async function signOutFromDashboard(page: Page) {
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
}

/** Pastes text into the focused element as a real clipboard paste event would. */
export async function paste(page: Page, selector: string, text: string) {
  await page.locator(selector).evaluate((el, value) => {
    const data = new DataTransfer();
    data.setData("text", value);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}
