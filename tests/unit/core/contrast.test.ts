/**
 * Contrast (core/color.ts, ADR 146): the page picks its text and button labels to read on the owner's
 * colours, and the Theme screen warns only when what the page will draw reads poorly, judged by the
 * same function the renderer draws with.
 */
import { describe, expect, it } from "vitest";
import { THEMES, getTheme } from "#core/themes.ts";
import { contrastRatio, contrastWarning, contrastWarningsOf, drawnColorsOf, MIN_LARGE_TEXT_CONTRAST, MIN_TEXT_CONTRAST } from "#core/color.ts";
import { pageCss } from "#renderer/css.ts";

const NO_COLOURS = { pageBackground: null, buttonBackground: null, buttonBorder: null };
/** 4096 colours spread over the whole cube. */
const COLOURS = Array.from({ length: 4096 }, (_, i) => `#${(i * 4099).toString(16).padStart(6, "0").slice(-6)}`);

describe("theme contrast", () => {
  it.each(THEMES.map((t) => [t.name, t] as const))("%s: button text and page text read at 4.5:1 or more", (_name, t) => {
    expect(contrastRatio(t.buttonText, t.buttonBackground)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(t.text, t.backgroundBase)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(t.mutedText, t.backgroundBase)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });
});

describe("contrastWarning", () => {
  it("warns below the threshold with the ratio rounded down", () => {
    // White on the default blue #3b82f6 is 3.68:1.
    expect(contrastWarning("#ffffff", "#3b82f6")).toBe("Contrast 3.6:1: hard to read. Aim for 4.5:1 or more.");
    expect(contrastWarning("#777777", "#ffffff")).toBe("Contrast 4.4:1: hard to read. Aim for 4.5:1 or more.");
    expect(contrastWarning("#ffffff", "#3b82f6", MIN_LARGE_TEXT_CONTRAST)).toBeNull();
  });
  it("says nothing for a readable pair or for a colour that is not a hex colour", () => {
    expect(contrastWarning("#0f172a", "#3b82f6")).toBeNull();
    expect(contrastWarning("#000000", "#ffffff")).toBeNull();
    expect(contrastWarning("red", "#ffffff")).toBeNull();
  });
});

describe("the Theme screen's warnings judge what the page draws", () => {
  it("does not warn about #2a2a2a buttons on a white page: the page draws white labels on them, 14.3:1", () => {
    const t = getTheme("minimalist-light");
    const custom = { pageBackground: "#ffffff", buttonBackground: "#2a2a2a", buttonBorder: null };
    // The theme's own label colour on that button is what the screen used to judge: 1.2:1.
    expect(contrastWarning(t.buttonText, "#2a2a2a")).toBe("Contrast 1.2:1: hard to read. Aim for 4.5:1 or more.");
    const drawn = drawnColorsOf(t, custom);
    expect(drawn.buttonText).toBe("#ffffff");
    expect(contrastRatio(drawn.buttonText, "#2a2a2a")).toBeGreaterThan(14);
    expect(contrastWarningsOf(t, custom)).toEqual({ pageBackground: null, buttonBackground: null });
  });

  it("warns about a mid-grey page, where neither near-black nor white text reaches 4.5:1", () => {
    expect(contrastWarningsOf(getTheme("minimalist-light"), { ...NO_COLOURS, pageBackground: "#7a7a7a" })).toEqual({
      pageBackground: "Contrast 4.2:1: hard to read. Aim for 4.5:1 or more.",
      buttonBackground: null,
    });
  });

  it("warns exactly when the drawn text or label misses its threshold, for every theme and any colour", () => {
    for (const t of THEMES) {
      expect(contrastWarningsOf(t, NO_COLOURS), t.id).toEqual({ pageBackground: null, buttonBackground: null });
      for (const c of COLOURS.filter((_, i) => i % 4 === 0)) {
        const drawn = drawnColorsOf(t, { pageBackground: c, buttonBackground: c, buttonBorder: null });
        const w = contrastWarningsOf(t, { pageBackground: c, buttonBackground: c, buttonBorder: null });
        const pageReads = contrastRatio(drawn.text, c) >= MIN_TEXT_CONTRAST && contrastRatio(drawn.muted, c) >= MIN_TEXT_CONTRAST;
        expect(w.pageBackground === null, `${t.id} page ${c}`).toBe(pageReads);
        expect(w.buttonBackground === null, `${t.id} button ${c}`).toBe(contrastRatio(drawn.buttonText, c) >= MIN_LARGE_TEXT_CONTRAST);
        // The page never draws a label below large-text AA, nor text far from it.
        expect(contrastRatio(drawn.buttonText, c), c).toBeGreaterThanOrEqual(MIN_LARGE_TEXT_CONTRAST);
        expect(contrastRatio(drawn.text, c), c).toBeGreaterThanOrEqual(4.1);
      }
    }
  });

  it("is what the renderer's stylesheet draws", () => {
    for (const c of COLOURS.slice(0, 256)) {
      for (const t of [getTheme("minimalist-light"), getTheme("neon-dark")]) {
        const drawn = drawnColorsOf(t, { pageBackground: c, buttonBackground: c, buttonBorder: null });
        const { css } = pageCss({ themeId: t.id as never, fontPairing: null, pageBackground: c, buttonBackground: c, buttonBorder: null, buttonShape: "rounded", initialsBackground: "#6366f1" }, {});
        expect(css, `${t.id} ${c}`).toContain(`body{margin:0;min-height:100vh;background:${c};color:${drawn.text};`);
        expect(css, `${t.id} ${c}`).toContain(`background:${c};color:${drawn.buttonText};border:2px solid ${drawn.buttonBorder};`);
      }
    }
  });
});
