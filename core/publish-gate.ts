/**
 * Whether a draft may be published under the owner's plan (spec section 5, Publishing; ADR 023).
 * A Lite owner without an active trial is refused while the draft uses a Plus-only feature the
 * page would show: the spec's list (main button, schedule, lead magnet, contact card, branding
 * removal, custom font pairing, non-blank long-form text) plus the other Plus-only content of
 * section 6 (more than 7 links or 4 visible social icons, thumbnails, promote links). Donation links
 * are a Lite link type (section 6). SEO fields are not counted: under Lite they are locked in the
 * editor and never rendered, so counting them would block an owner with no way to comply.
 */
import { LIMITS } from "./limits.ts";
import { PROMOTE_LINK_TYPE } from "./link-types.ts";
import type { PageLink, PagePlan, PageProfile, PageSnapshot } from "./model.ts";
import { effectivePlan, type FeatureKey, type PlanState } from "./plans.ts";

export const PUBLISH_TEXTS = {
  blockedTitle: "Publishing requires Plinth Plus subscription",
  blockedBody: "Remove Plus-only features or upgrade to publish your changes.",
  discarded: "Draft changes have been discarded",
  discardedBody: "Your draft has been reverted to the last published version.",
  discardFailed: "Failed to discard changes",
} as const;

export function planStateOf(plan: PagePlan): PlanState {
  const d = (s: string | null) => (s ? new Date(s) : null);
  return {
    planType: plan.planType,
    subscriptionStatus: plan.subscriptionStatus,
    currentPeriodEndDate: d(plan.currentPeriodEndDate),
    trialEndsAt: d(plan.trialEndsAt),
  };
}

type GatedLink = Pick<PageLink, "linkType" | "isMainButton" | "scheduleStartTime" | "scheduleEndTime" | "thumbnailUrl">;
type GatedProfile = Pick<PageProfile, "removeBranding" | "hidePlatformBranding" | "longFormText" | "customFontPairingName">;

/**
 * The Plus-only features one link needs, whether or not it is switched on. The editor marks a row
 * with them; the gate counts them for the links the page would show (ADR 112).
 */
export function linkPlusFeatures(l: GatedLink): FeatureKey[] {
  const used: FeatureKey[] = [];
  if (l.linkType === "lead_magnet") used.push("lead_magnet");
  if (l.linkType === "vcf") used.push("vcf");
  if (l.linkType === PROMOTE_LINK_TYPE) used.push(PROMOTE_LINK_TYPE);
  if (l.isMainButton) used.push("main_button");
  if (l.scheduleStartTime || l.scheduleEndTime) used.push("scheduling");
  if (l.thumbnailUrl) used.push("thumbnails");
  return used;
}

/** The Plus-only features the profile's settings use. */
export function profilePlusFeatures(p: GatedProfile): FeatureKey[] {
  const used: FeatureKey[] = [];
  if (p.removeBranding || p.hidePlatformBranding) used.push("remove_branding");
  if (p.longFormText.trim()) used.push("long_form_text");
  if (p.customFontPairingName) used.push("custom_fonts");
  return used;
}

/**
 * The Plus-only features a draft uses, in a stable order. A link switched off is not on the page,
 * so only switched-on links count (ADR 112): hiding a Plus-only link is a way to comply.
 */
export function plusOnlyFeaturesUsed(s: PageSnapshot): FeatureKey[] {
  const used = new Set<FeatureKey>();
  const shown = s.links.filter((l) => l.isActive);
  if (shown.length > LIMITS.LITE_MAX_LINKS) used.add("unlimited_links");
  if (s.socialLinks.filter((l) => l.isVisible).length > LIMITS.LITE_MAX_VISIBLE_SOCIAL) used.add("unlimited_social_links");
  for (const l of shown) for (const f of linkPlusFeatures(l)) used.add(f);
  for (const f of profilePlusFeatures(s.profile)) used.add(f);
  return [...used];
}

export type PublishGate = { ok: true } | { ok: false; features: FeatureKey[] };

export function publishGate(s: PageSnapshot, plan: PagePlan, now: Date): PublishGate {
  if (effectivePlan(planStateOf(plan), now) === "plus") return { ok: true };
  const features = plusOnlyFeaturesUsed(s);
  return features.length === 0 ? { ok: true } : { ok: false, features };
}
