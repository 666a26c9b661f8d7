/**
 * Small looks of the dashboard, measured in the browser.
 */
import { test, expect } from "./fixtures.ts";

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
