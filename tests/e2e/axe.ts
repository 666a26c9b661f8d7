/**
 * Accessibility check for the browser tests: axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules over the
 * page as it stands (open dialogs included). No rule is switched off; a violation fails the test with
 * the rule, its help text and the offending elements.
 */
import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import axe from "axe-core";

export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
/** Every rule carrying one of the tags, by id, so the ones axe leaves off by default (target-size) run too. */
const RULES = axe.getRules(AXE_TAGS).map((r) => r.ruleId);

/**
 * The dashboard's live preview is a sandboxed frame without scripts, so axe cannot run inside it; it
 * shows the public page's own markup, which the public-page checks cover.
 */
const SCRIPTLESS_FRAMES = 'iframe[data-testid="live-preview"]';

/*
 * axe runs in the page itself (the library's legacy mode, axe.run), which tests the page and every
 * same-origin frame. The default mode also tests cross-origin frames, but opens a blank page to
 * merge each scan's results, which doubles the cost of a scan; the only cross-origin frames the
 * product shows are the music and video services' own players, whose markup is not ours.
 */

export async function expectNoAxeViolations(page: Page, where = page.url()): Promise<void> {
  // A dialog or toast still fading in is measured as it will stand: contrast mid-animation is a blend.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const { violations } = await new AxeBuilder({ page }).withRules(RULES).exclude(SCRIPTLESS_FRAMES).setLegacyMode().analyze();
  const found = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(found, `axe violations on ${where}`).toEqual([]);
}
