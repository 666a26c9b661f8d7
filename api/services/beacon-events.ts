/**
 * A checked beacon, and the analytics event the writer derives from it: the route does only what its
 * answer depends on (the page, the link, the limits) and the batching writer (event-writer.ts) works
 * out the device, the country, the campaign and the day's visitor hash when it writes the batch. The
 * address and the user agent are never stored.
 */
import { isbot } from "isbot";
import { campaignOf } from "#core/campaign.ts";
import { eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { users } from "#db/schema.ts";
import { recordEvents, visitorHash, type AnalyticsEventInput } from "./analytics-store.ts";
import { countryOf } from "./country.ts";

/** A beacon whose page and link were checked (api/services/visitor.ts), waiting to be written. */
export interface CheckedBeacon {
  userId: string;
  kind: "page_view" | "link_click";
  linkId: string | null;
  /** When the beacon arrived, in milliseconds. */
  at: number;
  /** The page's referrer as the visitor script saw it, or the request's Referer. */
  referrer?: string;
  /** The page's own URL, which may carry a campaign. */
  url?: string;
  userAgent: string;
  /** The sender's address key (client-key.ts). */
  address: string;
}

export function referrerDomain(ref: string | undefined): string | null {
  if (!ref) return null;
  try {
    const u = new URL(ref);
    return /^https?:$/.test(u.protocol) ? u.hostname.slice(0, 253) : null;
  } catch {
    return null;
  }
}

/**
 * The visitor's device class. No user agent, a known crawler, link-preview fetcher or HTTP library
 * (the maintained `isbot` list) or a headless browser is a bot: stored, never counted.
 */
export function deviceClass(ua: string | undefined): "mobile" | "tablet" | "desktop" | "bot" | "other" {
  if (!ua?.trim() || isbot(ua) || /bot|crawl|spider|slurp|headless/i.test(ua)) return "bot";
  if (/ipad|tablet/i.test(ua)) return "tablet";
  if (/mobi|iphone|android/i.test(ua)) return "mobile";
  if (/windows|macintosh|linux|cros/i.test(ua)) return "desktop";
  return "other";
}

export function eventOf(db: Db, b: CheckedBeacon): AnalyticsEventInput {
  const device = deviceClass(b.userAgent);
  const occurredAt = new Date(b.at);
  const campaign = b.kind === "page_view" ? campaignOf(b.url) : null;
  return {
    userId: b.userId,
    kind: b.kind,
    linkId: b.linkId,
    occurredAt,
    referrerDomain: referrerDomain(b.referrer),
    device,
    country: device === "bot" ? null : countryOf(b.address),
    utmSource: campaign?.source ?? null,
    utmMedium: campaign?.medium ?? null,
    utmCampaign: campaign?.campaign ?? null,
    visitorHash: b.kind === "page_view" && device !== "bot" ? visitorHash(db, { userId: b.userId, address: b.address, userAgent: b.userAgent, now: occurredAt }) : null,
  };
}

/**
 * Store checked beacons as events, with their rollups, all or nothing. An owner who deleted the
 * account after a beacon was answered takes that beacon along: it is left out, and the rest is
 * written, instead of a batch that fails for ever.
 */
export function recordBeacons(db: Db, beacons: readonly CheckedBeacon[]): void {
  try {
    recordEvents(db, beacons.map((b) => eventOf(db, b)));
  } catch (err) {
    if ((err as { code?: unknown }).code !== "SQLITE_CONSTRAINT_FOREIGNKEY") throw err;
    const owners = new Map<string, boolean>();
    const exists = (id: string) => owners.get(id) ?? owners.set(id, db.select({ id: users.id }).from(users).where(eq(users.id, id)).get() !== undefined).get(id)!;
    recordEvents(db, beacons.filter((b) => exists(b.userId)).map((b) => eventOf(db, b)));
  }
}
