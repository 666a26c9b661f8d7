/**
 * Two tabs of one owner editing the same thing (ADR 068, ADR 069): the later save is refused with
 * "This was changed in another tab. Reload to see the latest version.", and its Reload brings in the
 * first tab's change while the owner's other typing stays. The Reload is a button that takes the
 * focus, so a keyboard user meets it at once; afterwards the focus goes to what came in.
 */
import type { Page } from "@playwright/test";
import { STALE_WRITE } from "#core/schemas/revision.ts";
import { expect, test } from "./fixtures.ts";

async function addLink(page: Page, title: string): Promise<void> {
  const status = await page.evaluate(
    async (title) => (await fetch("/api/links", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ linkType: "standard_url", title, url: "https://example.com/one" }) })).status,
    title,
  );
  expect(status).toBe(201);
}

async function openEdit(page: Page, title: string) {
  await page.getByTestId("link-row").filter({ hasText: title }).getByRole("button", { name: `Actions for ${title}` }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Link" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * A tab that has not noticed the other tab's change yet: its poll of the draft stamp (ADR 060) is
 * held, as in the seconds between two polls, so the test does not race the 5-second timer.
 */
async function notNoticing(page: Page) {
  await page.route("**/api/events/stamp", (route) => route.abort());
}

test("two tabs editing one link title: the second save is refused, and Reload brings in the first tab's title and keeps the rest", async ({ page, context, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  await addLink(page, "Original title");
  await page.reload();
  const second = await context.newPage();
  await second.goto("/dashboard/links");

  // Both tabs open the same link.
  const one = await openEdit(page, "Original title");
  const two = await openEdit(second, "Original title");

  // The second tab starts typing: a new URL and its own title.
  await two.getByRole("textbox", { name: "URL", exact: true }).fill("https://example.com/two");
  await two.getByLabel("Title").fill("Title from tab two");

  // The first tab saves its title.
  await one.getByLabel("Title").fill("Title from tab one");
  await one.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Link updated successfully")).toBeVisible();
  await expect(page.getByTestId("link-row").filter({ hasText: "Title from tab one" })).toBeVisible();

  // The second tab saves: refused, nothing overwritten, the dialog still holds its typing.
  await two.getByRole("button", { name: "Save Changes" }).click();
  const alert = two.getByRole("alert").filter({ hasText: STALE_WRITE });
  await expect(alert).toBeVisible();
  const reload = alert.getByRole("button", { name: "Reload" });
  await expect(reload).toBeFocused();
  await expect(two.getByLabel("Title")).toHaveValue("Title from tab two");
  expect(await page.evaluate(async () => (await (await fetch("/api/links")).json()).links.map((l: { title: string; url: string }) => [l.title, l.url]))).toEqual([
    ["Title from tab one", "https://example.com/one"],
  ]);

  // Reload, from the keyboard: the first tab's title comes in (and takes the focus), the URL typed here stays.
  await second.keyboard.press("Enter");
  await expect(alert).toHaveCount(0);
  await expect(two.getByLabel("Title")).toHaveValue("Title from tab one");
  await expect(two.getByLabel("Title")).toBeFocused();
  await expect(two.getByRole("textbox", { name: "URL", exact: true })).toHaveValue("https://example.com/two");

  // Saving now builds on the latest version.
  await two.getByRole("button", { name: "Save Changes" }).click();
  await expect(second.getByText("Link updated successfully")).toBeVisible();
  await expect(second.getByTestId("link-row").filter({ hasText: "Title from tab one" })).toContainText("https://example.com/two");
});

test("a row action on a link changed in another tab: the screen offers the Reload, and the focus comes back", async ({ page, context, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  await addLink(page, "Shop");
  await page.reload();
  await notNoticing(page);
  await expect(page.getByTestId("link-row")).toHaveCount(1);

  // Another tab renames the link.
  const other = await context.newPage();
  await other.goto("/dashboard/links");
  const dialog = await openEdit(other, "Shop");
  await dialog.getByLabel("Title").fill("Shop (new)");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(other.getByText("Link updated successfully")).toBeVisible();

  // This tab still shows "Shop" and hides it: refused, still visible.
  const toggle = page.getByRole("switch", { name: "Visible: Shop" });
  await toggle.focus();
  await page.keyboard.press("Space");
  const alert = page.getByRole("alert").filter({ hasText: STALE_WRITE });
  await expect(alert.getByRole("button", { name: "Reload" })).toBeFocused();
  await expect(page.getByText("Link hidden")).toHaveCount(0);

  await page.keyboard.press("Enter");
  await expect(alert).toHaveCount(0);
  await expect(page.getByTestId("link-row")).toContainText("Shop (new)");
  await expect(page.getByRole("switch", { name: "Visible: Shop (new)" })).toBeChecked();
  await expect(page.getByRole("switch", { name: "Visible: Shop (new)" })).toBeFocused();
  // Now based on the latest version, the same action goes through.
  await page.getByRole("switch", { name: "Visible: Shop (new)" }).click();
  await expect(page.getByText("Link hidden")).toBeVisible();
});

test("Bio & SEO in two tabs: the later save is refused; Reload brings in the other tab's bio and keeps the display name typed here", async ({ page, context, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/bio");
  const second = await context.newPage();
  await second.goto("/dashboard/bio");
  await expect(second.getByLabel("Display name")).toHaveValue(owner.username);

  // The second tab types first...
  await second.getByLabel("Display name").fill("Ada from tab two");
  await second.getByLabel("Bio", { exact: true }).fill("Bio from tab two");
  // ...the first tab saves its bio.
  await page.getByLabel("Bio", { exact: true }).fill("Bio from tab one");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Saved to your draft")).toBeVisible();

  await second.getByRole("button", { name: "Save Changes" }).click();
  const alert = second.getByRole("alert").filter({ hasText: STALE_WRITE });
  await expect(alert.getByRole("button", { name: "Reload" })).toBeFocused();
  await expect(second.getByLabel("Display name")).toHaveValue("Ada from tab two");

  await alert.getByRole("button", { name: "Reload" }).click();
  await expect(alert).toHaveCount(0);
  await expect(second.getByLabel("Bio", { exact: true })).toHaveValue("Bio from tab one");
  await expect(second.getByLabel("Bio", { exact: true })).toBeFocused();
  await expect(second.getByLabel("Display name")).toHaveValue("Ada from tab two");

  await second.getByRole("button", { name: "Save Changes" }).click();
  await expect(second.getByText("Saved to your draft")).toBeVisible();
  const saved = await second.evaluate(async () => (await (await fetch("/api/profile")).json()).snapshot.profile);
  expect([saved.displayName, saved.bio]).toEqual(["Ada from tab two", "Bio from tab one"]);
});

test("one tab's own quick choices never conflict with each other: two themes picked before the first is saved", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/appearance");
  await expect(page.getByRole("heading", { name: "Theme", level: 1 })).toBeVisible();
  // Hold the first save on its way until the second choice is made.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  await page.route("**/api/profile/appearance", async (route) => {
    if (first) {
      first = false;
      await held;
    }
    await route.continue();
  });
  const answer = (theme: string) => page.waitForResponse((r) => r.url().endsWith("/api/profile/appearance") && r.request().postDataJSON()?.selectedThemeName === theme);
  const answers = Promise.all([answer("minimalist-dark"), answer("pastel-soft")]);
  await page.getByTestId("theme-minimalist-dark").click();
  await page.getByTestId("theme-pastel-soft").click();
  release();
  expect((await answers).map((r) => r.status())).toEqual([200, 200]);
  await expect(page.getByRole("alert").filter({ hasText: STALE_WRITE })).toHaveCount(0);
  const theme = await page.evaluate(async () => (await (await fetch("/api/profile")).json()).snapshot.profile.selectedThemeName);
  expect(theme).toBe("pastel-soft");
});

test("a delete confirmed in a tab that still shows an older version is refused with the Reload offer", async ({ page, context, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/social-links");
  await notNoticing(page);
  await page.getByRole("button", { name: "GitHub", exact: true }).click();
  await page.getByRole("dialog").getByRole("textbox").fill("ada");
  await page.getByRole("dialog").getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByTestId("social-row")).toContainText("https://github.com/ada");

  // Another tab changes the handle.
  const other = await context.newPage();
  await other.goto("/dashboard/social-links");
  await other.getByRole("button", { name: "Actions for GitHub" }).click();
  await other.getByRole("menuitem", { name: "Edit" }).click();
  await other.getByRole("dialog").getByLabel("Username/Handle").fill("lovelace");
  await other.getByRole("dialog").getByRole("button", { name: "Save Changes" }).click();
  await expect(other.getByText("Social link updated successfully!")).toBeVisible();

  // This tab deletes what it shows: refused, the link stays.
  await page.getByRole("button", { name: "Actions for GitHub" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  const alert = page.getByRole("alert").filter({ hasText: STALE_WRITE });
  await expect(alert.getByRole("button", { name: "Reload" })).toBeFocused();
  await alert.getByRole("button", { name: "Reload" }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByTestId("social-row")).toContainText("https://github.com/lovelace");
  await expect(page.getByRole("heading", { name: "Social Links", level: 1 })).toBeFocused();
});
