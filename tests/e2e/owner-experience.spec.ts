/**
 * The owner's experience (issue 25): moments seen on real runs that cost a keyboard user time or lost
 * their typing.
 */
import { expectNoAxeViolations } from "./axe.ts";
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { PROFILE_MESSAGES } from "#core/schemas/profile.ts";
import { linkLists, links, socialLinks } from "#db/schema.ts";
import { e2eDb, expect, test } from "./fixtures.ts";
import { tabsUntil } from "./keyboard.ts";

test("the dashboard's first tab stop skips to the screen itself", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  // The heading shows before the session is in (ADR 248); the shell, with the skip link, comes with it.
  await expect(page.getByTestId("layout-summary")).toBeVisible();
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

// The user menu's Radix parts load on its first press (ADR 131): that press must still open it as
// Radix's own trigger does, from the keyboard with the first item focused, and every later one too.
test("the user menu opens on its first press from the keyboard or the pointer, and gives the focus back", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  const menuButton = page.getByRole("button", { name: /user menu$/ });
  const first = page.getByRole("menuitem", { name: "Account Settings" });
  for (const key of ["Enter", "ArrowDown", " "]) {
    await page.goto("/dashboard/account-settings");
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
    await menuButton.focus();
    await page.keyboard.press(key);
    await expect(first).toBeFocused();
    await expect(menuButton).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "View Public Page" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(first).toBeHidden();
    await expect(menuButton).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(first).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menuButton).toBeFocused();
  }

  await page.goto("/dashboard/account-settings");
  await menuButton.click();
  await expect(page.getByRole("menu")).toBeFocused();
  await expect(page.getByText(`@${owner.username}`, { exact: true }).last()).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toBeHidden();
  await expect(menuButton).toBeFocused();
  await menuButton.click();
  await page.getByRole("menuitem", { name: "Account Settings" }).click();
  await expect(page.getByRole("menu")).toBeHidden();
});

test.describe("unsaved changes", () => {
  test("switching an Account & Billing tab with unsaved typing asks first: Stay keeps the typing, Leave switches", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/dashboard/account-settings?tab=security");
    const current = page.getByLabel("Current password", { exact: true });
    await current.fill("typed-not-saved");

    // Keyboard only: from the Security tab to the Account tab.
    const securityTab = page.getByRole("tab", { name: "Security" });
    await securityTab.focus();
    await page.keyboard.press("ArrowLeft");
    const dialog = page.getByRole("alertdialog", { name: "You have unsaved changes" });
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page, "the unsaved-changes dialog over the tabs");
    await dialog.getByRole("button", { name: "Stay" }).press("Enter");
    await expect(dialog).toBeHidden();
    await expect(securityTab).toHaveAttribute("aria-selected", "true");
    await expect(securityTab).toBeFocused();
    await expect(current).toHaveValue("typed-not-saved");

    // A click on another tab asks too; Escape is Stay.
    await page.getByRole("tab", { name: "Subscription" }).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(current).toHaveValue("typed-not-saved");

    await page.getByRole("tab", { name: "Subscription" }).click();
    await dialog.getByRole("button", { name: "Leave" }).click();
    await expect(page.getByRole("tab", { name: "Subscription" })).toHaveAttribute("aria-selected", "true");

    // Nothing unsaved now: the tabs switch without a question.
    await page.getByRole("tab", { name: "Security" }).click();
    await expect(page.getByLabel("Current password", { exact: true })).toHaveValue("");
    await page.getByRole("tab", { name: "Account" }).click();
    await expect(page.getByRole("tab", { name: "Account" })).toHaveAttribute("aria-selected", "true");
    await expect(dialog).toBeHidden();
  });

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

    const menu = page.getByRole("button", { name: /user menu$/ });
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

  test("Back with unsaved typing: Leave goes back one step, and Forward then moves without a question", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/links");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Bio & SEO" }).click();
    await page.getByLabel("Display name").fill("Ada Lovelace");

    await page.goBack();
    const dialog = page.getByRole("alertdialog", { name: "You have unsaved changes" });
    await expect(dialog).toBeVisible();
    // Held: the address is put back and the screen never changed under the question.
    await expect(page).toHaveURL(/\/dashboard\/bio$/);
    await dialog.getByRole("button", { name: "Leave" }).click();
    await expect(page).toHaveURL(/\/dashboard\/links$/);
    await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();

    await page.goForward();
    await expect(page).toHaveURL(/\/dashboard\/bio$/);
    await expect(page.getByLabel("Display name")).not.toHaveValue("Ada Lovelace");
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

/** Opens a row's menu from the keyboard and chooses `item`; the menu button is left as the opener. */
async function chooseFromRowMenu(page: Page, row: string, item: string) {
  const button = page.getByRole("button", { name: `Actions for ${row}` });
  await button.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  // Opened from the keyboard, the menu focuses its first item; then arrow down to the item.
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  // Radix moves the focus from a zero-delay timer after each key: each press waits for its move.
  const target = menu.getByRole("menuitem", { name: item });
  for (let i = 0; i < 10 && !(await target.evaluate((el) => el === document.activeElement)); i++) {
    const from = await menu.evaluate(() => document.activeElement?.textContent);
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => menu.evaluate(() => document.activeElement?.textContent)).not.toBe(from);
  }
  await expect(menu.getByRole("menuitem", { name: item })).toBeFocused();
  await page.keyboard.press("Enter");
  return button;
}

