/**
 * Small looks of the dashboard, measured in the browser.
 */
import type { Locator } from "@playwright/test";
import { THEMES } from "#core/themes.ts";
import { newId } from "#db/ids.ts";
import { eq } from "drizzle-orm";
import { links, socialLinks, userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { E2E } from "./env.ts";
import { test, expect, createOwner, e2eDb, signInAs } from "./fixtures.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { dialogReady } from "./dialogs.ts";

test("the app header carries the logo mark beside the name, on desktop and at 390px", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto("/dashboard/links");
    const home = page.getByRole("banner").getByRole("link", { name: "Plinth" });
    const mark = home.getByTestId("logo-mark");
    await expect(mark).toBeVisible();
    await expect.poll(() => mark.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
    const box = (await mark.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(24);
    expect(box.height).toBeGreaterThanOrEqual(24);
  }
});

test("the header's account button shows the owner's name and picture, else the page's own initials, and its name begins with what it shows", async ({ page, owner }) => {
  const set = (v: Partial<typeof userProfiles.$inferInsert>) => e2eDb().update(userProfiles).set(v).where(eq(userProfiles.userId, owner.userId)).run();
  const menu = page.getByRole("banner").getByRole("button", { name: /user menu$/ });
  const avatar = page.getByRole("banner").getByTestId("avatar-initials");
  /** The initials the avatar draws (decoration, not text: ADR 143). */
  const initials = {
    toHaveText: (text: string) => expect.poll(() => avatar.evaluate((el) => getComputedStyle(el, "::before").content)).toBe(`"${text}"`),
  };
  /** The initials the published page draws for this owner. */
  const pageInitials = async () => {
    expect(publishPage(e2eDb(), owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, apiOrigin: E2E.origin, now: new Date() }).ok).toBe(true);
    const html = await (await page.request.get(`/${owner.username}`)).text();
    return html.match(/class="pic ini"[^>]*>([^<]*)</)?.[1];
  };

  // No display name: the username, and the page's initials for it (the page reads "OW" for owner_…).
  set({ displayName: "", initialsText: "", profilePictureUrl: null, profilePictureFullwidthUrl: null });
  await page.goto("/dashboard/links");
  await expect(menu).toHaveAccessibleName(`${owner.username}, user menu`);
  await expectNoAxeViolations(page, "the header's account button with initials");
  await expect(menu).toContainText(owner.username);
  await initials.toHaveText((await pageInitials())!);
  await initials.toHaveText("OW");

  set({ displayName: "Ada Lovelace" });
  await page.reload();
  await expect(menu).toHaveAccessibleName("Ada Lovelace, user menu");
  await initials.toHaveText("AL");
  expect(await pageInitials()).toBe("AL");

  // The owner's own initials win everywhere: top bar, Profile Picture screen and page.
  set({ initialsText: "zq" });
  await page.goto("/dashboard/profile-picture");
  await initials.toHaveText("ZQ");
  await expect(page.getByRole("img", { name: "No picture yet: your initials are shown" })).toHaveText("ZQ");
  expect(await pageInitials()).toBe("ZQ");
  await expect(menu.locator("img")).toHaveCount(0);

  // Only a full-width picture: the header shows it too, and the name still labels the button.
  set({ profilePictureStyle: "full_width", profilePictureFullwidthUrl: "/media/wide.jpg" });
  await page.reload();
  await expect(menu).toHaveAccessibleName("Ada Lovelace, user menu");
  await expect(menu.locator("img")).toHaveAttribute("src", "/media/wide.jpg");
  set({ profilePictureUrl: "/media/icon.jpg" });
  await page.reload();
  await expect(menu.locator("img")).toHaveAttribute("src", "/media/icon.jpg");

  // On a 320 px phone the name is cut short, not the header.
  set({ displayName: "Ada Augusta King, Countess of Lovelace" });
  await page.setViewportSize({ width: 320, height: 640 });
  await page.reload();
  await expect(menu).toHaveAccessibleName("Ada Augusta King, Countess of Lovelace, user menu");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await expectNoAxeViolations(page, "the header with a long name at 320 px");
});

