/**
 * The test provider's Connect pages and the visitor's pages of issue 38, walked as people would:
 * an owner sets up payouts on the onboarding stand-in (a used link says so and offers a new one) and
 * opens the Express dashboard stand-in; a visitor tips and buys on the creator's published page
 * through the payment page (a declined card, then a test card that pays), lands on the thanks page
 * (being confirmed, then the receipt and the download), and a refused form shows a readable page.
 * The owner refunds on the dashboard stand-in and the thanks page says so. Every page is axe-checked.
 * The owner's own screens (Earnings, Sales, the link dialog) are another test's; here the owner's
 * links are added through the API the dialog calls.
 */
import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { connectAccounts, sales, testConnectSessions } from "#db/schema.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { CARD_DECLINED, CARD_OK } from "./billing-helpers.ts";
import { createOwner, e2eDb, expect, signInAs, test } from "./fixtures.ts";

/** Same-origin JSON calls as the dashboard makes them. */
async function call(page: Page, method: string, path: string, body?: unknown): Promise<any> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, { method, headers: body === undefined ? {} : { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    },
    { method, path, body },
  );
}

/** A Plus owner, signed in on `page`, connected through the onboarding API, with a published tip and paid download. */
async function sellingOwner(page: Page) {
  const owner = await createOwner({ plan: "plus" });
  await signInAs(page.context(), owner);
  await page.goto("/dashboard/links");
  const start = await call(page, "POST", "/api/connect/onboarding");
  const link = new URL(start.body.url).searchParams.get("link");
  expect((await call(page, "POST", `/api/connect/test/links/${link}`, { outcome: "complete" })).status).toBe(200);
  await call(page, "POST", "/api/links", { linkType: "tip", title: "Buy me a coffee", data: { currency: "usd", amounts: [300, 500], custom: "on", min: 100, max: 20000, message: "Thank you, it means a lot!" } });
  const file = await page.evaluate(async () => {
    const form = new FormData();
    const pdf = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n";
    form.append("file", new Blob([pdf], { type: "application/pdf" }), "guide.pdf");
    return (await (await fetch("/api/payments/files", { method: "POST", body: form })).json()).id as string;
  });
  const download = await call(page, "POST", "/api/links", { linkType: "paid_download", title: "The guide", data: { currency: "usd", price: 900, file, description: "Forty pages", message: "Enjoy the guide" } });
  expect(download.status).toBe(201);
  expect((await call(page, "POST", "/api/publish")).status).toBe(200);
  return owner;
}

async function payWithCard(page: Page, card: string, amount: string) {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("Security code").fill("123");
  await page.getByLabel("Name on card").fill("Grace Hopper");
  await page.getByRole("button", { name: `Pay ${amount}` }).click();
}

