/**
 * The dashboard as a new owner uses it: the shell, and Page Layout with every link type, its
 * validation messages, edit, hide, schedule, main button, lists, delete and reordering.
 */
import { eq } from "drizzle-orm";
import { upgradeRequests } from "#db/schema.ts";
import { createOwner, e2eDb, expect, liftWithKeyboard, signInAs, test } from "./fixtures.ts";
import type { Page } from "@playwright/test";

async function openAdd(page: Page) {
  await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
  await expect(page.getByRole("dialog", { name: "Add New Link" })).toBeVisible();
}
const dialog = (page: Page) => page.getByRole("dialog");

test("the shell: redirects, menu entries, user menu and the 404 screen", async ({ page, owner }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/analytics$/);
  await expect(page.getByRole("heading", { name: "Analytics", exact: true })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  for (const label of ["Analytics", "Links", "Social Links", "Profile Picture", "Bio & SEO", "Theme", "Earnings", "Affiliate Program", "Account & Billing"]) {
    await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
  }
  await expect(page.getByText(`@${owner.username}`).first()).toBeVisible();
  await expect(page.getByText("Trial Active")).toBeVisible();
  await page.getByRole("button", { name: "User menu" }).click();
  await expect(page.getByRole("menuitem", { name: "View Public Page" })).toBeVisible();
  await page.getByRole("menuitem", { name: "Account Settings" }).click();
  await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
  await page.goto("/dashboard/nope");
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Go Back" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Go Home" })).toBeVisible();
});

