/** The dashboard's dialogs in the browser tests. */
import { expect, type Locator } from "@playwright/test";

/**
 * A dialog has opened and is listening. Radix listens for Escape from an effect after the dialog is
 * drawn; once the focus is inside, that listener is there. It adds its outside-click listener from a
 * zero-delay timer set in the same effects; a zero-delay timer set after them runs after it, so once
 * ours has run, a click outside reaches the dialog.
 */
export async function dialogReady(dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await dialog.page().evaluate(() => new Promise((done) => setTimeout(done, 0)));
}
