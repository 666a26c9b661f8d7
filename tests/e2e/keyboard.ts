/** Keyboard walks for the browser tests. */
import { expect, type Locator, type Page } from "@playwright/test";

/** Where the focus is, for a failure's message: tag and name (a frame is "iframe"). */
export const focusedStop = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return "nothing";
    const name = el.getAttribute("aria-label") || el.getAttribute("title") || el.textContent || "";
    return `${el.tagName.toLowerCase()} ${name.trim().slice(0, 40)}`.trim();
  });

/**
 * Presses Tab, as a keyboard user does from where the focus is, until the focus is on or in `target`,
 * and answers the stops it passed on the way (tag and name; a frame is "iframe"), so the presses it
 * took are their number plus one. Fails after `max` presses, naming where the focus went.
 */
export async function tabsUntil(page: Page, target: Locator, max: number): Promise<string[]> {
  const passed: string[] = [];
  for (let n = 1; n <= max; n++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) return passed;
    passed.push(await focusedStop(page));
  }
  expect(passed, `the focus did not reach ${target} within ${max} Tab presses`).toEqual([]);
  return passed;
}
