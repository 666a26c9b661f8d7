/** The screen's range: local midnights, as the picker chose them, and how the API and labels see it. */
import { localDay } from "../../../components/dates.ts";
import { rangeDays, rangeLabel } from "#core/analytics-range.ts";

export interface Range {
  from: Date;
  /** Exclusive: the midnight after the last day. */
  to: Date;
  /** The preset in use, or null for a custom range. */
  days: number | null;
}

export const rangeQuery = (r: Range) => ({ from: r.from.toISOString(), to: r.to.toISOString(), tz: String(r.from.getTimezoneOffset()) });
/** First and last day as the report, the CSV and the JSON name them (one shared function). */
export const daysOf = (r: Range) => rangeDays({ from: r.from, to: r.to, tz: r.from.getTimezoneOffset() });
export const labelOf = (r: Range, now = new Date()) => rangeLabel(daysOf(r), localDay(now));
