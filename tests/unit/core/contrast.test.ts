import { describe, expect, it } from "vitest";
import { THEMES } from "#core/themes.ts";
import { contrastRatio, contrastWarning, MIN_TEXT_CONTRAST } from "#core/color.ts";

describe("theme contrast", () => {
  it.each(THEMES.map((t) => [t.name, t] as const))("%s: button text and page text read at 4.5:1 or more", (_name, t) => {
    expect(contrastRatio(t.buttonText, t.buttonBackground)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(t.text, t.backgroundBase)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(t.mutedText, t.backgroundBase)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });
});

describe("contrastWarning", () => {
  it("warns below 4.5:1 with the ratio rounded down", () => {
    // White on the default blue #3b82f6 is 3.68:1.
    expect(contrastWarning("#ffffff", "#3b82f6")).toBe("Contrast 3.6:1: hard to read. Aim for 4.5:1 or more.");
    expect(contrastWarning("#777777", "#ffffff")).toBe("Contrast 4.4:1: hard to read. Aim for 4.5:1 or more.");
  });
  it("says nothing for a readable pair or for a colour that is not a hex colour", () => {
    expect(contrastWarning("#0f172a", "#3b82f6")).toBeNull();
    expect(contrastWarning("#000000", "#ffffff")).toBeNull();
    expect(contrastWarning("red", "#ffffff")).toBeNull();
  });
});
