/**
 * A custom colour that the theme's text cannot be read on gets a warning with the ratio, which goes
 * away for a readable colour.
 */
import { test, expect } from "./fixtures.ts";
import type { Page } from "@playwright/test";

const appearanceSaved = (page: Page) => page.waitForResponse((r) => r.url().endsWith("/api/profile/appearance") && r.request().method() === "PATCH" && r.ok());

test("a hard-to-read custom button colour shows its contrast ratio; a readable one shows nothing", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/appearance");
  const buttonBg = page.getByRole("textbox", { name: "Button background", exact: true });
  await expect(buttonBg).toBeVisible();
  await expect(page.getByText(/hard to read/)).toHaveCount(0);

  // Minimalist Light draws #0f172a on its buttons: on #1e3a8a that is 1.7:1.
  let saved = appearanceSaved(page);
  await buttonBg.fill("#1e3a8a");
  await buttonBg.press("Enter");
  await saved;
  await expect(page.getByRole("status").filter({ hasText: "Button background: Contrast 1.7:1: hard to read. Aim for 4.5:1 or more." })).toBeVisible();

  saved = appearanceSaved(page);
  await buttonBg.fill("#93c5fd");
  await buttonBg.press("Enter");
  await saved;
  await expect(page.getByText(/hard to read/)).toHaveCount(0);
});
