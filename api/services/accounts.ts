/**
 * Creating an account: the user, the profile (display_name = username), the 7-day Plus trial and a
 * referral id, in one durable transaction. Uniqueness of e-mail and username is enforced by the
 * database's unique indexes, so two concurrent signups cannot both win.
 */
import { randomBytes } from "node:crypto";
import type { PlanType } from "#core/plans.ts";
import { trialEndFrom } from "#core/plans.ts";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { userProfiles, users } from "#db/schema.ts";

export interface NewAccount {
  email: string;
  username: string;
  passwordHash: string | null;
  emailVerified: boolean;
  planType?: PlanType;
  googleSub?: string | null;
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
        createdAt: account.now,
        updatedAt: account.now,
      })
      .run();
  });
  return { userId };
}
