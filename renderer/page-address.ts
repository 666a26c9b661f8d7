/**
 * Where visitors reach a page: `pagesOrigin/username`, or its verified custom domain while the
 * owner's plan includes custom domains (ADR 240). One rule for the page's canonical, Open Graph,
 * share and QR code address and the sitemap.
 */
import { domainUrl } from "#core/domains.ts";
import type { PagePlan } from "#core/model.ts";
import { hasFeature, planStateOf } from "#core/plans.ts";

export function pageAddress(username: string, pagesOrigin: string, plan: PagePlan, now: Date, customDomain: string | null | undefined): string {
  if (customDomain && hasFeature(planStateOf(plan), "custom_domain", now)) return domainUrl(customDomain);
  return `${pagesOrigin}/${encodeURIComponent(username)}`;
}
