/**
 * Password-reset links: a 160-bit token e-mailed once, stored only as its SHA-256 (the row's id),
 * valid for one hour and for one use; asking again voids the earlier link. Setting the new password
 * ends every session of the owner and does not sign anyone in.
 */
import { eq } from "drizzle-orm";
import { AUTH_LIMITS } from "#core/schemas/auth.ts";
import { transaction, type Db } from "#db/client.ts";
import { passwordResetTokens, users } from "#db/schema.ts";
import { invalidateUserSessions, sha256Hex } from "../auth/session.ts";
import { assertNotSuspended } from "../auth/sign-in.ts";
import { randomToken } from "../auth/tokens.ts";

export function issueResetToken(db: Db, userId: string, now: Date): string {
  const token = randomToken();
  transaction(db, () => {
    db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId)).run();
    db.insert(passwordResetTokens)
      .values({ id: sha256Hex(token), userId, expiresAt: new Date(now.getTime() + AUTH_LIMITS.RESET_TTL_MS), createdAt: now })
      .run();
  });
  return token;
}

/** The owner of a live, unused token, or null. */
export function resetTokenOwner(db: Db, token: string, now: Date): string | null {
  const row = db.select().from(passwordResetTokens).where(eq(passwordResetTokens.id, sha256Hex(token))).get();
  if (!row || row.usedAt || row.expiresAt.getTime() <= now.getTime()) return null;
  return row.userId;
}

/**
 * Uses the token: sets the password hash, proves the address (the link arrived there), voids every
 * reset link of the owner and ends all their sessions, in one transaction. False if the token was
 * not (or no longer) valid, so a replay or a race with another tab changes nothing.
 */
export function completeReset(db: Db, token: string, passwordHash: string, now: Date): { userId: string } | null {
  return transaction(db, () => {
    const userId = resetTokenOwner(db, token, now);
    if (!userId) return null;
    // Checked again inside the write, so a suspension that lands while the password is hashed still wins.
    assertNotSuspended(db, userId);
    db.update(users).set({ passwordHash, emailVerified: true, updatedAt: now }).where(eq(users.id, userId)).run();
    db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId)).run();
    invalidateUserSessions(db, userId);
    return { userId };
  });
}
