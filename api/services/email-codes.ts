/**
 * E-mailed six-digit codes for signup (docs/product.md section 10: a real code, stored hashed, 10 minutes, 5 wrong
 * tries void it, resend at most once a minute) and single-use e-mail verification links.
 *
 * A code is stored as SHA-256(row id + code): the row id salts it, and the comparison is constant
 * time, so neither the table nor the timing of a check gives the code away.
 */
import { and, desc, eq } from "drizzle-orm";
import { LIMITS } from "#core/limits.ts";
import { AUTH_LIMITS } from "#core/schemas/auth.ts";
import { transaction, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { emailVerificationCodes } from "#db/schema.ts";
import { constantTimeEqual, sha256Hex } from "../auth/session.ts";
import { randomSixDigitCode, randomToken } from "../auth/tokens.ts";

const hashCode = (rowId: string, code: string) => sha256Hex(`${rowId}:${code}`);

/**
 * A new code for a signup attempt; earlier codes of the attempt die. With `decoy`, the stored hash
 * matches nothing (the address already has an account and gets a different e-mail), yet the attempt
 * behaves exactly like any other.
 */
export function issueSignupCode(db: Db, attempt: { id: string; email: string }, now: Date, opts: { decoy?: boolean } = {}): string {
  const id = newId();
  const code = randomSixDigitCode();
  const stored = opts.decoy ? hashCode(id, randomToken()) : hashCode(id, code);
  transaction(db, () => {
    db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.signupAttemptId, attempt.id)).run();
    db.insert(emailVerificationCodes)
      .values({
        id,
        purpose: "signup",
        email: attempt.email,
        signupAttemptId: attempt.id,
        codeHash: stored,
        attempts: 0,
        expiresAt: new Date(now.getTime() + LIMITS.OTP_TTL_MS),
        sentAt: now,
      })
      .run();
  });
  return code;
}

export function latestSignupCode(db: Db, attemptId: string) {
  return db
    .select()
    .from(emailVerificationCodes)
    .where(and(eq(emailVerificationCodes.signupAttemptId, attemptId), eq(emailVerificationCodes.purpose, "signup")))
    .orderBy(desc(emailVerificationCodes.sentAt))
    .get();
}

/** Milliseconds until another code may be sent for this attempt (0 when it may). */
export function resendWaitMs(db: Db, attemptId: string, now: Date): number {
  const last = latestSignupCode(db, attemptId);
  if (!last) return 0;
  return Math.max(0, last.sentAt.getTime() + LIMITS.OTP_RESEND_INTERVAL_MS - now.getTime());
}

export type CodeCheck = "ok" | "wrong" | "expired";

/** Checks a typed code against the attempt's live code; a wrong one uses up one of its 5 tries. */
export function checkSignupCode(db: Db, attemptId: string, input: string, now: Date): CodeCheck {
  const row = latestSignupCode(db, attemptId);
  if (!row || row.expiresAt.getTime() <= now.getTime() || row.attempts >= LIMITS.OTP_MAX_ATTEMPTS) return "expired";
  if (constantTimeEqual(hashCode(row.id, input), row.codeHash)) {
    db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.signupAttemptId, attemptId)).run();
    return "ok";
  }
  const attempts = row.attempts + 1;
  if (attempts >= LIMITS.OTP_MAX_ATTEMPTS) db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.id, row.id)).run();
  else db.update(emailVerificationCodes).set({ attempts }).where(eq(emailVerificationCodes.id, row.id)).run();
  return "wrong";
}

// ---------------------------------------------------------------------------------------------
// Verification links for accounts whose address is not verified yet

/** A new single-use link token for the user; earlier ones die. Returns the token for the e-mail. */
export function issueVerifyLink(db: Db, user: { id: string; email: string }, now: Date): string {
  const token = randomToken();
  transaction(db, () => {
    db.delete(emailVerificationCodes)
      .where(and(eq(emailVerificationCodes.userId, user.id), eq(emailVerificationCodes.purpose, "verify_email")))
      .run();
    db.insert(emailVerificationCodes)
      .values({
        id: newId(),
        purpose: "verify_email",
        email: user.email,
        userId: user.id,
        codeHash: sha256Hex(token),
        expiresAt: new Date(now.getTime() + AUTH_LIMITS.VERIFY_LINK_TTL_MS),
        sentAt: now,
      })
      .run();
  });
  return token;
}

export function lastVerifyLinkSentAt(db: Db, userId: string): Date | null {
  const row = db
    .select({ sentAt: emailVerificationCodes.sentAt })
    .from(emailVerificationCodes)
    .where(and(eq(emailVerificationCodes.userId, userId), eq(emailVerificationCodes.purpose, "verify_email")))
    .orderBy(desc(emailVerificationCodes.sentAt))
    .get();
  return row?.sentAt ?? null;
}

/** The user whose link this is (consumed), or null for an unknown, used or expired token. */
export function consumeVerifyLink(db: Db, token: string, now: Date): { userId: string; email: string } | null {
  // The lookup is by the token's SHA-256: timing can reveal at most whether some hash prefix exists,
  // which says nothing about a 160-bit token.
  const row = db
    .select()
    .from(emailVerificationCodes)
    .where(and(eq(emailVerificationCodes.purpose, "verify_email"), eq(emailVerificationCodes.codeHash, sha256Hex(token))))
    .get();
  if (!row || !row.userId) return null;
  db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.id, row.id)).run();
  if (row.expiresAt.getTime() <= now.getTime()) return null;
  return { userId: row.userId, email: row.email };
}
