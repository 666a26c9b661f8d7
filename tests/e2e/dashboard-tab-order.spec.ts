/**
 * On the screens with a live preview (Bio & SEO, Theme, Profile Picture) the form comes before the
 * preview in the tab order: from the top of the page a keyboard passes the shell (skip link, top bar,
 * status bar, menu) and reaches the screen's first field, never the preview's links first (19 presses
 * and the preview's links before the fix).
 */
import { newId } from "#db/ids.ts";
import { links } from "#db/schema.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { e2eDb, expect, test } from "./fixtures.ts";
import { tabsUntil } from "./keyboard.ts";

const SCREENS = [
  { path: "/dashboard/bio", heading: "Bio & SEO" },
  { path: "/dashboard/appearance", heading: "Theme" },
  { path: "/dashboard/profile-picture", heading: "Profile Picture" },
];

for (const s of SCREENS) {
  test(`${s.heading}: the form comes before the live preview in the tab order`, async ({ page, owner }) => {
    // A page with links, so the preview has stops of its own.
    e2eDb()
      .insert(links)
      .values([1, 2, 3, 4, 5].map((n) => ({ id: newId(), userId: owner.userId, title: `Link ${n}`, url: `https://shop.example/${n}`, orderIndex: n })))
      .run();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(s.path);
    const form = page.getByRole("region", { name: s.heading });
    await expect(form.getByRole("heading", { level: 1, name: s.heading })).toBeVisible();
    await expect(page.getByTestId("live-preview").contentFrame().getByRole("link", { name: "Link 5" })).toBeVisible();
    const passed = await tabsUntil(page, form, 20);
    expect(passed.filter((p) => p.startsWith("iframe")), passed.join(", ")).toEqual([]);
    // Only the dashboard's own stops come first: skip link, logo, account menu, the status bar's
    // Preview, Publish, Discard Changes and History, and the 9 menu entries: 16 presses at most.
    expect(passed.length, passed.join(", ")).toBeLessThanOrEqual(16);
    await expectNoAxeViolations(page, s.path);
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
