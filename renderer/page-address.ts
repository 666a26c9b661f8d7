/**
 * Where visitors reach a page: `pagesOrigin/username`, or its verified custom domain while the
 * owner's plan includes custom domains (ADR 240). One rule for the page's canonical, Open Graph,
 * share and QR code address and the sitemap, and for every address the dashboard and the owner's
 * previews show (ADR 244).
 */
import { eq } from "drizzle-orm";
import { domainUrl } from "#core/domains.ts";
import type { PagePlan } from "#core/model.ts";
import { hasFeature, planStateOf } from "#core/plans.ts";
import type { Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { planOf, verifiedDomainOf } from "./draft.ts";

export function pageAddress(username: string, pagesOrigin: string, plan: PagePlan, now: Date, customDomain: string | null | undefined): string {
  if (customDomain && hasFeature(planStateOf(plan), "custom_domain", now)) return domainUrl(customDomain);
  return `${pagesOrigin.replace(/\/+$/, "")}/${encodeURIComponent(username)}`;
}

/** The owner's page address at `now`, from their plan and verified domain as stored; null for no such owner. */
export function ownerPageAddress(db: Db, userId: string, pagesOrigin: string, now: Date): string | null {
  const p = db
    .select({ username: userProfiles.username, planType: userProfiles.planType, subscriptionStatus: userProfiles.subscriptionStatus, currentPeriodEndDate: userProfiles.currentPeriodEndDate, trialEndsAt: userProfiles.trialEndsAt })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .get();
  return p ? pageAddress(p.username, pagesOrigin, planOf(p), now, verifiedDomainOf(db, userId)) : null;
}
