/**
 * Social Links as an owner uses them: add (pasted URL reduced to the handle, WhatsApp digits), edit,
 * hide, delete, reorder by keyboard, the QR entry last; a Lite owner's visible limit.
 */
import { createOwner, expect, liftWithKeyboard, signInAs, test } from "./fixtures.ts";
import type { Page } from "@playwright/test";
import { BRAND_ICONS } from "#renderer/components/brand-icons.ts";

async function addPlatform(page: Page, name: string, handle: string) {
  await page.getByRole("button", { name, exact: true }).click();
  const d = page.getByRole("dialog", { name: `Add ${name} Link` });
  await expect(d).toBeVisible();
  await d.getByRole("textbox").fill(handle);
  await d.getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByText(`${name} link added successfully!`)).toBeVisible();
}

test("adds, edits, hides, reorders and deletes social links", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/social-links");
  await expect(page.getByRole("heading", { name: "Social Links", level: 1 })).toBeVisible();
  await expect(page.getByText("No social links yet")).toBeVisible();

  // Each platform shows its brand mark, in the add grid and in the list.
  const mark = (within: ReturnType<Page["locator"]>) => within.locator(`svg path[fill="currentColor"]`);
  await expect(mark(page.getByRole("button", { name: "Instagram", exact: true }))).toHaveAttribute("d", BRAND_ICONS.instagram);
  await expect(mark(page.getByRole("button", { name: "GitHub", exact: true }))).toHaveAttribute("d", BRAND_ICONS.github);
  await addPlatform(page, "Instagram", "https://www.instagram.com/ada_l/");
  const rows = page.getByTestId("social-row");
  await expect(mark(rows.filter({ hasText: "Instagram" }))).toHaveAttribute("d", BRAND_ICONS.instagram);
  await expect(rows.filter({ hasText: "Instagram" })).toContainText("https://www.instagram.com/ada_l");
  // each platform once
  await expect(page.getByRole("button", { name: "Instagram", exact: true })).toHaveCount(0);

  // WhatsApp: digits only, else docs/product.md's message
  await page.getByRole("button", { name: "WhatsApp", exact: true }).click();
  const wa = page.getByRole("dialog", { name: "Add WhatsApp Link" });
  await expect(wa).toContainText("https://wa.me/");
  await wa.getByRole("textbox").fill("call me");
  await wa.getByRole("button", { name: "Add Link" }).click();
  await expect(wa.getByText("Please enter a valid phone number for WhatsApp")).toBeVisible();
  await wa.getByRole("textbox").fill("+44 20 7946 0000");
  await wa.getByRole("button", { name: "Add Link" }).click();
  await expect(rows.filter({ hasText: "WhatsApp" })).toContainText("https://wa.me/442079460000");

  await addPlatform(page, "GitHub", "ada");

  // edit
  await rows.filter({ hasText: "GitHub" }).getByRole("button", { name: "Actions for GitHub" }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit GitHub Link" });
  await expect(edit.getByLabel("Username/Handle")).toHaveValue("ada");
  await edit.getByLabel("Username/Handle").fill("lovelace");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Social link updated successfully!")).toBeVisible();
  await expect(rows.filter({ hasText: "GitHub" })).toContainText("https://github.com/lovelace");

  // hide
  await rows.filter({ hasText: "WhatsApp" }).getByRole("switch", { name: "Visible: WhatsApp" }).click();
  await expect(rows.filter({ hasText: "WhatsApp" }).getByRole("switch")).toHaveAttribute("aria-checked", "false");

  // reorder by keyboard: Instagram down one
  await liftWithKeyboard(page, page.getByRole("button", { name: "Reorder Instagram" }));
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("status").filter({ hasText: "Instagram is over WhatsApp." })).toBeAttached();
  await page.keyboard.press("Space");
  await expect(page.getByText("Social links reordered successfully!")).toBeVisible();
  await page.reload();
  await expect(rows.nth(0)).toContainText("WhatsApp");
  await expect(rows.nth(1)).toContainText("Instagram");

  // QR entry always last, its visibility saved
  await expect(page.getByTestId("qr-row")).toBeVisible();
  await page.getByRole("switch", { name: "Visible: QR Code" }).click();
  await expect(page.getByRole("switch", { name: "Visible: QR Code" })).toHaveAttribute("aria-checked", "false");
  await page.reload();
  await expect(page.getByRole("switch", { name: "Visible: QR Code" })).toHaveAttribute("aria-checked", "false");

  // delete
  await rows.filter({ hasText: "GitHub" }).getByRole("button", { name: "Actions for GitHub" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(page.getByRole("alertdialog", { name: "Delete Social Link" })).toBeVisible();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Social link removed successfully!")).toBeVisible();
  await expect(rows).toHaveCount(2);
});

test("a Lite owner sees the upgrade prompt when turning on a fifth social link", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await signInAs(context, lite);
  await page.goto("/dashboard/social-links");
  for (const name of ["TikTok", "Instagram", "Snapchat", "YouTube", "X"]) await addPlatform(page, name, "ada");
  const fifth = page.getByTestId("social-row").filter({ hasText: "X" }).last();
  await expect(page.getByRole("switch", { name: "Visible: X" })).toHaveAttribute("aria-checked", "false");
  await page.getByRole("switch", { name: "Visible: X" }).click();
  const prompt = page.getByRole("dialog", { name: "Upgrade to Plinth Plus" });
  await expect(prompt).toContainText("Unlimited social links is a Plinth Plus feature");
  await prompt.getByRole("button", { name: "Not Now" }).click();
  await expect(fifth.getByRole("switch")).toHaveAttribute("aria-checked", "false");
});

