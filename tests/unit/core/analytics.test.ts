import { describe, expect, it } from "vitest";
import { clickThroughRate, csvCell, ctrBadgeVariant, presetRange, shareTitle } from "#core/schemas/analytics.ts";

describe("analytics rules", () => {
  it("computes CTR as a percentage with one decimal", () => {
    expect(clickThroughRate(1, 3)).toBe(33.3);
    expect(clickThroughRate(2, 3)).toBe(66.7);
    expect(clickThroughRate(5, 0)).toBe(0);
  });

  it("styles the CTR badge: above 5 default, above 2 secondary, else outline", () => {
    expect(ctrBadgeVariant(5.1)).toBe("default");
    expect(ctrBadgeVariant(5)).toBe("secondary");
    expect(ctrBadgeVariant(2.1)).toBe("secondary");
    expect(ctrBadgeVariant(2)).toBe("outline");
  });

  it("titles the share sheet with the display name or username and 's Links", () => {
    expect(shareTitle("Ada", "ada")).toBe("Ada's Links");
    expect(shareTitle("  ", "ada")).toBe("ada's Links");
  });

  it("covers whole local days for a preset, today included", () => {
    const { from, to } = presetRange(7, new Date(2026, 4, 20, 15, 30));
    expect(from).toEqual(new Date(2026, 4, 14));
    expect(to).toEqual(new Date(2026, 4, 21));
  });

  it("quotes CSV cells and defuses formulas", () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    for (const f of ["=1+1", "+1", "-1", "@SUM(A1)"]) expect(csvCell(f)).toBe(`"'${f}"`);
    expect(csvCell(12)).toBe("12");
    expect(csvCell(null)).toBe("");
  });
});
