import { describe, expect, it } from "vitest";
import { dateTickIndexes, valueTicks } from "#editor/app/screens/analytics/chart-scale.ts";

describe("valueTicks", () => {
  it("starts at 0 and ends at or above the largest value in round steps", () => {
    expect(valueTicks(0)).toEqual([0, 1]);
    expect(valueTicks(1)).toEqual([0, 1]);
    expect(valueTicks(3)).toEqual([0, 1, 2, 3]);
    expect(valueTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(valueTicks(100)).toEqual([0, 50, 100]);
    expect(valueTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });
});

describe("dateTickIndexes", () => {
  it("labels every day of a short range", () => {
    expect(dateTickIndexes(5, 7)).toEqual([0, 1, 2, 3, 4]);
  });
  it("labels the first and the last day of a long range and spaced days between", () => {
    expect(dateTickIndexes(30, 6)).toEqual([0, 6, 12, 18, 24, 29]);
    const year = dateTickIndexes(367, 6);
    expect(year[0]).toBe(0);
    expect(year.at(-1)).toBe(366);
    expect(year.length).toBeLessThanOrEqual(6);
    expect(dateTickIndexes(0, 6)).toEqual([]);
    expect(dateTickIndexes(1, 6)).toEqual([0]);
  });
});