/**
 * Social Links with Instagram and GitHub, whose drag and drop script is held back once asked for
 * until `release()`. `freshScreen()` reloads it with nothing asked for yet.
 */
async function twoRowsWithDndHeld(page: Page) {
  await page.goto("/dashboard/social-links");
  await addPlatform(page, "Instagram", "ada_l");
  await addPlatform(page, "GitHub", "ada");
  const rows = page.getByTestId("social-row");
  const asked: string[] = [];
  let held = () => {};
  await page.route(/\/_astro\/dnd\.[^/]+\.js$/, async (route) => {
    asked.push(route.request().url());
    await new Promise<void>((resolve) => (held = resolve));
    await route.continue();
  });
  return {
    rows,
    asked,
    release: () => held(),
    async freshScreen() {
      asked.length = 0;
      await page.reload();
      await expect(rows).toHaveCount(2);
      await page.waitForLoadState("networkidle");
      expect(asked).toEqual([]);
    },
  };
}

// ADR 132: drag and drop loads when a reorder handle is first reached, and a handle pressed while it
// is on its way still lifts its row: by keyboard (Space) and by mouse (button held, then moved).
test("a reorder handle works on its first press, before drag and drop has loaded", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  const { rows, asked, release, freshScreen } = await twoRowsWithDndHeld(page);

  await freshScreen();
  const instagram = page.getByRole("button", { name: "Reorder Instagram" });
  await instagram.focus();
  await expect.poll(() => asked.length).toBe(1);
  await page.keyboard.press("Space");
  release();
  await expect(instagram).toHaveAttribute("aria-pressed", "true");
  await expect(instagram).toBeFocused();
  // As liftWithKeyboard: the keyboard sensor listens for arrows from a zero-delay timer on.
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("status").filter({ hasText: "Instagram is over GitHub." })).toBeAttached();
  await page.keyboard.press("Space");
  await expect(page.getByText("Social links reordered successfully!")).toBeVisible();
  await expect(rows.nth(0)).toContainText("GitHub");

  await freshScreen();
  const github = page.getByRole("button", { name: "Reorder GitHub" });
  const from = (await github.boundingBox())!;
  const to = (await rows.nth(1).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await expect.poll(() => asked.length).toBe(1);
  await page.mouse.down();
  release();
  await expect(page.getByRole("button", { name: "Reorder GitHub" })).toHaveAttribute("aria-describedby", /.+/);
  await page.mouse.move(from.x + from.width / 2, to.y + to.height / 2 + 10, { steps: 12 });
  await page.mouse.up();
  await expect(page.getByText("Social links reordered successfully!").first()).toBeVisible();
  await expect(rows.nth(0)).toContainText("Instagram");
});

test.describe("on a touch screen", () => {
  test.use({ hasTouch: true });

  // A finger held on a handle while drag and drop is on its way lifts the row once it arrives, and
  // the same finger moves it and lets it go.
  test("a long press on a reorder handle lifts the row, before drag and drop has loaded", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    const { rows, asked, release, freshScreen } = await twoRowsWithDndHeld(page);
    await freshScreen();

    const github = page.getByRole("button", { name: "Reorder GitHub" });
    const from = (await github.boundingBox())!;
    const to = (await rows.nth(0).boundingBox())!;
    const x = from.x + from.width / 2;
    const touch = await page.context().newCDPSession(page);
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y: from.y + from.height / 2 }] });
    await expect.poll(() => asked.length).toBe(1);
    release();
    await expect(github).toHaveAttribute("aria-pressed", "true");
    for (let step = 1; step <= 8; step++) {
      const y = from.y + from.height / 2 + ((to.y + to.height / 2 - 10 - (from.y + from.height / 2)) * step) / 8;
      await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y }] });
    }
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await expect(page.getByText("Social links reordered successfully!")).toBeVisible();
    await expect(rows.nth(0)).toContainText("GitHub");
  });
});