test("adds a link of every type with the validation messages, then edits, hides, schedules and deletes", async ({ page, owner }) => {
  // A walk through every link type: close to a minute on a busy two-core machine.
  test.setTimeout(120_000);
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
  await expect(page.getByText("No links yet")).toBeVisible();

  // standard_url: title and URL required, javascript: refused.
  await openAdd(page);
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(dialog(page).getByText("Title is required")).toBeVisible();
  await expect(dialog(page).getByText("URL is required")).toBeVisible();
  await dialog(page).getByLabel("Title").fill("My site");
  await dialog(page).getByRole("textbox", { name: "URL", exact: true }).fill("javascript:alert(1)");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(dialog(page).getByText("Please enter a valid URL")).toBeVisible();
  await dialog(page).getByRole("textbox", { name: "URL", exact: true }).fill("https://example.com/site");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByText("Link added successfully")).toBeVisible();
  await expect(page.getByTestId("link-row").filter({ hasText: "My site" })).toBeVisible();

  // label
  await openAdd(page);
  await dialog(page).getByLabel("Label", { exact: true }).check();
  await dialog(page).getByLabel("Title").fill("Section A");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByTestId("link-row").filter({ hasText: "Section A" })).toBeVisible();

  // text_link: Link Text required
  await openAdd(page);
  await dialog(page).getByLabel("Text Link", { exact: true }).check();
  await dialog(page).getByLabel("Title").fill("Read me");
  await dialog(page).getByRole("textbox", { name: "URL", exact: true }).fill("https://example.com/read");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(dialog(page).getByText("Link Text is required")).toBeVisible();
  await dialog(page).getByLabel("Link Text").fill("A longer read");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByTestId("link-row").filter({ hasText: "Read me" })).toBeVisible();

  // donation
  await openAdd(page);
  await dialog(page).getByLabel("Donation", { exact: true }).check();
  await dialog(page).getByLabel("Title").fill("Tip jar");
  await dialog(page).getByRole("textbox", { name: "URL", exact: true }).fill("https://ko-fi.com/me");
  await dialog(page).getByLabel("Custom message (optional)").fill("Thank you!");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByTestId("link-row").filter({ hasText: "Tip jar" })).toBeVisible();

  // lead_magnet: Description required
  await openAdd(page);
  await dialog(page).getByLabel("Lead Magnet", { exact: true }).check();
  await dialog(page).getByLabel("Title").fill("Free guide");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(dialog(page).getByText("Description is required")).toBeVisible();
  await dialog(page).getByLabel("Description").fill("A free PDF guide");
  await dialog(page).getByLabel("File URL (optional)").fill("https://example.com/guide.pdf");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByTestId("link-row").filter({ hasText: "Free guide" })).toBeVisible();

  // vcf: Full Name required, e-mail checked
  await openAdd(page);
  await dialog(page).getByLabel("Contact Card", { exact: true }).check();
  await dialog(page).getByLabel("Title").fill("My card");
  await dialog(page).getByLabel("Email (optional)").fill("not-an-email");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(dialog(page).getByText("Full Name is required")).toBeVisible();
  await expect(dialog(page).getByText("Please enter a valid email address")).toBeVisible();
  await dialog(page).getByLabel("Full Name").fill("Ada Lovelace");
  await dialog(page).getByLabel("Email (optional)").fill("ada@example.com");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByTestId("link-row").filter({ hasText: "My card" })).toBeVisible();

  // promote_plinth during a trial: Upgrade Required, nothing saved
  await openAdd(page);
  await dialog(page).getByLabel("Promote & Earn", { exact: true }).check();
  await dialog(page).getByLabel("Title").fill("Earn with me");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  const upgrade = page.getByRole("dialog", { name: "Upgrade Required" });
  await expect(upgrade).toBeVisible();
  await expect(upgrade.getByRole("button", { name: "Upgrade & Earn!" })).toBeVisible();
  await upgrade.getByRole("button", { name: "Not Now" }).click();
  await page.getByRole("dialog", { name: "Add New Link" }).getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("link-row")).toHaveCount(6);
  await expect(page.getByText("6 of 6 components visible")).toBeVisible();

  // edit
  const site = page.getByTestId("link-row").filter({ hasText: "My site" });
  await site.getByRole("button", { name: "Actions for My site" }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  await expect(page.getByRole("dialog", { name: "Edit Link" })).toBeVisible();
  await dialog(page).getByLabel("Title").fill("My website");
  // schedule: ends in the future -> 'Ends …'
  await dialog(page).getByText("More options").click();
  await dialog(page).getByLabel("Schedule end").fill("2099-12-31T10:00");
  await dialog(page).getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Link updated successfully")).toBeVisible();
  const website = page.getByTestId("link-row").filter({ hasText: "My website" });
  await expect(website.getByText("Ends Dec 31, 2099 at 10:00 AM")).toBeVisible();
  await page.getByRole("tab", { name: "Scheduled" }).click();
  await expect(page.getByRole("tabpanel").getByText("My website")).toBeVisible();
  await page.getByRole("tab", { name: "All Components" }).click();

  // hide
  await website.getByRole("switch", { name: "Visible: My website" }).click();
  await expect(page.getByText("Link hidden")).toBeVisible();
  await expect(page.getByText("5 of 6 components visible")).toBeVisible();

  // main button: moves first
  const tip = page.getByTestId("link-row").filter({ hasText: "Tip jar" });
  await tip.getByRole("button", { name: "Actions for Tip jar" }).click();
  await page.getByRole("menuitem", { name: /Make main button/ }).click();
  await expect(page.getByTestId("link-row").first()).toContainText("Main button");
  await expect(page.getByTestId("link-row").first()).toContainText("Tip jar");

  // delete
  const card = page.getByTestId("link-row").filter({ hasText: "My card" });
  await card.getByRole("button", { name: "Actions for My card" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(page.getByRole("alertdialog", { name: "Delete Link" })).toContainText("Are you sure you want to delete My card? This action cannot be undone.");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Link deleted successfully")).toBeVisible();
  await expect(page.getByTestId("link-row")).toHaveCount(5);

  // reload: everything came from the server
  await page.reload();
  await expect(page.getByTestId("link-row").first()).toContainText("Tip jar");
  await expect(page.getByTestId("link-row")).toHaveCount(5);
});

test("groups links into a list and reorders by keyboard and by mouse", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  for (const title of ["First", "Second", "Third"]) {
    await openAdd(page);
    await dialog(page).getByLabel("Label", { exact: true }).check();
    await dialog(page).getByLabel("Title").fill(title);
    await dialog(page).getByRole("button", { name: "Add Link" }).click();
    await expect(page.getByTestId("link-row").filter({ hasText: title })).toBeVisible();
  }
  const rows = page.getByTestId("link-row");

  // keyboard: space lifts, arrow down moves, space drops
  await liftWithKeyboard(page, page.getByRole("button", { name: "Reorder First" }));
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("status").filter({ hasText: "First moved to position 2 of 3." })).toBeAttached();
  await page.keyboard.press("Space");
  await expect(rows.nth(0)).toContainText("Second");
  await expect(rows.nth(1)).toContainText("First");
  // The keyboard order was saved; a fresh page also gives the mouse drag a settled layout to measure.
  await page.reload();
  await expect(rows.nth(0)).toContainText("Second");
  await expect(rows.nth(1)).toContainText("First");

  // mouse: drag Third above Second
  const handle = page.getByRole("button", { name: "Reorder Third" });
  const target = page.getByRole("button", { name: "Reorder Second" });
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 3 });
  // Past the 5 px threshold the drag has started; only then head for the target.
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  await page.mouse.move(to.x + to.width / 2, to.y + 2, { steps: 10 });
  await page.mouse.up();
  await expect(rows.nth(0)).toContainText("Third");

  await page.reload();
  await expect(rows.nth(0)).toContainText("Third");
  await expect(rows.nth(1)).toContainText("Second");
  await expect(rows.nth(2)).toContainText("First");

  // a list, and a link moved into it
  await page.getByRole("button", { name: "New List" }).click();
  await dialog(page).getByLabel("List title").fill("Favourites");
  await dialog(page).getByRole("button", { name: "Save" }).click();
  const group = page.getByRole("group", { name: "List Favourites" });
  await expect(group).toBeVisible();
  await rows.filter({ hasText: "Second" }).getByRole("button", { name: "Actions for Second" }).click();
  await page.getByRole("menuitem", { name: "Move to Favourites" }).click();
  await expect(group.getByTestId("link-row").filter({ hasText: "Second" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("group", { name: "List Favourites" }).getByTestId("link-row")).toHaveText([/Second/]);
});