/**
 * Edit and Delete opened from a row's menu, left with Escape, and Delete's Cancel: each time focus
 * comes back to the row's menu button. axe checks the confirm.
 */
async function leaveRowDialogs(page: Page, row: string, editTitle: string, confirmTitle: string) {
  const opener = await chooseFromRowMenu(page, row, "Edit");
  await expect(page.getByRole("dialog", { name: editTitle })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(opener).toBeFocused();

  const confirm = page.getByRole("alertdialog", { name: confirmTitle });
  await chooseFromRowMenu(page, row, "Delete");
  await expect(confirm).toBeVisible();
  await expectNoAxeViolations(page, `the ${confirmTitle} confirm`);
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(opener).toBeFocused();

  await chooseFromRowMenu(page, row, "Delete");
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(confirm).toBeHidden();
  await expect(opener).toBeFocused();
}

/** Deletes a row from its menu, keyboard only: the confirm's Delete is the stop after Cancel. */
async function deleteFromRowMenu(page: Page, row: string) {
  await chooseFromRowMenu(page, row, "Delete");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("alertdialog").getByRole("button", { name: "Delete" })).toBeFocused();
  await page.keyboard.press("Enter");
}

test.describe("focus after a row's confirm", () => {
  test("links: Escape and Cancel return to the row's menu button; Delete moves to the next row, else the previous, else Add Component", async ({ page, owner }) => {
    for (const [i, title] of ["Alpha", "Bravo", "Charlie"].entries()) {
      e2eDb().insert(links).values({ id: randomUUID(), userId: owner.userId, title, url: `https://example.com/${i}`, orderIndex: i }).run();
    }
    await page.goto("/dashboard/links");
    await expect(page.getByTestId("link-row")).toHaveCount(3);
    await leaveRowDialogs(page, "Bravo", "Edit Link", "Delete Link");
    await deleteFromRowMenu(page, "Bravo");
    await expect(page.getByTestId("link-row")).toHaveCount(2);
    await expect(page.getByRole("button", { name: "Actions for Charlie" })).toBeFocused();

    await deleteFromRowMenu(page, "Charlie");
    await expect(page.getByTestId("link-row")).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Actions for Alpha" })).toBeFocused();

    await deleteFromRowMenu(page, "Alpha");
    await expect(page.getByText("No links yet")).toBeVisible();
    await expect(page.getByRole("button", { name: "Add Component" })).toBeFocused();
  });

  test("a list: Escape returns to its Delete list button; after Delete, focus goes to Add Component", async ({ page, owner }) => {
    const listId = randomUUID();
    e2eDb().insert(linkLists).values({ id: listId, userId: owner.userId, title: "Shop", orderIndex: 0 }).run();
    e2eDb().insert(links).values({ id: randomUUID(), userId: owner.userId, title: "Mug", url: "https://example.com/mug", parentListId: listId }).run();
    await page.goto("/dashboard/links");
    const opener = page.getByRole("group", { name: "List Shop" }).getByRole("button", { name: "Delete list" });
    await opener.focus();
    await page.keyboard.press("Enter");
    const confirm = page.getByRole("alertdialog", { name: "Delete List" });
    await expect(confirm).toBeVisible();
    await expectNoAxeViolations(page, "the Delete List confirm");
    await page.keyboard.press("Escape");
    await expect(opener).toBeFocused();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await expect(confirm.getByRole("button", { name: "Delete" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("group", { name: "List Shop" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Add Component" })).toBeFocused();
  });

  test("social icons: Escape and Cancel return to the row's menu button; Delete moves to a neighbour, else the first platform to add", async ({ page, owner }) => {
    for (const [i, platform] of (["instagram", "youtube"] as const).entries()) {
      e2eDb().insert(socialLinks).values({ id: randomUUID(), userId: owner.userId, platform, url: `https://www.${platform}.com/ada`, displayOrder: i + 1 }).run();
    }
    await page.goto("/dashboard/social-links");
    await expect(page.getByTestId("social-row")).toHaveCount(2);
    await leaveRowDialogs(page, "YouTube", "Edit YouTube Link", "Delete Social Link");
    // The last row: its neighbour is the one before.
    await deleteFromRowMenu(page, "YouTube");
    await expect(page.getByTestId("social-row")).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Actions for Instagram" })).toBeFocused();

    await deleteFromRowMenu(page, "Instagram");
    await expect(page.getByText("No social links yet")).toBeVisible();
    const grid = page.getByRole("heading", { name: "Add Social Platform" }).locator("xpath=following-sibling::ul[1]");
    await expect(grid.getByRole("button").first()).toBeFocused();
  });
});

test.describe("the cookie banner", () => {
  test("takes at most 15% of a phone's screen, keeps its choices on one row, comes first in the tab order, and tabbing on never puts the focus under it", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/demo");
    const banner = page.getByRole("region", { name: "Cookies on this page" });
    await expect(banner).toBeVisible();
    const box = (await banner.boundingBox())!;
    expect(box.height).toBeLessThanOrEqual(844 * 0.15);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    // Customize, Decline Non-Essential and Accept All side by side, inside the banner.
    const rows = await Promise.all(["Customize", "Decline Non-Essential", "Accept All"].map((name) => banner.getByRole("button", { name }).boundingBox()));
    for (const r of rows) {
      expect(r!.y).toBe(rows[0]!.y);
      expect(r!.height).toBeGreaterThanOrEqual(24);
      expect(r!.x + r!.width).toBeLessThanOrEqual(box.x + box.width);
    }

    // Its choices are the first stops: the privacy link, then the three buttons.
    const passed = await tabsUntil(page, banner.getByRole("button", { name: "Accept All" }), 6);
    expect(passed).toEqual(["a Privacy Policy", "button Customize", "button Decline Non-Essential"]);

    let stops = 0;
    for (; stops < 80; stops++) {
      await page.keyboard.press("Tab");
      const at = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const ck = document.getElementById("ck")!;
        const r = el.getBoundingClientRect();
        return { inBanner: ck.contains(el), body: el === document.body, name: el.outerHTML.slice(0, 80), bottom: r.bottom, top: r.top, bannerTop: ck.getBoundingClientRect().top };
      });
      // Round the whole page, past the footer, back to the start.
      if (at.inBanner || at.body) break;
      // Entirely above the banner (and on screen).
      expect(at.bottom, `${at.name} is under the cookie banner`).toBeLessThanOrEqual(at.bannerTop);
      expect(at.top).toBeGreaterThanOrEqual(0);
    }
    // The walk went through the whole page, footer included.
    expect(stops).toBeGreaterThan(5);
    expect(stops).toBeLessThan(80);
    await expect(page.getByRole("button", { name: "Cookie Settings" })).toBeInViewport();
  });

  test("Decline Non-Essential gives focus back: to the main content on a first visit, to Cookie Settings when reopened; Escape closes reopened settings", async ({ page }) => {
    await page.goto("/demo");
    const banner = page.getByRole("region", { name: "Cookies on this page" });
    await expect(banner).toBeVisible();
    await expectNoAxeViolations(page, "the compact cookie banner");

    // A first visit needs a choice: Escape leaves the banner up.
    await tabsUntil(page, banner.getByRole("button", { name: "Accept All" }), 6);
    await expect(banner.getByRole("button", { name: "Accept All" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(banner).toBeVisible();
    await page.keyboard.press("Shift+Tab");
    await expect(banner.getByRole("button", { name: "Decline Non-Essential" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(banner).toBeHidden();
    await expect(page.getByRole("main")).toBeFocused();

    // Reopened from the footer: the panel is open and no Customize button shows under it.
    const settings = page.getByRole("button", { name: "Cookie Settings" });
    await settings.focus();
    await page.keyboard.press("Enter");
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("checkbox", { name: /Analytics/ })).toBeFocused();
    await expect(banner.getByRole("button", { name: "Save Preferences" })).toBeVisible();
    await expect(banner.getByRole("button", { name: "Customize" })).toBeHidden();
    await expectNoAxeViolations(page, "cookie preferences reopened");

    // Escape closes it, keeping the stored choice, and focus returns to Cookie Settings.
    await page.keyboard.press("Space");
    await expect(banner.getByRole("checkbox", { name: /Analytics/ })).toBeChecked();
    await page.keyboard.press("Escape");
    await expect(banner).toBeHidden();
    await expect(settings).toBeFocused();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("plinth-consent") ?? "null"))).toMatchObject({ analytics: false, marketing: false });

    // Decline from the reopened settings: focus back on Cookie Settings.
    await page.keyboard.press("Enter");
    await expect(banner.getByRole("checkbox", { name: /Analytics/ })).toBeFocused();
    for (let i = 0; i < 6 && !(await banner.getByRole("button", { name: "Decline Non-Essential" }).evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press("Tab");
    }
    await page.keyboard.press("Enter");
    await expect(banner).toBeHidden();
    await expect(settings).toBeFocused();
  });

  test("Customize on a first visit opens the panel in place of its button and moves focus into it", async ({ page }) => {
    await page.goto("/demo");
    const banner = page.getByRole("region", { name: "Cookies on this page" });
    await banner.getByRole("button", { name: "Customize" }).click();
    await expect(banner.getByRole("group", { name: "Cookie preferences" })).toBeVisible();
    await expect(banner.getByRole("checkbox", { name: /Analytics/ })).toBeFocused();
    await expect(banner.getByRole("button", { name: "Customize" })).toBeHidden();
  });
});
