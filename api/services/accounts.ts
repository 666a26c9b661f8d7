/**
 * Creating an account: the user, the profile (display_name = username), the 7-day Plus trial and a
 * referral id, in one durable transaction that also ends the signup attempt that led here.
 * Uniqueness of e-mail and username is enforced by the database's unique indexes, so two concurrent
 * signups cannot both win. Afterwards the owner's initial page is published.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { AUTH_TEXT } from "#core/auth-rules.ts";
import type { PlanType } from "#core/plans.ts";
import { trialEndFrom } from "#core/plans.ts";
import { USERNAME_TAKEN_MESSAGE } from "#core/schemas/username.ts";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { signupAttempts, userProfiles, users } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import type { TargetWriter } from "#renderer/publish-target.ts";
import { ApiError, fieldError } from "../errors.ts";
import { withSchedule } from "../jobs/page-schedule.ts";
import { log } from "../log.ts";

export interface NewAccount {
  email: string;
  username: string;
  passwordHash: string | null;
  emailVerified: boolean;
  planType?: PlanType;
  googleSub?: string | null;
  /** The owner whose referral link brought this signup (ADR 084). */
  referredBy?: string | null;
  /** The signup attempt that held the username; removed in the same transaction. */
  signupAttemptId?: string;
  now: Date;
}

export function newReferralId(): string {
  return randomBytes(6).toString("base64url").replace(/[-_]/g, "x").toLowerCase();
}

export function createAccount(db: Db, account: NewAccount): { userId: string } {
  const userId = newId();
  durably(db, (tx) => {
    tx.insert(users)
      .values({
        id: userId,
        email: account.email.trim().toLowerCase(),
        passwordHash: account.passwordHash,
        emailVerified: account.emailVerified,
        googleSub: account.googleSub ?? null,
        createdAt: account.now,
        updatedAt: account.now,
      })
      .run();
    const username = account.username.trim().toLowerCase();
    tx.insert(userProfiles)
      .values({
        userId,
        username,
        displayName: username,
        planType: account.planType ?? "lite",
        trialEndsAt: trialEndFrom(account.now),
        referralId: newReferralId(),
        referredBy: account.referredBy ?? null,
        createdAt: account.now,
        updatedAt: account.now,
      })
      .run();
    if (account.signupAttemptId) tx.delete(signupAttempts).where(eq(signupAttempts.id, account.signupAttemptId)).run();
  });
  return { userId };
}

/** Which unique rule a failed insert broke, so the owner gets the right message instead of a 500. */
export function accountConflict(err: unknown): ApiError | null {
  if (!(err instanceof Error) || !("code" in err) || !String((err as { code: unknown }).code).startsWith("SQLITE_CONSTRAINT")) return null;
  if (/user_profiles\.username|users_email|users\.email/.test(err.message)) {
    return err.message.includes("username") ? fieldError("conflict", "username", USERNAME_TAKEN_MESSAGE) : fieldError("conflict", "email", AUTH_TEXT.emailTaken);
  }
  if (/google_sub/.test(err.message)) return new ApiError("conflict", "This Google account is already linked to another account.");
  return null;
}

/**
 * The initial page (docs/product.md section 4): published right after signup so {host}/{username} works at
 * once. A failure is only logged; the owner's first Publish writes the page anyway.
 */
export function publishInitialPage(db: Db, userId: string, opts: { publishedDir: string; origin: string; pagesOrigin?: string; now: Date; writer?: TargetWriter }): void {
  try {
    const result = publishPage(db, userId, withSchedule(opts));
    if (!result.ok) log().error({ userId, reason: result.reason }, "Error in initial page generation");
  } catch (err) {
    log().error({ err, userId }, "Error in initial page generation");
  }
}
