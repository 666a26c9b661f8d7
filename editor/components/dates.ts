/**
 * Dates as the owner reads them on billing screens and pages and in the dashboard, in the browser's
 * time zone: "January 5, 2025", "Jan 5, 2025", "Jan 5, 2025 at 3:07 PM" and the day "2025-01-05".
 * The platform's Intl names the months; a date library here would load with every dashboard screen
 * (ADR 131). A formatter is made on first use: the first one a tab makes loads the browser's locale
 * data, a long task that a screen showing no such date (Analytics) should not pay while it opens.
 */
let long: Intl.DateTimeFormat | undefined;
let short: Intl.DateTimeFormat | undefined;
const LONG = () => (long ??= new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric" }));
const SHORT = () => (short ??= new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" }));
const pad = (n: number) => String(n).padStart(2, "0");

export const longDate = (iso: string | null | undefined) => (iso ? LONG().format(new Date(iso)) : "");
export const shortDate = (iso: string | null | undefined) => (iso ? SHORT().format(new Date(iso)) : "");

/** "Jan 5, 2025 at 3:07 PM". */
export const dateAtTime = (d: Date) => `${SHORT().format(d)} at ${d.getHours() % 12 || 12}:${pad(d.getMinutes())} ${d.getHours() < 12 ? "AM" : "PM"}`;

/** The local day, "2025-01-05". */
export const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
