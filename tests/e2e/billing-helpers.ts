/**
 * Helpers of the billing browser tests: paying on the hosted test checkout as a person would,
 * subscribing through the same API calls the checkout page makes, and moving a subscription's
 * period end (and the job that renews it) into the past in the test server's database, so the
 * server's job worker renews it.
 */
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { billingCustomers, userProfiles } from "#db/schema.ts";
import { endPeriodNow as endPeriodInDb } from "#tests/support/provider-due.ts";
import { createOwner, e2eDb, signInAs, type TestOwner } from "./fixtures.ts";

export const CARD_OK = "4242 4242 4242 4242";
export const CARD_DECLINED = "4000 0000 0000 0002";
export const CARD_DECLINES_RENEWALS = "4000 0000 0000 0341";

/** Fills the hosted checkout's card form and presses Pay. */
export async function payOnCheckout(page: Page, card: string) {
  await expect(page.getByText("TEST MODE: no real card is charged.")).toBeVisible();
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("Security code").fill("123");
  await page.getByLabel("Name on card").fill("Ada Lovelace");
  await page.getByRole("button", { name: "Pay $8.99" }).click();
}

/** Subscribes the signed-in owner of `page` through the checkout API (what the checkout page calls). */
export async function subscribeInBrowser(page: Page, card = CARD_OK) {
  if (!page.url().startsWith("http")) await page.goto("/dashboard/links");
  const status = await page.evaluate(async (number) => {
    const post = (path: string, body: unknown) => fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const { url } = await (await post("/api/billing/checkout", {})).json();
    const session = new URL(url).searchParams.get("session");
    return (await post(`/api/billing/test/sessions/${session}/pay`, { number, expiry: "12/34", cvc: "123", name: "Ada" })).status;
  }, card);
  expect(status).toBe(200);
}

/** A Lite owner (trial over), signed in. */
export async function liteOwner(context: BrowserContext): Promise<TestOwner> {
  const owner = await createOwner({ trial: false });
  await context.clearCookies();
  await signInAs(context, owner);
  return owner;
}

export function subscriptionIdOf(userId: string): string {
  const id = e2eDb().select({ id: billingCustomers.subscriptionId }).from(billingCustomers).where(eq(billingCustomers.userId, userId)).get()?.id;
  if (!id) throw new Error("no subscription");
  return id;
}

/** As if the paid month were over: the test server's job worker does the rest. */
export function endPeriodNow(userId: string) {
  endPeriodInDb(e2eDb(), subscriptionIdOf(userId));
}

export function profileOf(userId: string) {
  return e2eDb().select().from(userProfiles).where(eq(userProfiles.userId, userId)).get()!;
}
