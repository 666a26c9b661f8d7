/**
 * Issue 38, end to end with the test provider playing Stripe: an owner connects a Stripe account
 * from Earnings, adds a Tip and a Paid download in the link dialog, publishes; a visitor tips and
 * buys on the page; the owner sees both sales with the operator's fee taken; the buyer downloads the
 * file with the e-mailed link; the link stops working once it has expired (its expiry moved into the
 * past in the test server's database, as the billing tests move a period's end) and, sent again by
 * the owner, after a refund made in the Express dashboard stand-in.
 */
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { downloadGrants, sales } from "#db/schema.ts";
import { downloadUrl } from "#api/services/sales.ts";
import { mailsTo, linkIn } from "#tests/support/mail.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { liteOwner } from "./billing-helpers.ts";
import { E2E } from "./env.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
const BUYER = "buyer@example.com";
const TIPPER = "tipper@example.com";
const toast = (page: Page) => page.locator("[data-sonner-toast][data-front='true']");

/** Pays on the test provider's checkout page as a visitor would, then waits for the thank-you. */
async function pay(page: Page, email: string, amount: string, thanks: string) {
  await expect(page.getByText("TEST MODE: no real card is charged.")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("Security code").fill("123");
  await page.getByLabel("Name on card").fill("Ada Lovelace");
  await page.getByRole("button", { name: `Pay ${amount}` }).click();
  await expect(page).toHaveURL(/\/pay\/thanks\?/);
  // The webhook may come a moment after the redirect: the page's own Refresh asks again.
  await expect(async () => {
    const refresh = page.getByRole("button", { name: "Refresh" });
    if (await refresh.isVisible()) await refresh.click();
    await expect(page.getByRole("heading", { name: thanks })).toBeVisible({ timeout: 1000 });
  }).toPass();
}

async function addPaymentLink(page: Page, type: "Tip" | "Paid Download", fill: (dialog: ReturnType<Page["getByRole"]>) => Promise<void>) {
  await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add New Link" });
  await dialog.getByRole("radio", { name: type }).check();
  await fill(dialog);
  await dialog.getByRole("button", { name: "Add Link" }).click();
  await expect(toast(page)).toContainText("Link added successfully");
  await expect(dialog).toHaveCount(0);
}

test("an owner gets paid: connect, a tip and a paid download, the sales with the fee, the buyer's link until it expires or is refunded", async ({ page, owner, browser }) => {
  test.setTimeout(120_000);

  // Get paid: connect through the provider's onboarding and come back to Earnings.
  await page.goto("/dashboard/earnings");
  await expect(page.getByRole("heading", { name: "Earnings", level: 1 })).toBeVisible();
  const getPaid = page.getByRole("region", { name: "Get paid" });
  await expect(getPaid).toContainText("Stripe account: Not connected");
  await expect(getPaid).toContainText("Plinth keeps 5% of each tip and sale.");
  await expect(page.getByRole("heading", { name: "No sales yet" })).toBeVisible();
  await expectNoAxeViolations(page, "Earnings, not connected");
  await getPaid.getByRole("button", { name: "Connect with Stripe" }).click();
  await expect(page.getByRole("heading", { name: "Set up payouts" })).toBeVisible();
  await page.getByLabel("Legal name").fill("Ada Lovelace");
  await page.getByLabel("Bank account number").fill("000123456789");
  await page.getByRole("button", { name: "Submit details" }).click();
  await expect(page).toHaveURL(/\/dashboard\/earnings$/);
  await expect(page.getByRole("status").filter({ hasText: "Back from Stripe. Your account: Can take payments." })).toBeVisible();
  await expect(getPaid).toContainText("Stripe account: Can take payments");
  const checks = getPaid.getByRole("list", { name: "Your Stripe account" });
  await expect(checks).toContainText("Can receive payouts(yes)");
  await expect(getPaid.getByRole("button", { name: "Open Stripe dashboard" })).toBeVisible();
  await expectNoAxeViolations(page, "Earnings, connected");

  // A Tip: amounts typed in units; what is not an amount, and one below the smallest, are refused beside their fields.
  await page.goto("/dashboard/links");
  await addPaymentLink(page, "Tip", async (dialog) => {
    await dialog.getByLabel("Title").fill("Buy me a coffee");
    await dialog.getByLabel("Suggested amount 1").fill("3");
    await dialog.getByLabel("Suggested amount 2").fill("five");
    await dialog.getByLabel("Suggested amount 3").fill("0.50");
    await dialog.getByRole("button", { name: "Add Link" }).click();
    await expect(dialog.getByLabel("Suggested amount 2")).toHaveAccessibleDescription("Please enter an amount, like 5 or 4.50");
    await dialog.getByLabel("Suggested amount 2").fill("5");
    await dialog.getByRole("button", { name: "Add Link" }).click();
    await expect(dialog.getByLabel("Suggested amount 3")).toHaveAccessibleDescription("The smallest amount is 1.00");
    await dialog.getByLabel("Suggested amount 3").fill("");
    await dialog.getByLabel("Thank-you message (optional)").fill("Thanks a latte!");
    await expectNoAxeViolations(page, "Add Link dialog, Tip");
  });

  // A Paid download: the price, the file uploaded privately (its limit stated), a description.
  await addPaymentLink(page, "Paid Download", async (dialog) => {
    await dialog.getByLabel("Title").fill("Preset pack");
    await dialog.getByRole("button", { name: "Add Link" }).click();
    await expect(dialog.getByLabel("Price")).toHaveAccessibleDescription("Price is required");
    await dialog.getByLabel("Price").fill("9");
    await dialog.getByLabel("Description (optional)").fill("Twelve presets in a PDF guide");
    const file = dialog.getByLabel("File buyers download");
    await expect(file).toHaveAccessibleDescription(/PDF, ZIP, MP3 or an image, up to 25 MB/);
    await file.setInputFiles({ name: "not-a-pdf.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html><script>alert(1)</script></html>") });
    await expect(dialog.getByText("Please select a PDF, ZIP, MP3 or image file (JPG, PNG, GIF, WEBP)")).toBeVisible();
    await file.setInputFiles({ name: "presets.pdf", mimeType: "application/pdf", buffer: PDF });
    await expect(dialog.getByTestId("download-file")).toHaveText("File: presets.pdf");
    await expectNoAxeViolations(page, "Add Link dialog, Paid Download");
  });

  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const reloaded = page.waitForEvent("load");
  await page.getByRole("alertdialog", { name: "Publish Changes" }).getByRole("button", { name: "Yes, Publish Now" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();
  await reloaded;

  // A visitor tips and buys.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/${owner.username}`);
  const tip = visitor.getByRole("form", { name: "Buy me a coffee" });
  await tip.getByLabel("Leave a note (optional)").fill("Loved the last video");
  await tip.getByRole("button", { name: "$5.00" }).click();
  await pay(visitor, TIPPER, "$5.00", "Thank you for your tip!");
  await expect(visitor.getByText("Thanks a latte!")).toBeVisible();

  await visitor.goto(`/${owner.username}`);
  await visitor.getByRole("form", { name: "Preset pack" }).getByRole("button", { name: "Buy · $9.00" }).click();
  await pay(visitor, BUYER, "$9.00", "Thank you for your purchase!");
  await expect(visitor.getByRole("link", { name: "Download Preset pack" })).toBeVisible();

  // The buyer downloads the file with the e-mailed link.
  await expect.poll(() => mailsTo(E2E.outboxDir, BUYER).map((m) => m.subject)).toContain("Your download: Preset pack");
  const mailed = linkIn(mailsTo(E2E.outboxDir, BUYER).at(-1)!, "/api/pay/download/");
  const file = await visitor.request.get(mailed);
  expect(file.status()).toBe(200);
  expect(Buffer.from(await file.body()).equals(PDF)).toBe(true);

  // The owner sees both sales with the fee taken (5%).
  await page.goto("/dashboard/earnings");
  const table = page.getByRole("table", { name: /Sales, newest first/ });
  const tipRow = table.getByRole("row").filter({ hasText: "Buy me a coffee" });
  const saleRow = table.getByRole("row").filter({ hasText: "Preset pack" });
  await expect(tipRow.getByRole("cell")).toHaveText([/./, "$5.00", "$0.25", "$4.75", TIPPER, ""]);
  await expect(tipRow).toContainText("Loved the last video");
  await expect(saleRow.getByRole("cell")).toHaveText([/./, "$9.00", "$0.45", "$8.55", BUYER, "Resend link"]);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", "/api/payments/sales.csv");
  const csv = await page.request.get("/api/payments/sales.csv");
  expect(await csv.text()).toContain(`"Preset pack","Download","9.00","0.45","0.00","8.55","USD","${BUYER}","Paid"`);
  await expectNoAxeViolations(page, "Earnings with sales");

  // The link expires: its expiry is moved into the past, as the billing tests move a period's end.
  const db = e2eDb();
  const sale = db.select().from(sales).where(eq(sales.buyerEmail, BUYER)).get()!;
  const past = new Date(Date.now() - 60_000);
  db.update(downloadGrants).set({ expiresAt: past }).where(eq(downloadGrants.saleId, sale.id)).run();
  const grant = db.select().from(downloadGrants).where(eq(downloadGrants.saleId, sale.id)).get()!;
  await visitor.goto(downloadUrl(E2E.origin, grant));
  await expect(visitor.getByRole("heading", { name: "Download not available" })).toBeVisible();
  await expect(visitor.getByText("This download link has expired.")).toBeVisible();
  expect((await visitor.request.get(mailed)).status()).toBeGreaterThanOrEqual(400);

  // The owner sends a fresh link; it works again.
  await saleRow.getByRole("button", { name: `Resend link to ${BUYER}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Resend the download link?" });
  await expect(confirm).toContainText("The link sent before stops working.");
  await confirm.getByRole("button", { name: "Resend link" }).click();
  await expect(toast(page)).toContainText("Download link sent again");
  await expect(saleRow.getByRole("button", { name: `Resend link to ${BUYER}` })).toBeFocused();
  await expect.poll(() => mailsTo(E2E.outboxDir, BUYER).filter((m) => m.subject === "Your download: Preset pack").length).toBe(2);
  const resent = linkIn(mailsTo(E2E.outboxDir, BUYER).at(-1)!, "/api/pay/download/");
  expect(resent).not.toBe(mailed);
  expect((await visitor.request.get(resent)).status()).toBe(200);

  // A refund made in the Express dashboard revokes it.
  await page.getByRole("region", { name: "Get paid" }).getByRole("button", { name: "Open Stripe dashboard" }).click();
  await expect(page.getByRole("heading", { name: "Payouts dashboard" })).toBeVisible();
  await page.getByRole("button", { name: "Refund Preset pack ($9.00)" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Refunded Preset pack ($9.00)." })).toBeVisible();
  await visitor.goto(resent);
  await expect(visitor.getByRole("heading", { name: "Download not available" })).toBeVisible();
  await expect(visitor.getByText("This purchase was refunded, so its download link no longer works.")).toBeVisible();

  await page.goto("/dashboard/earnings");
  await expect(saleRow).toContainText("Refunded");
  await expect(saleRow.getByRole("button", { name: /Resend link/ })).toHaveCount(0);
  // At 320px the screen keeps to the width; the sales table scrolls inside its box.
  await page.setViewportSize({ width: 320, height: 700 });
  await expect(getPaid.getByRole("button", { name: "Open Stripe dashboard" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await expectNoAxeViolations(page, "Earnings at 320px");
  await visitorContext.close();
});

test("a Lite owner sees Earnings as a Plus feature, marked PLUS in the menu", async ({ page, context }) => {
  await liteOwner(context);
  await page.goto("/dashboard/earnings");
  await expect(page.getByRole("navigation", { name: "Dashboard" }).first().getByRole("link", { name: /Earnings/ })).toContainText("PLUS");
  await expect(page.getByRole("heading", { name: "Tips and paid downloads are a Plinth Plus feature" })).toBeVisible();
  await page.getByRole("button", { name: /Upgrade to Plinth Plus/ }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
});
