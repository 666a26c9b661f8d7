/**
 * The signed-in owner as the dashboard shell needs them: profile basics and the plan state, with
 * the trial and the effective plan computed here from core's plan rules, and the page's address.
 */
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { effectivePlan, hasFeature, isPayingPlus, isTrialActive, PLAN_FEATURES, planBadge } from "#core/plans.ts";
import { users } from "#db/schema.ts";
import { ownerPageAddress } from "#renderer/page-address.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { pagesOrigin } from "../env.server.ts";
import { getProfile, planStateOf } from "../services/profile.ts";

export function meRoutes({ db, env, now }: AppDeps) {
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // GET /api/me - profile, plan state and features of the signed-in owner
      .get("/", (c) => {
        const user = currentUser(c);
        const at = now();
        const p = getProfile(db, user.id);
        const plan = planStateOf(p);
        const effective = effectivePlan(plan, at);
        const email = db.select({ email: users.email }).from(users).where(eq(users.id, user.id)).get()?.email ?? "";
        return c.json({
          userId: user.id,
          email,
          username: p.username,
          // Where visitors reach the page now: its verified domain under a plan that has it, else its
          // Plinth address (ADR 240, 244). Every address the dashboard shows or shares is this one.
          pageAddress: ownerPageAddress(db, user.id, pagesOrigin(env), at) ?? "",
          displayName: p.displayName,
          profilePictureUrl: p.profilePictureUrl,
          profilePictureFullwidthUrl: p.profilePictureFullwidthUrl,
          profilePictureStyle: p.profilePictureStyle,
          initialsText: p.initialsText,
          initialsBgColor: p.initialsBgColor,
          referralId: p.referralId,
          qrCodeVisible: p.qrCodeVisible,
          hasPublishedPage: p.hasPublishedPage,
          lastPublishedAt: p.lastPublishedAt,
          plan: {
            planType: p.planType,
            subscriptionStatus: p.subscriptionStatus,
            currentPeriodEndDate: p.currentPeriodEndDate,
            trialEndsAt: p.trialEndsAt,
            isTrialActive: isTrialActive(plan, at),
            isPayingPlus: isPayingPlus(plan, at),
            effectivePlan: effective,
            planBadge: planBadge(plan, at),
            canSavePromoteLink: isPayingPlus(plan, at),
            features: PLAN_FEATURES[effective].filter((f) => hasFeature(plan, f, at)),
          },
        });
      })
  );
}
