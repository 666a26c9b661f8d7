/**
 * Files from the link dialog, as an owner uses them: a lead magnet's download uploaded instead of
 * linked (wrong and oversized files refused with the messages), a thumbnail uploaded; both reach the
 * published page, and a visitor who leaves an e-mail gets the uploaded file's address.
 */
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { readOutbox } from "#tests/support/mail.ts";
import { E2E } from "./env.ts";
import { createOwner, expect, signInAs, test } from "./fixtures.ts";

/** Each message's recipient, subject and decoded text (long lines are wrapped in the raw file). */
const outbox = () => readOutbox(E2E.outboxDir).map((m) => `${m.to}\n${m.subject}\n${m.text}`);
const toast = (page: Page) => page.locator("[data-sonner-toast][data-front='true']");
const dialog = (page: Page) => page.getByRole("dialog", { name: "Add New Link" });
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");

test("uploads a lead magnet's file and a thumbnail; the published page and the visitor's e-mail use them", async ({ page, owner }) => {
  await page.goto("/dashboard/links");
  await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
  await dialog(page).getByLabel("Lead Magnet", { exact: true }).check();
  await dialog(page).getByLabel("Title").fill("Free guide");
  await dialog(page).getByLabel("Description").fill("Ten tips in a PDF");

  // A web page renamed to .pdf: the server reads the bytes and refuses it.
  const file = dialog(page).getByLabel("Or upload a file");
  await file.setInputFiles({ name: "guide.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html><script>alert(1)</script></html>") });
  await expect(toast(page)).toContainText("Invalid file type");
  await expect(toast(page)).toContainText("Please select a PDF, EPUB, ZIP, MP3 or image file (JPG, PNG, GIF, WEBP)");
  // Too large: refused in the browser before it is sent.
  await file.setInputFiles({ name: "big.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20) });
  await expect(toast(page)).toContainText("Please select a file smaller than 10MB");
  // A real PDF.
  await file.setInputFiles({ name: "guide.pdf", mimeType: "application/pdf", buffer: PDF });
  await expect(toast(page)).toContainText("File uploaded");
  await expect(dialog(page).getByText("Uploaded file")).toBeVisible();
  await expect(dialog(page).getByRole("link", { name: "guide.pdf" })).toBeVisible();
  await expect(dialog(page).getByLabel("File URL (optional)")).toHaveCount(0);

  // A thumbnail for the same link.
  await dialog(page).getByText("More options").click();
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 220, g: 38, b: 38 } } }).png().toBuffer();
  await dialog(page).getByLabel("Or upload a thumbnail").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png });
  await expect(toast(page)).toContainText("Thumbnail uploaded");
  await expect(dialog(page).getByRole("button", { name: "Remove thumbnail" })).toBeVisible();

  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByTestId("link-row").filter({ hasText: "Free guide" })).toBeVisible();

  // Reopened for editing, the link shows its uploaded file.
  await page.getByTestId("link-row").filter({ hasText: "Free guide" }).getByRole("button", { name: "Actions for Free guide" }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Link" });
  await expect(edit.getByText("Uploaded file")).toBeVisible();
  await edit.getByRole("button", { name: "Cancel" }).click();

  expect(await page.evaluate(async () => (await fetch("/api/publish", { method: "POST" })).status)).toBe(200);

  const visitor = await page.context().newPage();
  await visitor.goto(`/${owner.username}`);
  const button = visitor.getByRole("button", { name: "Free guide" });
  const thumb = button.locator("img");
  await expect(thumb).toBeVisible();
  const natural = await thumb.evaluate(async (el: HTMLImageElement) => {
    await el.decode();
    return [el.naturalWidth, el.naturalHeight, el.getAttribute("src")] as const;
  });
  expect(natural.slice(0, 2)).toEqual([96, 96]);
  expect(natural[2]).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);

  await button.click();
  const lead = visitor.getByRole("dialog", { name: "Free guide" });
  await expect(lead.getByText("Ten tips in a PDF")).toBeVisible();
  const email = `${owner.username}-reader@example.com`;
  await lead.getByLabel("Email address").fill(email);
  await lead.getByRole("button", { name: "Send Download Link" }).click();
  await expect(lead.getByRole("heading", { name: "Check your email" })).toBeVisible();
  const pdfUrl = new RegExp(`^${E2E.origin}/media/[0-9a-f]{2}/[0-9a-f]{32}\\.pdf$`);
  const now = lead.getByRole("link", { name: "Download now" });
  await expect(now).toHaveAttribute("href", pdfUrl);
  const sent = (await now.getAttribute("href"))!;
  await expect.poll(() => outbox().some((m) => m.includes(email) && m.includes(sent))).toBe(true);
  const download = await visitor.request.get(sent);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toBe("application/pdf");
  expect(Buffer.from(await download.body()).equals(PDF)).toBe(true);
  await visitor.close();
});

test("a Lite owner finds the upload fields locked behind Plus", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await context.clearCookies();
  await signInAs(context, lite);
  await page.goto("/dashboard/links");
  await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
  await dialog(page).getByText("More options").click();
  await expect(dialog(page).getByLabel("Or upload a thumbnail")).toBeDisabled();
  await expect(dialog(page).getByLabel("Thumbnail image URL")).toBeDisabled();
});
