import { describe, expect, it } from "vitest";
import {
  canSavePromoteLink,
  effectivePlan,
  FEATURE_KEYS,
  hasFeature,
  isPayingPlus,
  isTrialActive,
  LITE_FEATURES,
  PLAN_FEATURES,
  PLAN_NAMES,
  planBadge,
  trialEndFrom,
  type PlanState,
} from "#core/plans.ts";

const DAY = 86_400_000;
const now = new Date("2026-06-15T12:00:00Z");
const lite: PlanState = { planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null, trialEndsAt: null };
const trial: PlanState = { ...lite, trialEndsAt: new Date(now.getTime() + DAY) };
const plus: PlanState = { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(now.getTime() + 20 * DAY), trialEndsAt: null };

describe("plans", () => {
  it("names the plans Plinth Lite and Plinth Plus", () => {
    expect(PLAN_NAMES).toEqual({ lite: "Plinth Lite", plus: "Plinth Plus" });
  });

  it("gives Lite exactly docs/product.md's feature list", () => {
    expect([...LITE_FEATURES]).toEqual(["basic_analytics", "standard_links", "basic_themes", "profile_picture", "bio", "social_links_basic"]);
    expect(PLAN_FEATURES.lite).toEqual(LITE_FEATURES);
  });

  it("gives Plus every feature, including the keys docs/product.md names", () => {
    expect(PLAN_FEATURES.plus).toEqual(FEATURE_KEYS);
    for (const key of ["unlimited_social_links", "lead_magnets", "seo_settings", "affiliate_program", "promote_plinth", "lead_magnet", "vcf"]) {
      expect(PLAN_FEATURES.plus).toContain(key);
      expect(PLAN_FEATURES.lite).not.toContain(key);
    }
  });

  it("runs the trial for exactly 7 days", () => {
    const start = new Date("2026-01-01T00:00:00Z");
    expect(trialEndFrom(start).toISOString()).toBe("2026-01-08T00:00:00.000Z");
    const state = { ...lite, trialEndsAt: trialEndFrom(start) };
    expect(isTrialActive(state, new Date(start.getTime() + 7 * DAY - 1))).toBe(true);
    expect(isTrialActive(state, new Date(start.getTime() + 7 * DAY))).toBe(false);
  });

  it("treats an active trial as Plus, and an ended one as Lite", () => {
    expect(effectivePlan(trial, now)).toBe("plus");
    expect(hasFeature(trial, "seo_settings", now)).toBe(true);
    const ended = { ...lite, trialEndsAt: new Date(now.getTime() - 1) };
    expect(effectivePlan(ended, now)).toBe("lite");
    expect(hasFeature(ended, "seo_settings", now)).toBe(false);
    expect(hasFeature(ended, "bio", now)).toBe(true);
  });

  it("counts active, past due and cancelled-but-paid-up subscriptions as paying Plus", () => {
    expect(isPayingPlus(plus, now)).toBe(true);
    expect(isPayingPlus({ ...plus, subscriptionStatus: "past_due_plus" }, now)).toBe(true);
    expect(isPayingPlus({ ...plus, subscriptionStatus: "canceled_plus" }, now)).toBe(true);
    expect(isPayingPlus({ ...plus, subscriptionStatus: "canceled_plus", currentPeriodEndDate: new Date(now.getTime() - 1) }, now)).toBe(false);
    expect(isPayingPlus({ ...plus, subscriptionStatus: null }, now)).toBe(false);
    expect(isPayingPlus({ ...lite, subscriptionStatus: "active_plus" }, now)).toBe(false);
  });

  it("lets only paying Plus, not a trial, save promote links", () => {
    expect(canSavePromoteLink(plus, now)).toBe(true);
    expect(canSavePromoteLink(trial, now)).toBe(false);
    expect(canSavePromoteLink(lite, now)).toBe(false);
  });

  it("shows docs/product.md's plan badge", () => {
    expect(planBadge(trial, now)).toBe("Trial Active");
    expect(planBadge(plus, now)).toBe("Plus");
    expect(planBadge({ ...plus, trialEndsAt: trial.trialEndsAt }, now)).toBe("Plus");
    expect(planBadge(lite, now)).toBe("Lite");
  });
});
