/**
 * The Theme screen's contrast warning judges what the page will draw (ADR 146): the page picks black
 * or white text for the owner's colours, so a dark button on a white page, which the page labels in
 * white, gets no warning; a mid-grey page, on which neither reads at 4.5:1, does.
 */
import type { Page } from "@playwright/test";
import { newId } from "#db/ids.ts";
import { links } from "#db/schema.ts";
import { e2eDb, test, expect } from "./fixtures.ts";
import { expectNoAxeViolations } from "./axe.ts";

const appearanceSaved = (page: Page) => page.waitForResponse((r) => r.url().endsWith("/api/profile/appearance") && r.request().method() === "PATCH" && r.ok());

async function pick(page: Page, name: string, hex: string) {
  const field = page.getByRole("textbox", { name, exact: true });
  const saved = appearanceSaved(page);
  await field.fill(hex);
  await field.press("Enter");
  await saved;
}

test("a white page with #2a2a2a buttons gets no warning, as the page draws white labels; a mid-grey page warns with the drawn ratio", async ({ page, owner }) => {
  e2eDb().insert(links).values({ id: newId(), userId: owner.userId, title: "My Shop", url: "https://shop.example/", orderIndex: 0 }).run();
  await page.goto("/dashboard/appearance");
  await expect(page.getByRole("textbox", { name: "Button background", exact: true })).toBeVisible();

  await pick(page, "Page background", "#ffffff");
  await pick(page, "Button background", "#2a2a2a");
  const button = page.getByTestId("live-preview").contentFrame().locator(".btn").first();
  await expect(button).toHaveCSS("background-color", "rgb(42, 42, 42)");
  // The page labels the button in white (14.3:1): nothing to warn about.
  await expect(button).toHaveCSS("color", "rgb(255, 255, 255)");
  await expect(page.getByText(/hard to read/)).toHaveCount(0);
  await expectNoAxeViolations(page, "the Theme screen with custom colours");

  // On #7a7a7a white text reads at 4.2:1 and near-black at 3.9:1: the page draws white, and says so.
  await pick(page, "Page background", "#7a7a7a");
  await expect(page.getByRole("status").filter({ hasText: "Page background: Contrast 4.2:1: hard to read. Aim for 4.5:1 or more." })).toBeVisible();
  await expect(page.getByTestId("live-preview").contentFrame().locator("body")).toHaveCSS("color", "rgb(255, 255, 255)");
  await expectNoAxeViolations(page, "the Theme screen's contrast warning");

  await pick(page, "Page background", "#1e3a8a");
  await expect(page.getByText(/hard to read/)).toHaveCount(0);
});