/** Boxes of the visible controls in a region, to compare their rows. */
async function tops(region: Locator): Promise<number[]> {
  const boxes = await region.locator("a:visible, button:visible, span:visible").evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => r.top + r.height / 2));
  return boxes;
}

test("the status bar fits one row on a 390px phone, and a screen with its own live preview shows one Preview button", async ({ page, context }) => {
  const owner = await createOwner({ trial: false });
  await signInAs(context, owner);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/appearance");
  // A draft change, so Draft Changes, Publish and Discard Changes all show.
  await page.getByRole("radio", { name: "Pill" }).check();
  const bar = page.getByRole("region", { name: "Page status" });
  await expect(bar.getByText("Draft Changes")).toBeVisible();
  await expect(bar.getByRole("button", { name: "Discard Changes" })).toBeEnabled();

  // Theme has its own Preview toggle on phones: the status bar's Preview steps aside.
  const previews = page.locator("main, [role=region]").getByRole("button", { name: "Preview" }).or(page.getByRole("link", { name: "Preview" }));
  await expect(previews.filter({ visible: true })).toHaveCount(1);
  await expect(page.getByRole("main").getByRole("button", { name: "Preview" })).toBeVisible();

  await page.goto("/dashboard/links");
  await expect(bar.getByRole("link", { name: "Preview" })).toBeVisible();
  await expect(previews.filter({ visible: true })).toHaveCount(1);
  const rows = await tops(bar);
  expect(rows.length).toBeGreaterThanOrEqual(5);
  // Every visible control and badge of the bar sits on one line, and the bar is one control high.
  for (const y of rows) expect(Math.abs(y - rows[0]!)).toBeLessThanOrEqual(2);
  expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(60);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Wider screens name every control and the owner again.
  await page.setViewportSize({ width: 1280, height: 844 });
  await expect(bar.getByText(`@${owner.username}`)).toBeVisible();
  await expect(bar.getByText("Discard Changes")).toBeVisible();
  await page.goto("/dashboard/appearance");
  await expect(bar.getByRole("link", { name: "Preview" })).toBeVisible();

  // At 320 px the bar may take two rows, but nothing runs off the screen.
  await page.setViewportSize({ width: 320, height: 844 });
  await page.goto("/dashboard/links");
  await expect(bar.getByRole("button", { name: "Publish" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await expectNoAxeViolations(page);
});

/** Whether an element's text takes one line: no taller than its line height, and nothing cut off. */
const oneLine = (el: Locator) =>
  el.evaluate((e) => {
    const lineHeight = parseFloat(getComputedStyle(e).lineHeight);
    return e.getBoundingClientRect().height <= lineHeight * 1.2 && e.scrollWidth <= e.clientWidth + 1;
  });

test("theme names and 'Affiliate Program' keep one line beside their PLUS marks, at 320px, 390px and on the sidebar", async ({ page, context }) => {
  const owner = await createOwner({ trial: false });
  await signInAs(context, owner);
  for (const width of [320, 390, 1024, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto("/dashboard/appearance");
    for (const t of THEMES) {
      const card = page.getByTestId(`theme-${t.id}`);
      const name = card.getByText(t.name, { exact: true });
      expect(await oneLine(name), `${t.name} at ${width}px`).toBe(true);
      if (!t.free) {
        // The badge stays inside its card, clear of the name.
        const badge = (await card.getByRole("button", { name: /^PLUS/ }).boundingBox())!;
        const cardBox = (await card.boundingBox())!;
        const nameBox = (await name.boundingBox())!;
        expect(badge.x + badge.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
        expect(badge.y + badge.height <= nameBox.y || badge.x >= nameBox.x + nameBox.width, `${t.name}'s badge clear of its name`).toBe(true);
      }
    }
    const nav = width >= 1024 ? page.getByRole("complementary").getByRole("navigation", { name: "Dashboard" }) : page.getByRole("dialog", { name: "Menu" });
    if (width < 1024) await page.getByRole("button", { name: "Open menu" }).click();
    const affiliate = nav.getByRole("link", { name: /Affiliate Program/ });
    await expect(affiliate.getByTestId("plus-tag")).toBeVisible();
    expect(await oneLine(affiliate.getByText("Affiliate Program", { exact: true })), `sidebar at ${width}px`).toBe(true);
    const link = (await affiliate.boundingBox())!;
    const tag = (await affiliate.getByTestId("plus-tag").boundingBox())!;
    expect(tag.x + tag.width).toBeLessThanOrEqual(link.x + link.width);
    expect(tag.height).toBeLessThanOrEqual(24);
  }
});

test("the QR row's switch lines up with the social rows' switches, and 'Make main button' carries the Plus mark", async ({ page, context }) => {
  const owner = await createOwner({ trial: false });
  (["instagram", "youtube"] as const).forEach((platform, i) =>
    e2eDb().insert(socialLinks).values({ id: newId(), userId: owner.userId, platform, url: `https://${platform}.com/someone`, displayOrder: i + 1 }).run(),
  );
  e2eDb().insert(links).values({ id: newId(), userId: owner.userId, title: "Shop", url: "https://example.com/shop", orderIndex: 0 }).run();
  await signInAs(context, owner);
  for (const width of [320, 390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto("/dashboard/social-links");
    const qr = (await page.getByRole("switch", { name: "Visible: QR Code" }).boundingBox())!;
    for (const name of ["Instagram", "YouTube"]) {
      const sw = (await page.getByRole("switch", { name: `Visible: ${name}` }).boundingBox())!;
      expect(Math.abs(sw.x - qr.x), `${name} switch at ${width}px`).toBeLessThanOrEqual(1);
      expect(sw.width).toBe(qr.width);
    }
  }

  await page.goto("/dashboard/links");
  await page.getByRole("button", { name: "Actions for Shop" }).click();
  const item = page.getByRole("menuitem", { name: /Make main button/ });
  await expect(item.getByTestId("plus-tag")).toBeVisible();
  await expect(item.getByTestId("plus-tag")).toHaveText("PLUS");
  await expectNoAxeViolations(page);
  await item.click();
  await expect(page.getByRole("dialog", { name: "Upgrade to Plinth Plus" })).toBeVisible();
});

test("arrowing through the link types passes the Plus ones without a prompt; Space or a click on one asks to upgrade", async ({ page, context }) => {
  const owner = await createOwner({ trial: false });
  await signInAs(context, owner);
  await page.goto("/dashboard/links");
  await page.getByRole("button", { name: "Add Component" }).click();
  const add = page.getByRole("dialog", { name: "Add New Link" });
  const upgrade = page.getByRole("dialog", { name: "Upgrade to Plinth Plus" });
  const type = (name: string) => add.getByRole("radio", { name, exact: true });
  await type("Donation").check();
  // Tip, Paid Download and Music are Plus: the arrow passes them and the choice stays; Social, a Lite type, is chosen as the arrow reaches it.
  for (const name of ["Tip", "Paid Download", "Music"]) {
    await page.keyboard.press("ArrowRight");
    await expect(type(name)).toBeFocused();
    await expect(upgrade).toBeHidden();
    await expect(type("Donation")).toBeChecked();
  }
  await page.keyboard.press("ArrowRight");
  await expect(type("Social")).toBeChecked();
  // Lead Magnet, Contact Card and Promote & Earn are Plus: the arrow passes them and the choice stays.
  for (const name of ["Lead Magnet", "Contact Card", "Promote & Earn"]) {
    await page.keyboard.press("ArrowRight");
    await expect(type(name)).toBeFocused();
    await expect(upgrade).toBeHidden();
    await expect(type("Social")).toBeChecked();
  }
  await page.keyboard.press("ArrowLeft");
  await expect(type("Contact Card")).toBeFocused();
  await page.keyboard.press("Space");
  await expect(upgrade).toBeVisible();
  // As a person does, Escape once the prompt has the focus (a busy machine can show it a moment before).
  await expect.poll(() => upgrade.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(upgrade).toBeHidden();
  await expect(type("Social")).toBeChecked();
  await type("Lead Magnet").click();
  await expect(upgrade).toBeVisible();
});

test("one dialog at a time: Upgrade Required lies above a dimmed Add dialog, keeps the focus, and Escape closes only it", async ({ page, context }) => {
  const owner = await createOwner({ trial: false });
  await signInAs(context, owner);
  await page.setViewportSize({ width: 1280, height: 844 });
  await page.goto("/dashboard/links");
  await page.getByRole("button", { name: "Add Component" }).click();
  const add = page.getByRole("dialog", { name: "Add New Link" });
  await add.getByLabel("Title").fill("Earn with me");
  const addButton = (await add.getByRole("button", { name: "Add Link" }).boundingBox())!;
  const promote = add.getByLabel("Promote & Earn", { exact: true });
  // What the Add dialog looks like where it sticks out from under the next dialog: its Add Link button.
  const spot = { x: addButton.x + addButton.width / 2 - 4, y: addButton.y + addButton.height / 2 - 4, width: 8, height: 8 };
  await page.mouse.move(0, 0);
  const bright = await page.screenshot({ clip: spot, animations: "disabled" });
  await promote.click();
  const upgrade = page.getByRole("dialog", { name: "Upgrade Required" });
  await dialogReady(upgrade);

  // The top dialog's overlay dims the Add dialog: the same spot now looks different.
  await page.mouse.move(0, 0);
  const dimmed = await page.screenshot({ clip: spot, animations: "disabled" });
  expect(dimmed.equals(bright), "the Add dialog is dimmed under Upgrade Required").toBe(false);
  // A click on the dimmed Add dialog does not reach it: it closes only the top dialog.
  await page.mouse.click(addButton.x + addButton.width / 2, addButton.y + addButton.height / 2);
  await expect(upgrade).toBeHidden();
  await expect(add).toBeVisible();
  await expect(page.getByTestId("link-row")).toHaveCount(0);
  await promote.click();
  await expect(upgrade).toBeVisible();

  // The focus stays in the top dialog.
  await upgrade.getByRole("button", { name: "Not Now" }).focus();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    expect(await upgrade.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await expectNoAxeViolations(page);

  // Escape closes only the top dialog; the Add dialog keeps what was typed and gets the focus back.
  await page.keyboard.press("Escape");
  await expect(upgrade).toBeHidden();
  await expect(add).toBeVisible();
  await expect(add.getByLabel("Title")).toHaveValue("Earn with me");
  await expect.poll(() => add.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  // The Add dialog holds typing: Escape asks first (ADR 140), and Discard closes it.
  await page.keyboard.press("Escape");
  const unsaved = page.getByRole("alertdialog", { name: "You have unsaved changes" });
  await expect(unsaved.getByRole("button", { name: "Keep Editing" })).toBeFocused();
  await unsaved.getByRole("button", { name: "Discard" }).click();
  await expect(add).toBeHidden();
  await expect(page.getByRole("button", { name: "Add Component" })).toBeFocused();
});

test("a closed dialog hands the focus back only if the owner has not moved it on: a menu opened meanwhile stays open", async ({ page, owner }) => {
  e2eDb().insert(links).values({ id: newId(), userId: owner.userId, title: "Shop", url: "https://example.com/shop", orderIndex: 0 }).run();
  // Radix hands the focus back from a zero-delay timer. The page holds such timers while asked to,
  // so the owner's next click lands before the hand-back, whatever the machine's speed.
  await page.addInitScript(() => {
    const held = new Map<number, () => void>();
    let nextId = 1e9;
    const setTimer = window.setTimeout;
    const clearTimer = window.clearTimeout;
    const w = window as unknown as { holdTimers: boolean; releaseTimers(): void };
    w.holdTimers = false;
    w.releaseTimers = () => {
      w.holdTimers = false;
      const due = [...held.values()];
      held.clear();
      for (const run of due) run();
    };
    window.setTimeout = ((run: TimerHandler, delay?: number, ...args: unknown[]) => {
      if (!w.holdTimers || delay || typeof run !== "function") return setTimer(run, delay, ...args);
      held.set(++nextId, () => run(...args));
      return nextId;
    }) as typeof window.setTimeout;
    window.clearTimeout = ((id?: number) => (id !== undefined && held.delete(id) ? undefined : clearTimer(id))) as typeof window.clearTimeout;
  });
  await page.goto("/dashboard/links");
  const add = page.getByRole("button", { name: "Add Component" });
  await add.click();
  const dialog = page.getByRole("dialog", { name: "Add New Link" });
  await expect(dialog).toBeVisible();
  await page.evaluate(() => ((window as unknown as { holdTimers: boolean }).holdTimers = true));
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Actions for Shop" }).click();
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  await page.evaluate(() => (window as unknown as { releaseTimers(): void }).releaseTimers());
  await expect(menu).toBeVisible();
  await expect(add).not.toBeFocused();
  await menu.getByRole("menuitem", { name: "Edit" }).click();
  await expect(page.getByRole("dialog", { name: "Edit Link" })).toBeVisible();

  // With nothing moved meanwhile, the focus goes back to the opener as before.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Actions for Shop" })).toBeFocused();
});

test("every radio group is a set of radio cards: the whole card chooses, arrow keys move, focus and choice show on the card", async ({ page, context }) => {
  const owner = await createOwner({ trial: false });
  await signInAs(context, owner);
  await page.setViewportSize({ width: 390, height: 844 });

  /** The card (label) of a radio, its far corner clicked, away from the radio dot itself. */
  async function clickCardCorner(radio: Locator) {
    const card = radio.locator("xpath=ancestor::label[1]");
    await card.scrollIntoViewIfNeeded();
    const box = (await card.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    await page.mouse.click(box.x + box.width - 6, box.y + box.height - 6);
  }
  const cardOf = (radio: Locator) => radio.locator("xpath=ancestor::label[1]");
  const outline = (radio: Locator) => cardOf(radio).evaluate((l) => getComputedStyle(l).outlineStyle);

  await page.goto("/dashboard/appearance");
  for (const [group, first, next] of [
    ["Button style", "Box", "Rounded"],
    ["Social links position", "Top", "Bottom"],
    ["Font pairing", "Theme default", "Modern Sans"],
  ] as const) {
    const fieldset = page.getByRole("group", { name: new RegExp(`^${group}`) });
    const a = fieldset.getByRole("radio", { name: new RegExp(`^${first}`) });
    const b = fieldset.getByRole("radio", { name: new RegExp(`^${next}`) });
    await clickCardCorner(a);
    await expect(a).toBeChecked();
    await expect(page.getByTestId("appearance-status")).toHaveText(/saved|Saving|Plus/i);
    // The keyboard: the focused card shows a ring; the arrow key chooses the next card.
    await a.focus();
    await page.keyboard.press("ArrowRight");
    await expect(b).toBeChecked();
    await expect(b).toBeFocused();
    expect(await outline(b), `${group}: focus shows on the card`).not.toBe("none");
    expect(await cardOf(b).evaluate((l) => getComputedStyle(l).borderColor)).not.toBe(await cardOf(a).evaluate((l) => getComputedStyle(l).borderColor));
  }

  await page.goto("/dashboard/links");
  await page.getByRole("button", { name: "Add Your First Link" }).click();
  const add = page.getByRole("dialog", { name: "Add New Link" });
  const types = add.getByRole("group", { name: "Link type" });
  await clickCardCorner(types.getByRole("radio", { name: "Label", exact: true }));
  await expect(types.getByRole("radio", { name: "Label", exact: true })).toBeChecked();
  await page.keyboard.press("ArrowRight");
  await expect(types.getByRole("radio", { name: "Text Link" })).toBeChecked();
  expect(await outline(types.getByRole("radio", { name: "Text Link" }))).not.toBe("none");
  // A Plus-only type carries its PLUS badge beside the card.
  await expect(types.getByRole("button", { name: /^PLUS/ }).first()).toBeVisible();
  await expectNoAxeViolations(page);
});

test("empty lists show an icon, what goes there, and one action that leads on", async ({ page, context }) => {
  const owner = await createOwner({ plan: "plus" });
  await signInAs(context, owner);
  await page.setViewportSize({ width: 390, height: 844 });
  const empty = page.getByTestId("empty-state");

  await page.goto("/dashboard/links");
  await expect(empty.getByRole("heading", { name: "No links yet" })).toBeVisible();
  await expect(empty.locator("svg").first()).toBeVisible();
  await empty.getByRole("button", { name: "Add Your First Link" }).click();
  await expect(page.getByRole("dialog", { name: "Add New Link" })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.getByRole("tab", { name: "Scheduled" }).click();
  await expect(empty.getByRole("heading", { name: "No scheduled components" })).toBeVisible();
  await empty.getByRole("button", { name: "Add Component" }).click();
  await expect(page.getByRole("dialog", { name: "Add New Link" })).toBeVisible();
  await page.keyboard.press("Escape");

  await page.goto("/dashboard/social-links");
  await expect(empty.getByRole("heading", { name: "No social links yet" })).toBeVisible();
  await expect(empty.locator("svg").first()).toBeVisible();
  await empty.getByRole("button", { name: "Choose a platform" }).click();
  // The first platform of the grid above takes the focus.
  await expect(page.getByRole("button", { name: "TikTok" })).toBeFocused();
  await expectNoAxeViolations(page);

  await page.goto("/dashboard/analytics");
  await expect(empty.getByRole("heading", { name: "Share your page to start seeing analytics!" })).toBeVisible();
  await expect(empty.locator("svg").first()).toBeVisible();
  await expect(empty.getByRole("button")).toHaveCount(1);

  await page.goto("/dashboard/affiliate");
  await page.getByRole("tab", { name: "Detailed Earnings" }).click();
  await expect(empty.getByRole("heading", { name: "No referrals yet" })).toBeVisible();
  await empty.getByRole("button", { name: "Share your referral link" }).click();
  await expect(page.getByRole("dialog", { name: "Share Your Referral Link" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expectNoAxeViolations(page);

  await page.goto("/dashboard/account-settings?tab=billing");
  await expect(empty.getByRole("heading", { name: "Nothing billed yet" })).toBeVisible();
  await expect(empty).toContainText("No invoices yet. Your invoices appear here after your first payment.");
});

test("the public page's floating social icons rise above the cookie banner while it is open, and go back down after a choice", async ({ page }) => {
  const owner = await createOwner({ plan: "plus" });
  const db = e2eDb();
  db.update(userProfiles).set({ socialLinksPosition: "floating" }).where(eq(userProfiles.userId, owner.userId)).run();
  (["github", "instagram", "youtube"] as const).forEach((platform, i) =>
    db.insert(socialLinks).values({ id: newId(), userId: owner.userId, platform, url: `https://${platform}.com/someone`, displayOrder: i + 1 }).run(),
  );
  expect(publishPage(db, owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, apiOrigin: E2E.origin, now: new Date() }).ok).toBe(true);

  for (const [width, height] of [[390, 844], [320, 568]] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/${owner.username}`);
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    const banner = page.getByRole("region", { name: "Cookies on this page" });
    await expect(banner).toBeVisible();
    const icons = page.getByRole("list", { name: "Social links" });
    const clear = async () => {
      const b = (await banner.boundingBox())!;
      const i = (await icons.boundingBox())!;
      return i.y + i.height <= b.y;
    };
    await expect.poll(clear, { message: `icons above the banner at ${width}px` }).toBe(true);
    // Every icon can be clicked where it is: nothing of the banner lies over it.
    for (const name of [/GitHub/, /Instagram/, /YouTube/]) {
      const box = (await page.getByRole("link", { name }).boundingBox())!;
      const hit = await page.evaluate(([x, y]) => !!document.elementFromPoint(x!, y!)?.closest("a"), [box.x + box.width / 2, box.y + box.height / 2]);
      expect(hit).toBe(true);
    }
    await banner.getByRole("button", { name: "Accept All" }).click();
    await expect(banner).toBeHidden();
    await expect.poll(async () => Math.round(height - (await icons.boundingBox())!.y - (await icons.boundingBox())!.height)).toBe(12);
  }
});
