/**
 * Dates as the owner reads them on billing screens and pages and in the dashboard, in the browser's
 * time zone: "January 5, 2025", "Jan 5, 2025", "Jan 5, 2025 at 3:07 PM", "January 2025" and the day
 * "2025-01-05". The dashboard speaks US English, so the months are named here: a date library would
 * load with every dashboard screen (ADR 131), and the first Intl formatter a tab makes loads the
 * browser's locale data in one long task (ADR 255). The output is Intl's "en-US" output, letter for
 * letter, which a unit test checks.
 */
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const pad = (n: number) => String(n).padStart(2, "0");
const long = (d: Date) => `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;
const short = (d: Date) => `${MONTHS[d.getMonth()]!.slice(0, 3)} ${d.getDate()}, ${d.getFullYear()}`;

export const longDate = (iso: string | null | undefined) => (iso ? long(new Date(iso)) : "");
export const shortDate = (iso: string | null | undefined) => (iso ? short(new Date(iso)) : "");

/** "Jan 5, 2025 at 3:07 PM". */
export const dateAtTime = (d: Date) => `${short(d)} at ${d.getHours() % 12 || 12}:${pad(d.getMinutes())} ${d.getHours() < 12 ? "AM" : "PM"}`;

/** A month's key, "2025-01", as "January 2025". */
export const monthOfKey = (key: string) => {
  const [y, m] = key.split("-").map(Number);
  return `${MONTHS[m! - 1]} ${y}`;
};

/** The local day, "2025-01-05". */
export const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
