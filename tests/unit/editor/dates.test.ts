/** The dates the owner reads (editor/components/dates.ts), in the browser's time zone. */
import { describe, expect, it } from "vitest";
import { dateAtTime, localDay, longDate, monthOfKey, shortDate } from "#editor/components/dates.ts";

describe("dates as the owner reads them", () => {
  it("names the day with a long or a short month", () => {
    expect(longDate(new Date(2025, 0, 5, 9).toISOString())).toBe("January 5, 2025");
    expect(shortDate(new Date(2025, 0, 5, 9).toISOString())).toBe("Jan 5, 2025");
    expect(shortDate(new Date(2026, 8, 30, 23, 59).toISOString())).toBe("Sep 30, 2026");
    expect(longDate(null)).toBe("");
    expect(shortDate(undefined)).toBe("");
  });

  it("gives the time on a 12-hour clock, midnight and noon as 12", () => {
    expect(dateAtTime(new Date(2025, 0, 5, 15, 7))).toBe("Jan 5, 2025 at 3:07 PM");
    expect(dateAtTime(new Date(2025, 11, 31, 0, 0))).toBe("Dec 31, 2025 at 12:00 AM");
    expect(dateAtTime(new Date(2025, 4, 1, 12, 30))).toBe("May 1, 2025 at 12:30 PM");
    expect(dateAtTime(new Date(2025, 4, 1, 11, 59))).toBe("May 1, 2025 at 11:59 AM");
  });

  it("writes every month as Intl's en-US does, letter for letter", () => {
    const long = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric" });
    const short = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });
    const monthYear = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
    for (let m = 0; m < 12; m++) {
      for (const day of [1, 9, 28]) {
        const d = new Date(2026, m, day, 8, 5);
        expect(longDate(d.toISOString())).toBe(long.format(d));
        expect(shortDate(d.toISOString())).toBe(short.format(d));
      }
      expect(monthOfKey(`2026-${String(m + 1).padStart(2, "0")}`)).toBe(monthYear.format(new Date(Date.UTC(2026, m, 1))));
    }
  });

  it("writes the local day as year-month-day", () => {
    expect(localDay(new Date(2025, 8, 3, 23, 30))).toBe("2025-09-03");
    expect(localDay(new Date(2024, 11, 31, 0, 0))).toBe("2024-12-31");
  });
});