test("a Lite owner meets the link limits and the upgrade prompt", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await context.clearCookies();
  await signInAs(context, lite);
  await page.goto("/dashboard/links");
  await expect(page.getByText("Lite", { exact: true })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: /Affiliate Program/ })).toContainText("PLUS");

  // Plus-only type: PLUS badge with the tooltip, upgrade prompt records the feature
  await openAdd(page);
  await dialog(page).getByLabel("Contact Card", { exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Upgrade to Plinth Plus" })).toBeVisible();
  await page.getByRole("dialog", { name: "Upgrade to Plinth Plus" }).getByRole("button", { name: "Upgrade to Plus" }).click();
  // On to checkout (the billing tests pay there); back to the dashboard without paying.
  await expect(page).toHaveURL(/\/billing\/checkout\?session=cs_test_/);
  await page.goto("/dashboard/links");
  await expect
    .poll(() =>
      e2eDb()
        .select({ feature: upgradeRequests.featureKey, reason: upgradeRequests.reason })
        .from(upgradeRequests)
        .where(eq(upgradeRequests.userId, lite.userId))
        .all()
        .map((r) => `${r.feature}:${r.reason}`)
        .sort(),
    )
    .toEqual(["vcf:prompt_shown", "vcf:upgrade_clicked"]);

  // 7 links, then the eighth opens the upgrade prompt
  const res = await page.evaluate(async () => {
    const out = [];
    for (let i = 1; i <= 7; i++) {
      const r = await fetch("/api/links", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ linkType: "label", title: `L${i}` }) });
      out.push(r.status);
    }
    const eighth = await fetch("/api/links", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ linkType: "label", title: "L8" }) });
    return { out, eighth: eighth.status };
  });
  expect(res.out).toEqual([201, 201, 201, 201, 201, 201, 201]);
  expect(res.eighth).toBe(402);
  await page.reload();
  await expect(page.getByTestId("link-row")).toHaveCount(7);
  await page.getByRole("button", { name: "Add Component" }).click();
  await expect(page.getByRole("dialog", { name: "Upgrade to Plinth Plus" })).toContainText("Unlimited links is a Plinth Plus feature");
});

test("at 320px the mobile menu holds the entries and Back to Home", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
  await expect(page.getByRole("complementary")).toBeHidden();
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu.getByRole("link", { name: "Back to Home" })).toBeVisible();
  await menu.getByRole("link", { name: "Social Links" }).click();
  await expect(page).toHaveURL(/\/dashboard\/social-links$/);
  await expect(page.getByRole("heading", { name: "Social Links", level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("changes made in another tab show up without a reload; schedule badges read as docs/product.md says", async ({ page, context, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  await expect(page.getByText("No links yet")).toBeVisible();
  const other = await context.newPage();
  await other.goto("/dashboard/analytics");
  const statuses = await other.evaluate(async () => {
    const post = (body: unknown) => fetch("/api/links", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.status);
    return [
      await post({ linkType: "label", title: "Future", scheduleStartTime: "2099-01-02T15:30:00.000Z" }),
      await post({ linkType: "label", title: "Past", scheduleEndTime: "2001-01-02T15:30:00.000Z" }),
      await post({ linkType: "label", title: "Open", scheduleStartTime: "2001-01-02T15:30:00.000Z" }),
    ];
  });
  expect(statuses).toEqual([201, 201, 201]);
  // The first tab polls the draft stamp and reloads its list by itself.
  await expect(page.getByTestId("link-row")).toHaveCount(3);
  await expect(page.getByTestId("link-row").filter({ hasText: "Future" })).toContainText(/Starts Jan 2, 2099 at \d{1,2}:30 (AM|PM)/);
  await expect(page.getByTestId("link-row").filter({ hasText: "Past" })).toContainText(/Expired Jan 2, 2001 at \d{1,2}:30 (AM|PM)/);
  await expect(page.getByTestId("link-row").filter({ hasText: "Open" })).toContainText("Active (no end date)");
  await page.getByRole("tab", { name: "Scheduled" }).click();
  await expect(page.getByRole("tabpanel").getByTestId("link-row")).toHaveCount(3);
});

test("the PLUS badge explains itself with docs/product.md's tooltip", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await signInAs(context, lite);
  await page.goto("/dashboard/links");
  const badge = page.getByRole("button", { name: /^PLUS/ }).first();
  await badge.hover();
  await expect(page.getByRole("tooltip")).toHaveText("This feature requires Plinth Plus. Click to upgrade!");
});

// ADR 132: the tooltip loads on the first focus of a badge, which keeps the focus and shows it.
test("the PLUS badge shows its tooltip when it first takes the keyboard focus", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await signInAs(context, lite);
  await page.goto("/dashboard/links");
  const badge = page.getByRole("button", { name: /^PLUS/ }).first();
  await badge.focus();
  await expect(page.getByRole("tooltip")).toHaveText("This feature requires Plinth Plus. Click to upgrade!");
  await expect(page.getByRole("button", { name: /^PLUS/ }).first()).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Upgrade to Plinth Plus" })).toBeVisible();
});
