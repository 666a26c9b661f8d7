/**
 * No typing is lost in a dialog (ADR 140): Escape, a click outside or Close on a dialog that holds
 * what the owner typed or chose asks first, with the page-level guard's words; Keep Editing keeps
 * everything and the focus where it was, Discard closes and hands the focus back to the opener. An
 * unedited dialog closes at once.
 */
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { setAdminRole } from "#api/services/admin-role.ts";
import { user2faSettings } from "#db/schema.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { createOwner, e2eDb, expect, signInAs, test } from "./fixtures.ts";

const prompt = (page: Page) => page.getByRole("alertdialog", { name: "You have unsaved changes" });

/**
 * A dialog has opened and taken the focus. Radix listens for Escape from an effect after the dialog
 * is drawn; once the focus is inside, the listener is there, so a key pressed next reaches it.
 */
async function opened(dialog: Locator) {
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
}

/** The question is up and holds the focus on Keep Editing. */
async function asked(page: Page) {
  await opened(prompt(page));
  await expect(prompt(page).getByRole("button", { name: "Keep Editing" })).toBeFocused();
}

/** A click on the dimmed page beside the dialog. */
const clickOutside = (page: Page) => page.mouse.click(4, 4);

/** Escape and a click outside both ask while `dialog` holds typing; Keep Editing keeps it and the focus on `field`. */
async function asksBeforeClosing(page: Page, dialog: Locator, field: Locator) {
  await field.focus();
  await page.keyboard.press("Escape");
  await asked(page);
  await expect(prompt(page)).toContainText("If you close this dialog now, what you typed or chose in it is lost.");
  await prompt(page).getByRole("button", { name: "Keep Editing" }).click();
  await expect(prompt(page)).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(field).toBeFocused();

  await clickOutside(page);
  await asked(page);
  // Escape on the question is Keep Editing: only the top dialog closes (ADR 124).
  await page.keyboard.press("Escape");
  await expect(prompt(page)).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(field).toBeFocused();

  await dialog.getByRole("button", { name: "Close" }).click();
  await asked(page);
  await prompt(page).getByRole("button", { name: "Keep Editing" }).click();
  await expect(dialog).toBeVisible();
}

test("Add and Edit Link: an unedited dialog closes at once; typing is kept behind a question, and Discard returns the focus", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  const add = page.getByRole("button", { name: "Add Component" });
  const dialog = page.getByRole("dialog", { name: "Add New Link" });

  // Nothing typed: Escape and a click outside close at once, the focus back on Add Component.
  await add.click();
  await opened(dialog);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();
  await expect(add).toBeFocused();
  await add.click();
  await opened(dialog);
  await clickOutside(page);
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();

  // Typed: every way out but the dialog's own Cancel asks first.
  await add.click();
  const title = dialog.getByLabel("Title");
  await title.fill("My shop");
  await dialog.getByRole("textbox", { name: "URL", exact: true }).fill("https://shop.example.com");
  await asksBeforeClosing(page, dialog, title);
  await page.keyboard.press("Escape");
  await asked(page);
  await expectNoAxeViolations(page, "the unsaved-typing question over the Add dialog");
  await expect(title).toHaveValue("My shop");
  await prompt(page).getByRole("button", { name: "Discard" }).click();
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();
  await expect(add).toBeFocused();

  // Discard discarded: the next Add dialog is empty, so it closes at once.
  await add.click();
  await opened(dialog);
  await expect(title).toHaveValue("");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // A choice counts as much as typing: the link type.
  await add.click();
  await opened(dialog);
  await dialog.getByLabel("Label", { exact: true }).check();
  await page.keyboard.press("Escape");
  await asked(page);
  await prompt(page).getByRole("button", { name: "Keep Editing" }).click();
  await dialog.getByLabel("Title").fill("Section A");
  await dialog.getByRole("button", { name: "Add Link" }).click();
  await expect(dialog).toBeHidden();

  // Edit Link: unchanged closes at once; changed asks; changed back closes at once again.
  const menu = page.getByRole("button", { name: "Actions for Section A" });
  await menu.click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Link" });
  await opened(edit);
  await page.keyboard.press("Escape");
  await expect(edit).toBeHidden();
  await expect(prompt(page)).toBeHidden();
  await expect(menu).toBeFocused();
  await menu.click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  await opened(edit);
  const editTitle = edit.getByLabel("Title");
  await editTitle.fill("Section B");
  await asksBeforeClosing(page, edit, editTitle);
  await editTitle.fill("Section A");
  await page.keyboard.press("Escape");
  await expect(edit).toBeHidden();
  await expect(prompt(page)).toBeHidden();
  await expect(menu).toBeFocused();
});

