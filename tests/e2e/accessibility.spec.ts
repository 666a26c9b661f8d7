/**
 * Every screen and every dialog, at desktop and phone sizes, has no axe violations (WCAG 2.2 A and AA).
 */
import { test, expect } from "./fixtures.ts";
import { expectNoAxeViolations } from "./axe.ts";

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

const MARKETING = ["/", "/features", "/pricing", "/help", "/contact", "/status", "/terms", "/privacy", "/cookies", "/affiliate-terms", "/no-such-page"];
const AUTH = ["/auth/login", "/auth/signup", "/auth/forgot-password", "/auth/update-password", "/auth/verify-email", "/auth/callback"];
const DASHBOARD = ["links", "social-links", "profile-picture", "bio", "appearance", "analytics", "earnings", "affiliate", "account-settings", "account-settings?tab=domain"];

for (const size of SIZES) {
  test.describe(`${size.name} ${size.width}x${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    test.setTimeout(180_000);

    test("marketing and sign-in pages have no axe violations", async ({ page }) => {
      // The landing page's carousel stands still for a visitor who asks for less motion: a slide that
      // changed in the middle of a scan would be measured as a blend of two.
      await page.emulateMedia({ reducedMotion: "reduce" });
      for (const path of [...MARKETING, ...AUTH]) {
        await page.goto(path);
        await expect(page.locator("main, [role=main]").first()).toBeVisible();
        await expectNoAxeViolations(page, path);
      }
    });

    test("every dashboard screen has no axe violations", async ({ page, owner }) => {
      expect(owner.username).toBeTruthy();
      for (const screen of DASHBOARD) {
        await page.goto(`/dashboard/${screen}`);
        await expect(page.getByRole("main")).toBeVisible();
        await expect(page.getByText("Loading", { exact: false })).toHaveCount(0);
        await expectNoAxeViolations(page, screen);
      }
      await page.goto("/dashboard/links");
      await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
      await expect(page.getByRole("dialog", { name: "Add New Link" })).toBeVisible();
      await expectNoAxeViolations(page, "Add New Link dialog");
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await page.getByRole("button", { name: "User menu" }).click();
      await expect(page.getByRole("menu")).toBeVisible();
      await expectNoAxeViolations(page, "user menu");
      await page.keyboard.press("Escape");
      if (size.width < 1024) {
        await page.getByRole("button", { name: "Open menu" }).click();
        await expect(page.getByRole("dialog")).toBeVisible();
        await expectNoAxeViolations(page, "phone menu");
        await page.keyboard.press("Escape");
      }
    });

    test("the public page and its dialogs have no axe violations", async ({ page }) => {
      await page.goto("/demo");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page, "public page with cookie banner");
      await page.getByRole("button", { name: "Customize" }).click();
      await expectNoAxeViolations(page, "cookie preferences");
      await page.getByRole("button", { name: "Accept All" }).click();
      await expectNoAxeViolations(page, "public page");
      await page.getByRole("button", { name: "Show QR code" }).click();
      await expect(page.getByRole("dialog", { name: "QR Code" })).toBeVisible();
      await expectNoAxeViolations(page, "QR dialog");
      await page.keyboard.press("Escape");
      await page.evaluate(() => Object.defineProperty(navigator, "share", { value: undefined }));
      await page.getByRole("button", { name: "Share This Page" }).click();
      await expect(page.getByRole("dialog", { name: "Share This Page" })).toBeVisible();
      await expectNoAxeViolations(page, "share dialog");
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Report", exact: true }).click();
      await expect(page.getByRole("dialog", { name: "Report this page" })).toBeVisible();
      await expectNoAxeViolations(page, "report dialog");
    });
  });
}
