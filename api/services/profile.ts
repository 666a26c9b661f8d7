/**
 * Reading an owner's profile and plan state, for routes that enforce plan rules.
 */
import { eq } from "drizzle-orm";
import type { PlanState } from "#core/plans.ts";
import type { Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { ApiError } from "../errors.ts";

export type ProfileRow = typeof userProfiles.$inferSelect;

export function getProfile(db: Db, userId: string): ProfileRow {
  const row = db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get();
  if (!row) throw new ApiError("not_found", "Profile not found");
  return row;
}

export function planStateOf(p: Pick<ProfileRow, "planType" | "subscriptionStatus" | "currentPeriodEndDate" | "trialEndsAt">): PlanState {
  return {
    planType: p.planType,
    subscriptionStatus: p.subscriptionStatus,
    currentPeriodEndDate: p.currentPeriodEndDate,
    trialEndsAt: p.trialEndsAt,
  };
}

/** Marks the draft profile as edited now. */
export function touchProfile(db: Db, userId: string, now: Date): void {
  db.update(userProfiles).set({ updatedAt: now }).where(eq(userProfiles.userId, userId)).run();
}
