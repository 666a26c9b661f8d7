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
import type { PagePlan, PageSnapshot } from "./model.ts";
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

/** The Plus-only features a draft uses, in a stable order. */
export function plusOnlyFeaturesUsed(s: PageSnapshot): FeatureKey[] {
  const used = new Set<FeatureKey>();
  if (s.links.length > LIMITS.LITE_MAX_LINKS) used.add("unlimited_links");
  if (s.socialLinks.filter((l) => l.isVisible).length > LIMITS.LITE_MAX_VISIBLE_SOCIAL) used.add("unlimited_social_links");
  for (const l of s.links) {
    if (l.linkType === "lead_magnet") used.add("lead_magnet");
    if (l.linkType === "vcf") used.add("vcf");
    if (l.linkType === PROMOTE_LINK_TYPE) used.add(PROMOTE_LINK_TYPE);
    if (l.isMainButton) used.add("main_button");
    if (l.scheduleStartTime || l.scheduleEndTime) used.add("scheduling");
    if (l.thumbnailUrl) used.add("thumbnails");
  }
  const p = s.profile;
  if (p.removeBranding || p.hidePlatformBranding) used.add("remove_branding");
  if (p.longFormText.trim()) used.add("long_form_text");
  if (p.customFontPairingName) used.add("custom_fonts");
  return [...used];
}

export type PublishGate = { ok: true } | { ok: false; features: FeatureKey[] };

export function publishGate(s: PageSnapshot, plan: PagePlan, now: Date): PublishGate {
  if (effectivePlan(planStateOf(plan), now) === "plus") return { ok: true };
  const features = plusOnlyFeaturesUsed(s);
  return features.length === 0 ? { ok: true } : { ok: false, features };
}
