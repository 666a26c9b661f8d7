/**
 * An invoice as an owner (and their accountant) gets it (ADR 103): the billing history's Download
 * PDF link, reached by keyboard, saves a PDF whose text carries the seller's details, the invoice
 * number, net, tax and gross; the printable page shows the same. The e2e server's seller is set in
 * scripts/e2e-server.ts (20% tax included in the price).
 */
import { readFileSync } from "node:fs";
import { pdfText } from "#tests/support/pdf.ts";
import { liteOwner, subscribeInBrowser } from "./billing-helpers.ts";
import { expect, test } from "./fixtures.ts";

test("the billing history downloads each invoice as a PDF with the seller, the number, net, tax and gross", async ({ page, context }) => {
  const owner = await liteOwner(context);
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto("/dashboard/links");
  await subscribeInBrowser(page);
  await page.goto("/dashboard/account-settings?tab=billing");
  const row = page.getByRole("table", { name: "Your invoices, newest first" }).getByRole("row").filter({ has: page.getByRole("cell") });
  await expect(row).toHaveCount(1);
  const number = (await row.getByRole("cell").first().textContent())!.trim();
  expect(number).toMatch(/^PLN-\d{6}$/);

  const link = row.getByRole("link", { name: `Download PDF of invoice ${number}` });
  await link.focus();
  await expect(link).toBeFocused();
  const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  expect(download.suggestedFilename()).toBe(`Invoice-${number}.pdf`);
  const [text] = await pdfText(readFileSync((await download.path())!));
  for (const expected of ["Plinth Publishing Ltd", "1 High Street", "London N1 1AA", "Tax ID: GB123456789", number, `@${owner.username}`, "Net $7.49", "Tax (20%) $1.50", "Total (USD) $8.99"]) {
    expect(text).toContain(expected);
  }
  // The narrow screen still fits the table's box (the table scrolls inside it, not the page).
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

  const [invoice] = await Promise.all([context.waitForEvent("page"), row.getByRole("link", { name: `View invoice ${number}` }).click()]);
  const seller = invoice.getByRole("group", { name: "Seller" });
  await expect(seller).toContainText("Plinth Publishing Ltd");
  await expect(seller).toContainText("Tax ID: GB123456789");
  await expect(invoice.getByRole("row", { name: /^Net/ })).toContainText("$7.49");
  await expect(invoice.getByRole("row", { name: /^Tax \(20%\)/ })).toContainText("$1.50");
  await expect(invoice.getByRole("row", { name: /^Total \(USD\)/ })).toContainText("$8.99");
});
