import { describe, expect, it } from "vitest";
import { dayLabel, daysBetween, fillDays, rangeDays, rangeLabel } from "#core/analytics-range.ts";

describe("rangeDays", () => {
  it("names the last day included, as the picker shows it, in the owner's time zone", () => {
    // Nov 20 to Nov 26 in UTC+1: local midnights are 23:00 UTC the evening before.
    expect(rangeDays({ from: "2026-11-19T23:00:00.000Z", to: "2026-11-26T23:00:00.000Z", tz: -60 })).toEqual({ first: "2026-11-20", last: "2026-11-26" });
    // The same days in UTC-5.
    expect(rangeDays({ from: "2026-11-20T05:00:00.000Z", to: "2026-11-27T05:00:00.000Z", tz: 300 })).toEqual({ first: "2026-11-20", last: "2026-11-26" });
    expect(rangeDays({ from: "2026-11-20T00:00:00.000Z", to: "2026-11-27T00:00:00.000Z", tz: 0 })).toEqual({ first: "2026-11-20", last: "2026-11-26" });
  });
  it("ends on the right day across a daylight-saving change", () => {
    // Oct 20 (CEST, UTC+2) to Oct 26 (CET, UTC+1): the end's midnight is an hour later than the start's offset says.
    expect(rangeDays({ from: "2026-10-19T22:00:00.000Z", to: "2026-10-26T23:00:00.000Z", tz: -120 })).toEqual({ first: "2026-10-20", last: "2026-10-26" });
    // Mar 23 (CET) to Mar 29 (CEST).
    expect(rangeDays({ from: "2026-03-22T23:00:00.000Z", to: "2026-03-29T22:00:00.000Z", tz: -60 })).toEqual({ first: "2026-03-23", last: "2026-03-29" });
  });
  it("keeps a range shorter than a day on its one day", () => {
    expect(rangeDays({ from: "2026-11-20T00:00:00.000Z", to: "2026-11-20T00:15:00.000Z", tz: 0 })).toEqual({ first: "2026-11-20", last: "2026-11-20" });
  });
});

describe("daysBetween and fillDays", () => {
  it("lists every day, across a month and a leap day", () => {
    expect(daysBetween("2028-02-27", "2028-03-01")).toEqual(["2028-02-27", "2028-02-28", "2028-02-29", "2028-03-01"]);
    expect(daysBetween("2026-03-05", "2026-03-05")).toEqual(["2026-03-05"]);
    expect(daysBetween("2026-03-06", "2026-03-05")).toEqual([]);
  });
  it("gives days without counts zeros, in order, and keeps the counts of the others", () => {
    const days = daysBetween("2026-12-30", "2027-01-02");
    expect(fillDays([{ date: "2027-01-01", views: 4 }, { date: "2026-12-30", views: 1 }], days, { views: 0 })).toEqual([
      { date: "2026-12-30", views: 1 },
      { date: "2026-12-31", views: 0 },
      { date: "2027-01-01", views: 4 },
      { date: "2027-01-02", views: 0 },
    ]);
  });
});

describe("labels", () => {
  it("show 'MMM dd' in the current year and add the year otherwise", () => {
    expect(dayLabel("2026-03-05", 2026)).toBe("Mar 05");
    expect(dayLabel("2025-12-31", 2026)).toBe("Dec 31, 2025");
    expect(rangeLabel({ first: "2026-03-05", last: "2026-03-09" }, "2026-11-26")).toBe("Mar 05 - Mar 09");
    expect(rangeLabel({ first: "2025-03-05", last: "2025-03-09" }, "2026-11-26")).toBe("Mar 05, 2025 - Mar 09, 2025");
    expect(rangeLabel({ first: "2025-12-20", last: "2026-01-02" }, "2026-11-26")).toBe("Dec 20, 2025 - Jan 02, 2026");
  });
});
