/**
 * On the screens with a live preview (Bio & SEO, Theme, Profile Picture) the form comes before the
 * preview in the tab order: from the top of the page a keyboard passes exactly the shell's stops (skip
 * link, top bar, status bar, menu), each once, and then reaches the screen's first field, never the
 * preview's links first (19 presses and the preview's links before the fix). The skip link, the first
 * stop, takes it past the shell to the screen: its first field is one press further.
 */
import type { Page } from "@playwright/test";
import { newId } from "#db/ids.ts";
import { links } from "#db/schema.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { e2eDb, expect, test } from "./fixtures.ts";
import { focusedStop } from "./keyboard.ts";

type Role = Parameters<Page["getByRole"]>[0];

const SCREENS = [
  { path: "/dashboard/bio", heading: "Bio & SEO", first: "Display name" },
  { path: "/dashboard/appearance", heading: "Theme", first: "Minimalist Light" },
  { path: "/dashboard/profile-picture", heading: "Profile Picture", first: "Choose File" },
];

/** The dashboard's own stops before a screen, in order, by role and accessible name (the menu's entries as editor/app/shell/Shell.tsx lists them). */
const shellStops = (username: string): [Role, string][] => [
  ["link", "Skip to content"],
  ["link", "Plinth"],
  ["button", `${username}, user menu`],
  ["link", "Preview"],
  ["button", "Publish"],
  ["button", "Discard Changes"],
  ["button", "History"],
  ...(["Analytics", "Links", "Social Links", "Profile Picture", "Bio & SEO", "Theme", "Earnings", "Affiliate Program", "Account & Billing"] as const).map((name): [Role, string] => ["link", name]),
];

for (const s of SCREENS) {
  test(`${s.heading}: the form comes before the live preview in the tab order, and the skip link leads to it`, async ({ page, owner }) => {
    // A page with links, so the preview has stops of its own.
    e2eDb()
      .insert(links)
      .values([1, 2, 3, 4, 5].map((n) => ({ id: newId(), userId: owner.userId, title: `Link ${n}`, url: `https://shop.example/${n}`, orderIndex: n })))
      .run();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(s.path);
    const form = page.getByRole("region", { name: s.heading });
    const first = form.getByLabel(s.first, { exact: true });
    await expect(form.getByRole("heading", { level: 1, name: s.heading })).toBeVisible();
    await expect(page.getByTestId("live-preview").contentFrame().getByRole("link", { name: "Link 5" })).toBeVisible();

    // Each Tab press lands on the next of the shell's stops, and the one after them is the first field:
    // a stop more or less anywhere (the preview's links among them) fails.
    for (const [i, [role, name]] of shellStops(owner.username).entries()) {
      await page.keyboard.press("Tab");
      await expect(page.getByRole(role, { name, exact: true }), `press ${i + 1}: ${role} "${name}", the focus is on ${await focusedStop(page)}`).toBeFocused();
    }
    await page.keyboard.press("Tab");
    await expect(first, `after the shell, the focus is on ${await focusedStop(page)}`).toBeFocused();
    await expectNoAxeViolations(page, s.path);

    // From the top again: the skip link is the first stop, and it leads to the screen's form.
    await page.goto(s.path);
    await expect(page.getByTestId("live-preview").contentFrame().getByRole("link", { name: "Link 5" })).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("main"), `the skip link left the focus on ${await focusedStop(page)}`).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(first, `one press after the skip link, the focus is on ${await focusedStop(page)}`).toBeFocused();
  });
}

test("on a phone the preview opens right under its toggle, before the form", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/bio");
  const toggle = page.getByRole("button", { name: "Preview", exact: true });
  await toggle.click();
  await expect(page.getByTestId("live-preview")).toBeVisible();
  const preview = await page.getByRole("complementary", { name: "Live preview" }).boundingBox();
  const form = await page.getByRole("region", { name: "Bio & SEO" }).boundingBox();
  const button = await toggle.boundingBox();
  expect(preview!.y).toBeGreaterThan(button!.y);
  expect(form!.y).toBeGreaterThan(preview!.y + preview!.height - 1);
});
