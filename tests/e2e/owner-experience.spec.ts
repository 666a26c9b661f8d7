/**
 * The owner's experience (issue 25): moments seen on real runs that cost a keyboard user time or lost
 * their typing.
 */
import { expectNoAxeViolations } from "./axe.ts";
import { PROFILE_MESSAGES } from "#core/schemas/profile.ts";
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

test.describe("unsaved changes", () => {
  test("moving to another screen with unsaved Bio & SEO asks first: Stay keeps the typing and returns to the link, Leave goes", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/bio");
    const bio = page.getByLabel("Bio", { exact: true });
    await bio.fill("Typed, not saved");

    // Keyboard only: the sidebar's Links entry.
    const links = page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Links", exact: true });
    await links.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: "You have unsaved changes" });
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page, "the unsaved-changes dialog");
    await dialog.getByRole("button", { name: "Stay" }).press("Enter");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/dashboard\/bio$/);
    await expect(bio).toHaveValue("Typed, not saved");
    await expect(links).toBeFocused();

    // Escape is Stay too.
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(links).toBeFocused();
    await expect(page).toHaveURL(/\/dashboard\/bio$/);

    await page.keyboard.press("Enter");
    await dialog.getByRole("button", { name: "Leave" }).click();
    await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/links$/);

    // Nothing unsaved now: moving on needs no answer.
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Bio & SEO" }).click();
    await expect(bio).toHaveValue("");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Theme" }).click();
    await expect(page).toHaveURL(/\/dashboard\/appearance$/);
    await expect(dialog).toBeHidden();
  });

  test("saved changes leave without a question; the user menu and Back are guarded too", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/links");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Bio & SEO" }).click();
    const name = page.getByLabel("Display name");
    await name.fill("Ada Lovelace");

    await page.goBack();
    const dialog = page.getByRole("alertdialog", { name: "You have unsaved changes" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Stay" }).click();
    await expect(page).toHaveURL(/\/dashboard\/bio$/);
    await expect(name).toHaveValue("Ada Lovelace");

    const menu = page.getByRole("button", { name: /User menu/ });
    await menu.click();
    await page.getByRole("menuitem", { name: "Account Settings" }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Stay" }).click();
    await expect(menu).toBeFocused();
    await expect(page).toHaveURL(/\/dashboard\/bio$/);

    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText(PROFILE_MESSAGES.saved).first()).toBeVisible();
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Links", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  test("on a phone the mobile menu stays open on Stay, with focus on the chosen entry", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/dashboard/account-settings");
    await page.getByRole("tab", { name: "Security" }).click();
    await page.getByRole("textbox", { name: "Current password" }).fill("half a thought");

    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    const analytics = menu.getByRole("link", { name: "Analytics" });
    await analytics.click();
    const dialog = page.getByRole("alertdialog", { name: "You have unsaved changes" });
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page, "the unsaved-changes dialog on a phone");
    await dialog.getByRole("button", { name: "Stay" }).click();
    await expect(menu).toBeVisible();
    await expect(analytics).toBeFocused();

    await analytics.click();
    await dialog.getByRole("button", { name: "Leave" }).click();
    await expect(page).toHaveURL(/\/dashboard\/analytics$/);
    await expect(menu).toBeHidden();
  });
});
