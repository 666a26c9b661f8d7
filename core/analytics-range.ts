/**
 * An analytics range in the owner's days: the dashboard's label, the report, the CSV and JSON and their
 * file names all name the range through these, so they agree. A range is [from, to) in instants with
 * the owner's offset (Date#getTimezoneOffset, minutes); its last day is the day before `to`.
 */

const DAY_MS = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** The owner's calendar day (yyyy-mm-dd) of an instant. */
export function localDate(at: number, tz: number): string {
  return new Date(at - tz * 60_000).toISOString().slice(0, 10);
}

/** Across a daylight-saving change the end's midnight is up to two hours off the start's offset. */
const END_SLACK_MS = 3 * 3_600_000;

/**
 * The first and the last day of the range as the owner sees them, the last day included. `tz` is the
 * offset at the start; the end is a local midnight, so the last day is the one a few hours before it
 * whatever the offset there.
 */
export function rangeDays(r: { from: string | Date; to: string | Date; tz: number }): { first: string; last: string } {
  const from = new Date(r.from).getTime();
  const to = new Date(r.to).getTime();
  return { first: localDate(from, r.tz), last: localDate(Math.max(from, to - END_SLACK_MS), r.tz) };
}

/** Every day from `first` to `last`, both included (yyyy-mm-dd). */
export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let at = Date.parse(`${first}T00:00:00Z`), end = Date.parse(`${last}T00:00:00Z`); at <= end; at += DAY_MS) {
    out.push(new Date(at).toISOString().slice(0, 10));
  }
  return out;
}

/** A series with a row for every day of `days`, days without a row taking `zero`'s counts. */
export function fillDays<T extends { date: string }>(rows: readonly T[], days: readonly string[], zero: Omit<T, "date">): T[] {
  const byDate = new Map(rows.map((r) => [r.date, r]));
  return days.map((date) => byDate.get(date) ?? ({ ...zero, date } as T));
}

/** "Mar 05", or "Mar 05, 2025" when the year is not `thisYear`. */
export function dayLabel(date: string, thisYear: number): string {
  const [y, m, d] = date.split("-");
  const short = `${MONTHS[Number(m) - 1]} ${d}`;
  return Number(y) === thisYear ? short : `${short}, ${y}`;
}

/** The picker's label: "Mar 05 - Mar 09" in the current year, each day with its year otherwise. */
export function rangeLabel(days: { first: string; last: string }, today: string): string {
  const year = Number(today.slice(0, 4));
  const inYear = days.first.startsWith(`${year}-`) && days.last.startsWith(`${year}-`);
  const label = (d: string) => dayLabel(d, inYear ? year : NaN);
  return `${label(days.first)} - ${label(days.last)}`;
}
