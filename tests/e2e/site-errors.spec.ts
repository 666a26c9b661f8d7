/**
 * The top-level error screen (docs/product.md section 2): 'Something went wrong', the message and Reload Page,
 * for any uncaught error on the static pages' scripts and in the dashboard SPA.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

const screen = (page: Page) => page.getByRole("alert").filter({ has: page.getByRole("heading", { name: "Something went wrong" }) });

async function expectScreenThenReload(page: Page, message: string | RegExp) {
  await expect(screen(page)).toBeVisible();
  await expect(screen(page)).toContainText(message);
  const reload = screen(page).getByRole("button", { name: "Reload Page" });
  await expect(reload).toBeFocused();
  await Promise.all([page.waitForEvent("load"), reload.click()]);
  await expect(screen(page)).toHaveCount(0);
}

test.describe("on the static pages", () => {
  test("an uncaught error shows the error screen, and Reload Page reloads", async ({ page }) => {
    await page.goto("/pricing");
    await page.evaluate(() => setTimeout(() => { throw new Error("The price list broke"); }));
    await expectScreenThenReload(page, "The price list broke");
    await expect(page.getByRole("heading", { name: "Pricing", level: 1 })).toBeVisible();
  });

  test("an unhandled rejection shows it too, and the page below is out of reach", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => void Promise.reject(new Error("Lost the connection")));
    await expect(screen(page)).toContainText("Lost the connection");
    await expect(page.getByRole("main")).toHaveAttribute("inert", "");
    await expectScreenThenReload(page, "Lost the connection");
  });

  test("a failing script of the page itself shows it", async ({ page }) => {
    await page.goto("/help");
    // The FAQ search's own handler throws when the list it filters has been broken underneath it.
    await page.evaluate(() => document.querySelector("#faq-list .faq details")?.remove());
    await page.getByRole("searchbox", { name: "Search the FAQ" }).fill("trial");
    await expect(screen(page)).toBeVisible();
    await expect(screen(page).getByRole("paragraph")).not.toBeEmpty();
  });

  test("errors of other origins' scripts do not take the page down", async ({ page }) => {
    await page.goto("/features");
    await page.evaluate(() => window.dispatchEvent(new ErrorEvent("error", { message: "Script error." })));
    await expect(page.getByRole("heading", { name: "Features", level: 1 })).toBeVisible();
    await expect(screen(page)).toHaveCount(0);
  });
});

test.describe("in the dashboard", () => {
  test("an uncaught error in an event or timer shows the error screen", async ({ page, owner }) => {
    await page.goto("/dashboard/links");
    await expect(page.getByText(`@${owner.username}`).first()).toBeVisible();
    await page.evaluate(() => setTimeout(() => { throw new Error("The link list broke"); }));
    await expectScreenThenReload(page, "The link list broke");
    await expect(page.getByText(`@${owner.username}`).first()).toBeVisible();
  });

  test("a render error shows the error screen with its message", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    // The API answers something the screens cannot draw.
    await page.route("**/api/me", (route) => route.fulfill({ json: "not a profile" }));
    await page.goto("/dashboard/links");
    await expect(screen(page)).toBeVisible();
    await expect(screen(page).getByRole("paragraph")).not.toBeEmpty();
    await expect(screen(page).getByRole("button", { name: "Reload Page" })).toBeVisible();
  });
});
