/**
 * Plans, the trial and feature keys (docs/product.md section 6). A trial counts as Plus.
 */
import { LIMITS } from "./limits.ts";
import { PROMOTE_LINK_TYPE } from "./link-types.ts";
import type { PagePlan } from "./model.ts";

export const PLAN_TYPES = ["lite", "plus"] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export const PLAN_NAMES: Record<PlanType, string> = { lite: "Plinth Lite", plus: "Plinth Plus" };

export const SUBSCRIPTION_STATUSES = ["active_plus", "past_due_plus", "canceled_plus"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const LITE_FEATURES = [
  "basic_analytics",
  "standard_links",
  "basic_themes",
  "profile_picture",
  "bio",
  "social_links_basic",
] as const;

export const PLUS_ONLY_FEATURES = [
  "unlimited_links",
  "unlimited_social_links",
  "lead_magnet",
  "vcf",
  "music",
  PROMOTE_LINK_TYPE,
  "main_button",
  "scheduling",
  "thumbnails",
  "detailed_analytics",
  "lead_viewing",
  "lead_magnets",
  "seo_settings",
  "affiliate_program",
  "remove_branding",
  "premium_themes",
  "custom_fonts",
  "long_form_text",
  "billing_history",
  // Tip and Paid download links (ADR 231).
  "creator_payments",
  "custom_domain",
] as const;

export const FEATURE_KEYS = [...LITE_FEATURES, ...PLUS_ONLY_FEATURES] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];

export const PLAN_FEATURES: Record<PlanType, readonly FeatureKey[]> = {
  lite: LITE_FEATURES,
  plus: FEATURE_KEYS,
};

/** The plan-relevant part of a profile. */
export interface PlanState {
  planType: PlanType;
  subscriptionStatus: SubscriptionStatus | null;
  currentPeriodEndDate: Date | null;
  trialEndsAt: Date | null;
}

/** A page's plan (core/model.ts) with its times as dates, for the rules below. */
export function planStateOf(plan: PagePlan): PlanState {
  const d = (s: string | null) => (s ? new Date(s) : null);
  return {
    planType: plan.planType,
    subscriptionStatus: plan.subscriptionStatus,
    currentPeriodEndDate: d(plan.currentPeriodEndDate),
    trialEndsAt: d(plan.trialEndsAt),
  };
}

/** A plan under which every Plus rule applies, whatever the time: what a page shows with Plus. */
export const ALWAYS_PLUS: PagePlan = { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: null, trialEndsAt: null };

const DAY_MS = 86_400_000;

export function trialEndFrom(start: Date): Date {
  return new Date(start.getTime() + LIMITS.TRIAL_DAYS * DAY_MS);
}

export function isTrialActive(state: PlanState, now: Date): boolean {
  return state.trialEndsAt !== null && now.getTime() < state.trialEndsAt.getTime();
}

/** A paying Plus subscriber: active, past due (grace) or cancelled but still inside the paid period. */
export function isPayingPlus(state: PlanState, now: Date): boolean {
  if (state.planType !== "plus") return false;
  if (state.subscriptionStatus === "active_plus" || state.subscriptionStatus === "past_due_plus") return true;
  if (state.subscriptionStatus === "canceled_plus") {
    return state.currentPeriodEndDate !== null && now.getTime() < state.currentPeriodEndDate.getTime();
  }
  return false;
}

/** The plan whose rules apply now: Plus for paying subscribers and during an active trial. */
export function effectivePlan(state: PlanState, now: Date): PlanType {
  return isPayingPlus(state, now) || isTrialActive(state, now) ? "plus" : "lite";
}

export function hasFeature(state: PlanState, feature: FeatureKey, now: Date): boolean {
  return PLAN_FEATURES[effectivePlan(state, now)].includes(feature);
}

/** Only a paying Plus owner, not one on trial, may save promote links (docs/product.md section 5). */
export function canSavePromoteLink(state: PlanState, now: Date): boolean {
  return isPayingPlus(state, now);
}

/** The badge of the dashboard status bar (docs/product.md section 4, Plan display). */
export function planBadge(state: PlanState, now: Date): "Trial Active" | "Plus" | "Lite" {
  if (isTrialActive(state, now) && !isPayingPlus(state, now)) return "Trial Active";
  return isPayingPlus(state, now) ? "Plus" : "Lite";
}
