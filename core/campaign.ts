/**
 * Campaigns: utm_source, utm_medium and utm_campaign from the page's URL, recorded with the view.
 * Values are cleaned by the text rule (ADR 095): surrounding whitespace trimmed, line breaks and tabs
 * made spaces, a value with an invisible character dropped, and each capped.
 */
import { hasInvisible } from "./text-rule.ts";
import { parsedUrl } from "./url-rule.ts";

export const CAMPAIGN_VALUE_MAX = 100;

export interface Campaign {
  source: string | null;
  medium: string | null;
  campaign: string | null;
}

function clean(value: string | null): string | null {
  if (value === null) return null;
  const v = value.replace(/[\t\r\n\u2028\u2029]+/g, " ").trim();
  if (!v || hasInvisible(v)) return null;
  return [...v].slice(0, CAMPAIGN_VALUE_MAX).join("").trim();
}

/** The campaign a page URL carries, or null when it has none. */
export function campaignOf(pageUrl: string | null | undefined): Campaign | null {
  if (!pageUrl) return null;
  const params = parsedUrl(pageUrl)?.searchParams;
  if (!params) return null;
  const c = { source: clean(params.get("utm_source")), medium: clean(params.get("utm_medium")), campaign: clean(params.get("utm_campaign")) };
  return c.source || c.medium || c.campaign ? c : null;
}