test("an owner sets up payouts on the test provider's onboarding page, and a used link offers a new one", async ({ page }) => {
  test.slow();
  const owner = await createOwner({ plan: "plus" });
  await signInAs(page.context(), owner);
  await page.goto("/dashboard/links");
  const { url } = (await call(page, "POST", "/api/connect/onboarding")).body;
  await page.goto(url);
  await expect(page.getByText("TEST MODE: this page stands in for Stripe.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Set up payouts" })).toBeVisible();
  await expect(page.getByText(owner.email)).toBeVisible();
  await expectNoAxeViolations(page);

  // The form checks itself before anything is sent.
  await page.getByRole("button", { name: "Submit details" }).click();
  await expect(page.getByText("Please enter your legal name")).toBeVisible();
  await expect(page.getByText("Please enter a bank account number (digits only)")).toBeVisible();
  await page.getByLabel("Legal name").fill("Ada Lovelace");
  await page.getByLabel("Country").selectOption("United Kingdom");
  await page.getByLabel("Bank account number").fill("000123456789");
  await page.getByRole("button", { name: "Submit details" }).click();
  // Back on Earnings, which says so and then drops ?connect=return from the address.
  await expect(page.getByRole("status").filter({ hasText: "Back from Stripe." })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/earnings$/);
  await expect.poll(() => e2eDb().select().from(connectAccounts).where(eq(connectAccounts.userId, owner.userId)).get()?.chargesEnabled).toBe(true);

  // The same link again: used, with a way to a new one.
  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Setup link expired" })).toBeVisible();
  await expect(page.getByText("This setup link has expired. Start again from your dashboard.")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Get a new setup link" }).click();
  await expect(page).toHaveURL(/\/billing\/connect\?link=acctlink_test_/);
  await expect(page.getByRole("heading", { name: "Set up payouts" })).toBeVisible();
  await page.getByRole("button", { name: "Finish later" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Back from Stripe." })).toBeVisible();

  // Another owner's link reads as unknown.
  const other = await createOwner({ plan: "plus" });
  await page.context().clearCookies();
  await signInAs(page.context(), other);
  await page.goto(url);
  await expect(page.getByText("This setup link is not valid.")).toBeVisible();

  // The Express dashboard stand-in, for the owner who finished.
  await page.context().clearCookies();
  await signInAs(page.context(), owner);
  await page.goto("/dashboard/links");
  await page.goto((await call(page, "POST", "/api/connect/dashboard")).body.url);
  await expect(page.getByRole("heading", { name: "Payouts dashboard" })).toBeVisible();
  await expect(page.getByText("No payments yet.")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a visitor tips and buys through the payment page and the thanks page; a refund shows there; a refused form reads as a page", async ({ page, browser }) => {
  // A long walk on a shared machine: two people, four pages each, every one axe-checked.
  test.slow();
  const owner = await sellingOwner(page);
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  try {
    await visitor.goto(`/${owner.username}`);
    // A tip of a suggested amount, with a note.
    await visitor.getByLabel("Leave a note (optional)").fill("Love your work");
    await visitor.getByRole("button", { name: "$5.00" }).click();
    await expect(visitor).toHaveURL(/\/billing\/pay\?session=cs_test_/);
    await expect(visitor.getByText("TEST MODE: no real card is charged.")).toBeVisible();
    await expect(visitor.getByRole("heading", { name: "Tip: Buy me a coffee" })).toBeVisible();
    await expect(visitor.getByRole("link", { name: "Choose another amount" })).toHaveAttribute("href", new RegExp(`/${owner.username}$`));
    await expectNoAxeViolations(visitor);
    await visitor.getByRole("button", { name: "Pay $5.00" }).click();
    await expect(visitor.getByText("Please enter a valid email address")).toBeVisible();
    await visitor.getByLabel("Email").fill("fan@example.net");
    await payWithCard(visitor, CARD_DECLINED, "$5.00");
    await expect(visitor.getByRole("alert")).toHaveText("Your card was declined.");
    await visitor.getByLabel("Card number").fill(CARD_OK);
    await visitor.getByRole("button", { name: "Pay $5.00" }).click();
    await expect(visitor).toHaveURL(/\/pay\/thanks\?sale=.+&key=/);
    await expect(visitor.getByRole("heading", { name: "Thank you for your tip!" })).toBeVisible();
    await expect(visitor.getByText("A message from the creator")).toBeVisible();
    await expect(visitor.getByText("Thank you, it means a lot!")).toBeVisible();
    await expectNoAxeViolations(visitor);

    // Cancel on the payment page goes back to the page.
    await visitor.goto(`/${owner.username}`);
    await visitor.getByRole("button", { name: "Buy · $9.00" }).click();
    await expect(visitor.getByRole("heading", { name: "The guide" })).toBeVisible();
    await visitor.getByRole("link", { name: "Cancel and go back" }).click();
    await expect(visitor).toHaveURL(new RegExp(`/${owner.username}$`));

    // A purchase: the thanks page before the payment is confirmed, then after.
    await visitor.getByRole("button", { name: "Buy · $9.00" }).click();
    await expect(visitor.getByRole("heading", { name: "The guide" })).toBeVisible();
    const sessionId = new URL(visitor.url()).searchParams.get("session")!;
    const successUrl = e2eDb().select().from(testConnectSessions).where(eq(testConnectSessions.id, sessionId)).get()!.successUrl;
    const early = await visitorContext.newPage();
    await early.goto(successUrl);
    await expect(early.getByRole("heading", { name: "Your payment is being confirmed" })).toBeVisible();
    await expect(early.getByText("Refresh in a moment to see your receipt.")).toBeVisible();
    await expectNoAxeViolations(early);

    await visitor.getByLabel("Email").fill("buyer@example.net");
    await payWithCard(visitor, CARD_OK, "$9.00");
    await expect(visitor.getByRole("heading", { name: "Thank you for your purchase!" })).toBeVisible();
    await expect(visitor.getByText("Enjoy the guide")).toBeVisible();
    await expect(visitor.getByText(/The link works 5 times, until/)).toBeVisible();
    await expectNoAxeViolations(visitor);

    // The early tab's Refresh now finds the payment, and focus moves to the news.
    await early.getByRole("button", { name: "Refresh" }).click();
    await expect(early.getByRole("heading", { name: "Thank you for your purchase!" })).toBeFocused();
    const downloading = early.waitForEvent("download");
    await early.getByRole("link", { name: "Download The guide" }).click();
    expect((await downloading).suggestedFilename()).toBe("guide.pdf");
    await early.close();

    // The owner sees both payments on the Express dashboard stand-in and refunds the purchase.
    await page.goto((await call(page, "POST", "/api/connect/dashboard")).body.url);
    const table = page.getByRole("table");
    await expect(table.getByRole("row")).toHaveCount(3);
    await expect(table.getByRole("row", { name: /The guide/ })).toContainText("$0.45");
    await expect(table.getByRole("row", { name: /Buy me a coffee/ })).toContainText("fan@example.net");
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Refund The guide ($9.00)" }).click();
    await expect(page.getByRole("status")).toHaveText("Refunded The guide ($9.00).");
    await expect(table.getByRole("row", { name: /The guide/ })).toContainText("Refunded");
    await expect(page.getByRole("button", { name: "Refund Buy me a coffee ($5.00)" })).toBeEnabled();
    await expect.poll(() => e2eDb().select().from(sales).where(eq(sales.userId, owner.userId)).all().filter((s) => s.status === "refunded").length).toBe(1);
    await visitor.reload();
    await expect(visitor.getByRole("heading", { name: "This payment was refunded" })).toBeVisible();

    // An amount below the owner's smallest: the form's answer is a page the visitor can read.
    await visitor.goto(`/${owner.username}`);
    await visitor.getByLabel(/Other amount/).fill("0.50");
    await visitor.getByRole("button", { name: "Tip", exact: true }).click();
    await expect(visitor.getByRole("heading", { name: "Please check the amount" })).toBeVisible();
    await expect(visitor.getByText("The smallest amount is 1.00")).toBeVisible();
    await expectNoAxeViolations(visitor);
    await visitor.getByRole("link", { name: "Back to the page" }).click();
    await expect(visitor).toHaveURL(new RegExp(`/${owner.username}$`));
  } finally {
    await visitorContext.close();
  }
});

test("the payment and thanks pages fit 320 px and say when their address is not valid", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto("/billing/pay?session=cs_test_nope");
  await expect(page.getByText("This payment page is not valid.")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.goto("/pay/thanks?sale=nope&key=nope");
  await expect(page.getByText("This receipt link is not valid. If you paid, your receipt is in your e-mail.")).toBeVisible();
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});
