/**
 * Small looks of the dashboard, measured in the browser.
 */
import { test, expect, createOwner, signInAs } from "./fixtures.ts";
import { expectNoAxeViolations } from "./axe.ts";

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

/** Boxes of the visible controls in a region, to compare their rows. */
async function tops(region: import("@playwright/test").Locator): Promise<number[]> {
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