test("Escape pressed twice at once over typing asks, then keeps editing: the question never stays up", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  await page.getByRole("button", { name: "Add Component" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Link" });
  await opened(dialog);
  const title = dialog.getByLabel("Title");
  await title.fill("My shop");
  // The second Escape comes before the page has drawn anything after the first: for that moment the
  // dialog below is still the top layer to Radix, so it gets the key, not the question.
  await title.evaluate(async (field) => {
    const escape = () => (document.activeElement ?? field).dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
    escape();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    if (!document.querySelector('[role="alertdialog"]')) throw new Error("the first Escape did not ask");
    escape();
  });
  await expect(prompt(page)).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(title).toHaveValue("My shop");
  await expect(title).toBeFocused();
});

test("the crop dialog asks once the picture is moved or zoomed", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/profile-picture");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="100%" height="100%" fill="#1e293b"/><circle cx="300" cy="200" r="150" fill="#fff"/></svg>`;
  const buffer = await sharp(Buffer.from(svg)).jpeg().toBuffer();
  const choose = page.getByLabel("Choose File");
  await choose.setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer });
  const dialog = page.getByRole("dialog", { name: "Crop Your Profile Picture" });
  await opened(dialog);
  // As it opened: Escape closes at once.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();

  await choose.setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer });
  const zoom = dialog.getByRole("slider", { name: "Zoom" });
  await zoom.fill("2");
  await asksBeforeClosing(page, dialog, zoom);
  await expect(zoom).toHaveValue("2");
  await expectNoAxeViolations(page, "the crop dialog kept after Keep Editing");
  await page.keyboard.press("Escape");
  await prompt(page).getByRole("button", { name: "Discard" }).click();
  await expect(dialog).toBeHidden();
});

test("the social link and list dialogs ask too, and close at once when nothing was typed", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  const newList = page.getByRole("button", { name: "New List" });
  await newList.click();
  const list = page.getByRole("dialog", { name: "New List" });
  await opened(list);
  await page.keyboard.press("Escape");
  await expect(list).toBeHidden();
  await newList.click();
  const listTitle = list.getByLabel("List title");
  await listTitle.fill("Favourites");
  await asksBeforeClosing(page, list, listTitle);
  // Cancel is the owner's own choice to throw the typing away: no question.
  await list.getByRole("button", { name: "Cancel" }).click();
  await expect(list).toBeHidden();
  await expect(prompt(page)).toBeHidden();

  await page.goto("/dashboard/social-links");
  await page.getByRole("button", { name: "Instagram", exact: true }).click();
  const social = page.getByRole("dialog", { name: "Add Instagram Link" });
  await opened(social);
  await page.keyboard.press("Escape");
  await expect(social).toBeHidden();
  await page.getByRole("button", { name: "Instagram", exact: true }).click();
  const handle = social.getByRole("textbox");
  await handle.fill("my.handle");
  await asksBeforeClosing(page, social, handle);
  await page.keyboard.press("Escape");
  await prompt(page).getByRole("button", { name: "Discard" }).click();
  await expect(social).toBeHidden();
});

test("the operator's console asks before a typed reason is lost", async ({ browser }) => {
  const someone = await createOwner();
  const admin = await createOwner({ plan: "plus" });
  setAdminRole(e2eDb(), { email: admin.email, admin: true, actor: "shell (e2e)", now: new Date() });
  e2eDb().insert(user2faSettings).values({ userId: admin.userId, secretKey: "JBSWY3DPEHPK3PXP", isEnabled: true }).run();
  const context = await browser.newContext();
  await signInAs(context, admin, { secondFactor: true });
  const page = await context.newPage();
  await page.goto("/admin/people");
  await page.getByRole("searchbox", { name: "Search by e-mail or username" }).fill(someone.username);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: someone.email }).click();
  const open = page.getByRole("button", { name: "Sign out everywhere" });
  await open.click();
  const dialog = page.getByRole("dialog", { name: "Sign out everywhere" });
  await opened(dialog);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  await open.click();
  const reason = dialog.getByLabel("Reason");
  await reason.fill("Reported a stolen phone");
  await asksBeforeClosing(page, dialog, reason);
  await expectNoAxeViolations(page, "the console's dialog kept after Keep Editing");
  await page.keyboard.press("Escape");
  await prompt(page).getByRole("button", { name: "Discard" }).click();
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  await context.close();
});
