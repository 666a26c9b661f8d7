/**
 * No typing is lost in a dialog (ADR 140): Escape, a click outside or Close on a dialog that holds
 * what the owner typed or chose asks first, with the page-level guard's words; Keep Editing keeps
 * everything and the focus where it was, Discard closes and hands the focus back to the opener. An
 * unedited dialog closes at once.
 */
import type { BrowserContext, Locator, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { setAdminRole } from "#api/services/admin-role.ts";
import { beginSetup, confirmSetup, totpAt } from "#api/services/two-factor.ts";
import { addMonths } from "#core/schemas/billing.ts";
import { user2faSettings, userProfiles } from "#db/schema.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { dialogReady } from "./dialogs.ts";
import { createOwner, e2eDb, expect, signInAs, test } from "./fixtures.ts";

const prompt = (page: Page) => page.getByRole("alertdialog", { name: "You have unsaved changes" });

/** The question is up and holds the focus on Keep Editing. */
async function asked(page: Page) {
  await dialogReady(prompt(page));
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

/** Unedited, the dialog `opener` opens closes at once on Escape and on a click outside; Escape hands the focus back to `opener`. */
async function closesAtOnce(page: Page, opener: Locator, dialog: Locator) {
  await opener.click();
  await dialogReady(dialog);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();
  await expect(opener).toBeFocused();
  await opener.click();
  await dialogReady(dialog);
  await clickOutside(page);
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();
}

/** Opened, changed with `edit` and put back as it was: nothing to lose, so Escape closes at once. */
async function closesWhenPutBack(page: Page, opener: Locator, dialog: Locator, edit: () => Promise<void>) {
  await opener.click();
  await dialogReady(dialog);
  await edit();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();
}

/** Escape on a dialog holding typing asks; Discard closes it and the focus goes back to `opener`. */
async function discards(page: Page, dialog: Locator, opener: Locator) {
  await page.keyboard.press("Escape");
  await asked(page);
  await prompt(page).getByRole("button", { name: "Discard" }).click();
  await expect(prompt(page)).toBeHidden();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

/** A Plus owner (as the database has it) signed in to `context`, with `values` on the profile. */
async function plusOwner(context: BrowserContext, values: Partial<typeof userProfiles.$inferInsert> = {}) {
  const owner = await createOwner({ plan: "plus" });
  if (Object.keys(values).length) e2eDb().update(userProfiles).set(values).where(eq(userProfiles.userId, owner.userId)).run();
  await signInAs(context, owner);
  return owner;
}

test("Add and Edit Link: an unedited dialog closes at once; typing is kept behind a question, and Discard returns the focus", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  const add = page.getByRole("button", { name: "Add Component" });
  const dialog = page.getByRole("dialog", { name: "Add New Link" });

  // Nothing typed: Escape and a click outside close at once, the focus back on Add Component.
  await add.click();
  await dialogReady(dialog);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();
  await expect(add).toBeFocused();
  await add.click();
  await dialogReady(dialog);
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
  await dialogReady(dialog);
  await expect(title).toHaveValue("");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // A choice counts as much as typing: the link type.
  await add.click();
  await dialogReady(dialog);
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
  await dialogReady(edit);
  await page.keyboard.press("Escape");
  await expect(edit).toBeHidden();
  await expect(prompt(page)).toBeHidden();
  await expect(menu).toBeFocused();
  await menu.click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  await dialogReady(edit);
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
  await dialogReady(dialog);
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
  await dialogReady(dialog);
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
  await dialogReady(list);
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
  await dialogReady(social);
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
  await dialogReady(dialog);
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

test("Delete account asks before a typed password is lost, and closes at once when nothing was typed", async ({ page, owner }) => {
  await page.goto("/dashboard/account-settings");
  const open = page.getByRole("button", { name: "Delete account" });
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await closesAtOnce(page, open, dialog);

  // Typed and deleted again: nothing to lose.
  const password = dialog.getByLabel("Password", { exact: true });
  await closesWhenPutBack(page, open, dialog, async () => {
    await password.fill("abc");
    await password.fill("");
  });

  await open.click();
  await password.fill(owner.password);
  await asksBeforeClosing(page, dialog, password);
  await expect(password).toHaveValue(owner.password);
  await discards(page, dialog, open);
  // The typing went with the dialog: it opens empty and closes at once.
  await open.click();
  await dialogReady(dialog);
  await expect(password).toHaveValue("");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // Cancel is the owner's own choice: no question.
  await open.click();
  await password.fill(owner.password);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();
});

test("setting up two-factor asks before a typed password or code is lost", async ({ page, owner }) => {
  await page.goto("/dashboard/account-settings");
  await page.getByRole("tab", { name: "Security" }).click();
  const open = page.getByRole("button", { name: "Set up two-factor authentication" });
  const dialog = page.getByRole("dialog", { name: "Set up two-factor authentication" });
  await closesAtOnce(page, open, dialog);

  // The password step.
  await open.click();
  const password = dialog.getByLabel("Password", { exact: true });
  await password.fill(owner.password);
  await asksBeforeClosing(page, dialog, password);
  await expect(password).toHaveValue(owner.password);
  await discards(page, dialog, open);

  // The code step: the password is sent and gone, so nothing typed closes at once.
  await open.click();
  await password.fill(owner.password);
  await dialog.getByRole("button", { name: "Continue" }).click();
  const digit = dialog.getByLabel("Digit 1 of 6");
  await digit.focus();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();
  await expect(open).toBeFocused();

  // Digits typed into the code boxes ask.
  await open.click();
  await password.fill(owner.password);
  await dialog.getByRole("button", { name: "Continue" }).click();
  await digit.pressSequentially("123");
  await expectNoAxeViolations(page, "the two-factor code step");
  await asksBeforeClosing(page, dialog, digit);
  const digits = dialog.getByRole("group", { name: "Authentication code" }).getByRole("textbox");
  await expect.poll(() => digits.evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value))).toEqual(["1", "2", "3", "", "", ""]);
  await discards(page, dialog, open);
});

test("turning two-factor off and new backup codes ask before a typed password or code is lost", async ({ page, owner }) => {
  const now = new Date();
  const { secret } = await beginSetup(e2eDb(), { id: owner.userId, email: owner.email }, now);
  expect(confirmSetup(e2eDb(), owner.userId, totpAt(secret, now), now)).not.toBeNull();
  await page.goto("/dashboard/account-settings");
  await page.getByRole("tab", { name: "Security" }).click();
  for (const { button, title, field } of [
    { button: "Turn off", title: "Turn off two-factor authentication", field: "Password" },
    { button: "Generate new backup codes", title: "Generate new backup codes", field: "Code from your app, or a backup code" },
  ]) {
    const open = page.getByRole("button", { name: button, exact: true });
    const dialog = page.getByRole("dialog", { name: title });
    await closesAtOnce(page, open, dialog);

    // Typed and deleted again: nothing to lose.
    const code = dialog.getByLabel("Code from your app, or a backup code");
    await closesWhenPutBack(page, open, dialog, async () => {
      await code.fill("123456");
      await code.fill("");
    });

    await open.click();
    const typed = dialog.getByLabel(field, { exact: true });
    await typed.fill("123456");
    await expectNoAxeViolations(page, title);
    await asksBeforeClosing(page, dialog, typed);
    await expect(typed).toHaveValue("123456");
    await discards(page, dialog, open);
  }
  // Nothing was sent: two-factor is still on, every backup code left.
  await expect(page.getByText("8 of 8 backup codes left.")).toBeVisible();
});

test("Request Cash Payout and Renew with Balance ask before a typed address, amount or period is lost", async ({ page, context }) => {
  await plusOwner(context, { rewardsBalanceCents: 5000, payingSince: addMonths(new Date(), -4) });
  await page.goto("/dashboard/affiliate");
  await page.getByRole("tab", { name: "Balance & Payouts" }).click();

  const payout = page.getByRole("button", { name: "Request Cash Payout" });
  const payoutDialog = page.getByRole("dialog", { name: "Request Cash Payout" });
  await closesAtOnce(page, payout, payoutDialog);
  // The amount it opens with, changed and put back: nothing to lose.
  const amount = payoutDialog.getByLabel("Amount (USD)");
  await closesWhenPutBack(page, payout, payoutDialog, async () => {
    await expect(amount).toHaveValue("50.00");
    await amount.fill("25");
    await amount.fill("50.00");
  });
  // A PayPal address typed asks, and so does a changed amount.
  await payout.click();
  const email = payoutDialog.getByLabel("PayPal email");
  await email.fill("ada@paypal.example");
  await expectNoAxeViolations(page, "Request Cash Payout");
  await asksBeforeClosing(page, payoutDialog, email);
  await expect(email).toHaveValue("ada@paypal.example");
  await email.fill("");
  await amount.fill("25");
  await asksBeforeClosing(page, payoutDialog, amount);
  await expect(amount).toHaveValue("25");
  await discards(page, payoutDialog, payout);

  const renew = page.getByRole("button", { name: "Renew with Balance" });
  const renewDialog = page.getByRole("dialog", { name: "Renew with Balance" });
  await closesAtOnce(page, renew, renewDialog);
  const period = renewDialog.getByLabel("Renewal period");
  await closesWhenPutBack(page, renew, renewDialog, async () => {
    await expect(period).toHaveValue("1");
    await period.selectOption("2");
    await period.selectOption("1");
  });
  await renew.click();
  await period.selectOption("2");
  await expectNoAxeViolations(page, "Renew with Balance");
  await asksBeforeClosing(page, renewDialog, period);
  await expect(period).toHaveValue("2");
  await discards(page, renewDialog, renew);
});

test("\"Why are you cancelling?\" asks before a chosen reason or typed words are lost; Keep Subscription does not", async ({ page, context }) => {
  await plusOwner(context);
  await page.goto("/dashboard/account-settings?tab=subscription");
  const cancel = page.getByRole("region", { name: "Subscription" }).getByRole("button", { name: "Cancel Subscription" });
  const why = page.getByRole("dialog", { name: "Why are you cancelling?" });
  const openWhy = async () => {
    await cancel.click();
    await page.getByRole("alertdialog", { name: "Cancel your subscription?" }).getByRole("button", { name: "Continue" }).click();
    await dialogReady(why);
  };

  // Nothing chosen: Escape and a click outside close at once.
  await openWhy();
  await page.keyboard.press("Escape");
  await expect(why).toBeHidden();
  await expect(prompt(page)).toBeHidden();
  await expect(cancel).toBeFocused();
  await openWhy();
  await clickOutside(page);
  await expect(why).toBeHidden();
  await expect(prompt(page)).toBeHidden();

  await openWhy();
  const reason = why.getByRole("radio", { name: "Too expensive" });
  await reason.check();
  await asksBeforeClosing(page, why, reason);
  await expect(reason).toBeChecked();
  const other = why.getByRole("radio", { name: "Other" });
  await other.check();
  const more = why.getByLabel("Tell us more");
  await more.fill("Moving to a paper notebook");
  await expectNoAxeViolations(page, "Why are you cancelling?");
  await asksBeforeClosing(page, why, more);
  await expect(more).toHaveValue("Moving to a paper notebook");
  await discards(page, why, cancel);

  // Discarded: the next time the dialog opens with nothing chosen.
  await openWhy();
  await expect(why.getByRole("radio", { checked: true })).toHaveCount(0);
  // Keep Subscription is the owner's own choice: no question.
  await why.getByRole("radio", { name: "Technical issues" }).check();
  await why.getByRole("button", { name: "Keep Subscription" }).click();
  await expect(why).toBeHidden();
  await expect(prompt(page)).toBeHidden();
  await expect(page.getByRole("region", { name: "Subscription" }).getByText("Active", { exact: true })).toBeVisible();
});
