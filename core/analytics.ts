/**
 * Analytics (spec sections 2, 3, 4 and 9): the screen's texts, ranges, click-through rate and CSV
 * cells, without zod, so the dashboard loads no validation library for them; schemas/analytics.ts
 * holds the range schemas and re-exports these.
 */
import { LIMITS } from "./limits.ts";

export const ANALYTICS_TEXTS = {
  title: "Analytics",
  subtitle: "Track your page performance and link engagement",
  loading: "Loading analytics...",
  emptyTitle: "Share your page to start seeing analytics!",
  emptyText: "Once people start visiting your page and clicking your links, you'll see detailed analytics here.",
  share: "Share Your Page",
  noLinks: "No link data available yet.",
  noLinksText: "Add links to your page to see detailed analytics.",
  trialLeads: "Available during trial",
  plusFeature: "Plus Feature",
} as const;

/** The leads list (ADR 142): its texts and how many addresses one page shows. */
export const LEADS_TEXTS = {
  tab: "Email Leads",
  intro: "Every email address your lead magnets collected, newest first, with the link it came through.",
  emptyTitle: "No leads yet",
  emptyText: "When visitors leave their email address for one of your lead magnets, it shows here.",
  exportAll: "Export all to CSV",
  deleteTitle: "Delete Lead",
  deleteText: (email: string) => `Delete ${email} from your leads? Do this when the visitor asks to be erased. This cannot be undone.`,
  deleted: "Lead deleted",
  deleteFailed: "Failed to delete lead",
  loadFailed: "We couldn't load your leads right now.",
  notFound: "Lead not found",
} as const;
export const LEADS_PAGE_SIZE = 25;

/** A range longer than this is refused: a year and a day covers every preset and any custom choice. */
export const ANALYTICS_MAX_RANGE_DAYS = 367;

/** The last `days` days ending today, in the viewer's own time zone. */
export function presetRange(days: number, now: Date): { from: Date; to: Date } {
  const to = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  const from = new Date(to.getFullYear(), to.getMonth(), to.getDate() - days);
  return { from, to };
}
export const DEFAULT_RANGE_DAYS = LIMITS.ANALYTICS_DEFAULT_DAYS;

/** Click-through rate as a percentage with one decimal; 0 without views. */
export function clickThroughRate(clicks: number, views: number): number {
  if (views <= 0) return 0;
  return Math.round((clicks / views) * 1000) / 10;
}

/** Spec section 9: the CTR badge is the default style above 5%, secondary above 2%, else outline. */
export function ctrBadgeVariant(ctr: number): "default" | "secondary" | "outline" {
  if (ctr > 5) return "default";
  if (ctr > 2) return "secondary";
  return "outline";
}

/** The share sheet's title: the display name, or the username, followed by 's Links. */
export function shareTitle(displayName: string, username: string): string {
  return `${displayName.trim() || username}'s Links`;
}

/**
 * A spreadsheet cell: quoted, quotes doubled, and a leading = + - @ (or tab/CR) defused so a title or
 * a visitor's e-mail can never run as a formula when the file is opened.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function csvRows(rows: (string | number | null)[][]): string {
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
