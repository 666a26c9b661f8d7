/**
 * Whether a draft may be published under the owner's plan (docs/product.md section 5, Publishing; ADR 023, 112,
 * 136). A Lite owner without an active trial is refused while the Lite rules would hide something the
 * draft shows with Plus: docs/product.md's list (main button, schedule, lead magnet, contact card, branding
 * removal, custom font pairing, non-blank long-form text) and the rest of its section 6's Plus-only
 * content (more than 7 links or 4 visible social icons, thumbnails, promote links, premium themes,
 * SEO fields). The refusal is exactly the list of core/plan-hides.ts, so "Hide Plus items and
 * publish" (which publishes the same draft with the owner's consent to those hides) is always a way
 * out. Donation links are a Lite link type (docs/product.md, section 6).
 */
import type { PagePlan, PageSnapshot } from "./model.ts";
import { featuresOf, planHiddenItems, type PlanFeature } from "./plan-hides.ts";
import { effectivePlan, planStateOf } from "./plans.ts";

export const PUBLISH_TEXTS = {
  blockedTitle: "Publishing requires Plinth Plus subscription",
  blockedBody: "Remove Plus-only features or upgrade to publish your changes.",
  discarded: "Draft changes have been discarded",
  discardedBody: "Your draft has been reverted to the last published version.",
  discardFailed: "Failed to discard changes",
  /** "Hide Plus items and publish" agreed to fewer hides than the draft needs now (ADR 136). */
  consentOutdated: "Your draft changed since you opened this dialog. Check the list and try again.",
} as const;

/** The Plus-only features a draft shows that the Lite rules would hide at `now`, once each. */
export function plusOnlyFeaturesUsed(s: PageSnapshot, now: Date): PlanFeature[] {
  return featuresOf(planHiddenItems(s, now));
}

export type PublishGate = { ok: true } | { ok: false; features: PlanFeature[] };

export function publishGate(s: PageSnapshot, plan: PagePlan, now: Date): PublishGate {
  if (effectivePlan(planStateOf(plan), now) === "plus") return { ok: true };
  const features = plusOnlyFeaturesUsed(s, now);
  return features.length === 0 ? { ok: true } : { ok: false, features };
}
