/**
 * The owner's experience (issue 25): moments seen on real runs that cost a keyboard user time or lost
 * their typing.
 */
import { expect, test } from "./fixtures.ts";

test("the dashboard's first tab stop skips to the screen itself", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
  // The next stop is inside the screen, not the header or the navigation.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
});
