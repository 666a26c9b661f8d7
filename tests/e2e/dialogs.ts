/** The dashboard's dialogs in the browser tests. */
import { expect, type Locator } from "@playwright/test";

/**
 * A dialog has opened and is listening. Radix listens for Escape from an effect after the dialog is
 * drawn, once the focus is inside, and adds its outside-click listener from a zero-delay timer set in
 * the same effects: a zero-delay timer set after them runs after it. Each dialog then learns its place
 * among the open layers in a later render, which lets pointer events reach it (a dialog opened over
 * another answers Escape only from then on). So once its box takes pointer events and our timer has
 * run, Escape and a click outside reach this dialog.
 */
export async function dialogReady(dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await expect.poll(() => dialog.evaluate((d) => getComputedStyle(d).pointerEvents)).toBe("auto");
  await dialog.page().evaluate(() => new Promise((done) => setTimeout(done, 0)));
}
