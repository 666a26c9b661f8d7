/**
 * Signups in progress. An attempt holds its username from the moment the e-mail step is sent: for 10
 * minutes after its last step until its e-mail is verified, then 30 (ADR 107), and never against its
 * own e-mail address. Two people can never both reach the end with one name: the
 * availability check and the hold are one transaction, and a unique index backs it up. The browser
 * holds a random token for its attempt (an HttpOnly cookie); the row keeps the token's SHA-256.
 */
import { eq, lte } from "drizzle-orm";
import { AUTH_LIMITS, AUTH_TEXT } from "#core/schemas/auth.ts";
import { USERNAME_TAKEN_MESSAGE } from "#core/schemas/username.ts";
import { transaction, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { emailVerificationCodes, signupAttempts, users } from "#db/schema.ts";
import { sha256Hex } from "../auth/session.ts";
import { randomToken } from "../auth/tokens.ts";
import { ApiError, fieldError } from "../errors.ts";
import { releaseUsername, usernameAvailability } from "./usernames.ts";

export type SignupAttempt = typeof signupAttempts.$inferSelect;

export const SIGNUP_COOKIE = "plinth_signup";

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Error && "code" in err && String((err as { code: unknown }).code).startsWith("SQLITE_CONSTRAINT");
}

const holdUntil = (now: Date) => new Date(now.getTime() + AUTH_LIMITS.SIGNUP_HOLD_MS);

/** Writes a new attempt holding for the usual time, and returns it with the token only the browser keeps. */
function insertAttempt(
  db: Db,
  fields: Pick<SignupAttempt, "username" | "email" | "emailVerifiedAt" | "googleSub">,
  now: Date,
): { attempt: SignupAttempt; token: string } {
  const token = randomToken();
  const attempt: SignupAttempt = { id: newId(), tokenHash: sha256Hex(token), ...fields, expiresAt: holdUntil(now), createdAt: now };
  db.insert(signupAttempts).values(attempt).run();
  return { attempt, token };
}

/** The live attempt this browser's token belongs to, or null. */
export function findAttempt(db: Db, token: string | undefined, now: Date): SignupAttempt | null {
  if (!token || token.length > 64) return null;
  const row = db.select().from(signupAttempts).where(eq(signupAttempts.tokenHash, sha256Hex(token))).get();
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  return row;
}

/** Holds of finished or abandoned signups are released. */
export function pruneExpiredAttempts(db: Db, now: Date): void {
  db.delete(signupAttempts).where(lte(signupAttempts.expiresAt, now)).run();
}

function assertAvailable(db: Db, username: string, now: Date, exceptAttemptId: string | undefined, email: string | null): string {
  releaseUsername(db, username, now, { exceptAttemptId, email });
  const availability = usernameAvailability(db, username, now, { exceptAttemptId, email });
  if (!availability.available) throw fieldError("conflict", "username", availability.message);
  return availability.username;
}

/**
 * Step 1 (e-mail): creates the attempt, or updates this browser's attempt when the owner went Back
 * and changed the name or the address. A changed address must be verified again.
 */
export function holdSignup(
  db: Db,
  input: { token?: string; username: string; email: string },
  now: Date,
): { attempt: SignupAttempt; token: string; emailChanged: boolean } {
  try {
    return transaction(db, () => {
      pruneExpiredAttempts(db, now);
      const existing = findAttempt(db, input.token, now);
      // A Google attempt that switches to a typed address becomes an ordinary signup.
      const current = existing && existing.googleSub && existing.email !== input.email ? null : existing;
      if (existing && !current) db.delete(signupAttempts).where(eq(signupAttempts.id, existing.id)).run();
      const username = assertAvailable(db, input.username, now, current?.id, input.email);
      if (current) {
        const emailChanged = current.email !== input.email;
        db.update(signupAttempts)
          .set({ username, email: input.email, expiresAt: holdUntil(now), ...(emailChanged ? { emailVerifiedAt: null } : {}) })
          .where(eq(signupAttempts.id, current.id))
          .run();
        if (emailChanged) db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.signupAttemptId, current.id)).run();
        const attempt = db.select().from(signupAttempts).where(eq(signupAttempts.id, current.id)).get()!;
        return { attempt, token: input.token!, emailChanged };
      }
      return { ...insertAttempt(db, { username, email: input.email, emailVerifiedAt: null, googleSub: null }, now), emailChanged: true };
    });
  } catch (err) {
    // The unique index on the held username is the last word when two requests race.
    if (isUniqueViolation(err)) throw fieldError("conflict", "username", USERNAME_TAKEN_MESSAGE);
    throw err;
  }
}

/** A Google signup picks (or changes) its username. */
export function holdUsername(db: Db, attempt: SignupAttempt, rawUsername: string, now: Date): SignupAttempt {
  try {
    return transaction(db, () => {
      const username = assertAvailable(db, rawUsername, now, attempt.id, attempt.email);
      db.update(signupAttempts).set({ username, expiresAt: holdUntil(now) }).where(eq(signupAttempts.id, attempt.id)).run();
      return db.select().from(signupAttempts).where(eq(signupAttempts.id, attempt.id)).get()!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError("conflict", "username", USERNAME_TAKEN_MESSAGE);
    throw err;
  }
}

/** A new attempt begun by Google sign-in: the address is verified by the provider. */
export function createProviderAttempt(
  db: Db,
  input: { email: string; googleSub: string; username?: string | null },
  now: Date,
): { attempt: SignupAttempt; token: string } {
  return transaction(db, () => {
    pruneExpiredAttempts(db, now);
    db.delete(signupAttempts).where(eq(signupAttempts.googleSub, input.googleSub)).run();
    let username: string | null = null;
    if (input.username) {
      releaseUsername(db, input.username, now, { email: input.email });
      const a = usernameAvailability(db, input.username, now, { email: input.email });
      if (a.available) username = a.username;
    }
    return insertAttempt(db, { username, email: input.email, emailVerifiedAt: now, googleSub: input.googleSub }, now);
  });
}

export function touchAttempt(db: Db, attemptId: string, now: Date, set: Partial<Pick<SignupAttempt, "emailVerifiedAt">> = {}): void {
  db.update(signupAttempts)
    .set({ expiresAt: holdUntil(now), ...set })
    .where(eq(signupAttempts.id, attemptId))
    .run();
}

export function emailHasAccount(db: Db, email: string): boolean {
  return !!db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
}

/** The attempt as the wizard needs it after a reload or a return from Google. */
export function attemptState(attempt: SignupAttempt) {
  return {
    username: attempt.username,
    email: attempt.email,
    emailVerified: attempt.emailVerifiedAt !== null,
    provider: attempt.googleSub ? ("google" as const) : null,
  };
}

export function requireAttempt(db: Db, token: string | undefined, now: Date): SignupAttempt {
  const attempt = findAttempt(db, token, now);
  if (!attempt) throw new ApiError("gone", AUTH_TEXT.signupExpired);
  return attempt;
}
