/**
 * Whether a username can be claimed: well formed, not reserved, not owned by an account and not held
 * by someone else's signup in progress. Names are compared lowercased, as they are stored.
 */
import { and, eq, gt, isNotNull, isNull, ne, not, or, type SQL } from "drizzle-orm";
import { isReservedUsername } from "#core/reserved.ts";
import { AUTH_LIMITS } from "#core/schemas/auth.ts";
import { USERNAME_TAKEN_MESSAGE, UsernameSchema, usernameHeldByOtherMessage, usernameHeldMessage } from "#core/schemas/username.ts";
import type { Db } from "#db/client.ts";
import { signupAttempts, userProfiles } from "#db/schema.ts";

/**
 * Free, or not: taken (an account's, reserved, malformed), or held by a signup in progress (ADR 141),
 * which the same e-mail address may still continue.
 */
export type Availability =
  | { available: true; username: string }
  | { available: false; message: string }
  | { available: false; held: true; username: string; message: string; freesInMinutes: number };

/**
 * Whether a signup attempt still holds its username against other people (ADR 107): for its whole
 * life once its e-mail is verified (or came verified from Google), and for the first
 * SIGNUP_UNVERIFIED_HOLD_MS after its last step before that. Its life is SIGNUP_HOLD_MS from its last
 * step, so an unverified hold lasts while more than the difference is left of it.
 */
export function holdsItsUsername(now: Date): SQL {
  const unverifiedUntil = new Date(now.getTime() + AUTH_LIMITS.SIGNUP_HOLD_MS - AUTH_LIMITS.SIGNUP_UNVERIFIED_HOLD_MS);
  return and(gt(signupAttempts.expiresAt, now), or(isNotNull(signupAttempts.emailVerifiedAt), gt(signupAttempts.expiresAt, unverifiedUntil)))!;
}

/** When an attempt's hold lets go if it goes no further: its life's end once verified, else the unverified hold's. */
function holdEndsAt(attempt: { expiresAt: Date; emailVerifiedAt: Date | null }): number {
  const end = attempt.expiresAt.getTime();
  return attempt.emailVerifiedAt ? end : end - (AUTH_LIMITS.SIGNUP_HOLD_MS - AUTH_LIMITS.SIGNUP_UNVERIFIED_HOLD_MS);
}

/** Another address's attempt: a signup never holds a name against its own e-mail address. */
const otherAddress = (email: string) => or(isNull(signupAttempts.email), ne(signupAttempts.email, email));

/**
 * Before a username is given to an attempt: attempts that no longer hold it, or that hold it for the
 * same e-mail address (the same person in another browser), let it go. Their browsers start over.
 */
export function releaseUsername(db: Db, raw: string, now: Date, opts: { exceptAttemptId?: string; email?: string | null } = {}): void {
  const stale = opts.email ? or(not(holdsItsUsername(now)), eq(signupAttempts.email, opts.email)) : not(holdsItsUsername(now));
  db.delete(signupAttempts)
    .where(and(eq(signupAttempts.username, raw.trim().toLowerCase()), stale, opts.exceptAttemptId ? ne(signupAttempts.id, opts.exceptAttemptId) : undefined))
    .run();
}

export function usernameAvailability(db: Db, raw: string, now: Date, opts: { exceptAttemptId?: string; email?: string | null } = {}): Availability {
  const parsed = UsernameSchema.safeParse(raw);
  if (!parsed.success) return { available: false, message: parsed.error.issues[0]?.message ?? USERNAME_TAKEN_MESSAGE };
  const username = parsed.data.toLowerCase();
  if (isReservedUsername(username)) return { available: false, message: USERNAME_TAKEN_MESSAGE };
  const owned = db.select({ id: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.username, username)).get();
  if (owned) return { available: false, message: USERNAME_TAKEN_MESSAGE };
  const held = db
    .select({ expiresAt: signupAttempts.expiresAt, emailVerifiedAt: signupAttempts.emailVerifiedAt })
    .from(signupAttempts)
    .where(
      and(
        eq(signupAttempts.username, username),
        holdsItsUsername(now),
        opts.email ? otherAddress(opts.email) : undefined,
        opts.exceptAttemptId ? ne(signupAttempts.id, opts.exceptAttemptId) : undefined,
      ),
    )
    .get();
  if (held) {
    const freesInMinutes = Math.max(1, Math.ceil((holdEndsAt(held) - now.getTime()) / 60_000));
    // With an address the asker is known not to be the holder; without one, they may be.
    const message = opts.email ? usernameHeldByOtherMessage(freesInMinutes) : usernameHeldMessage(freesInMinutes);
    return { available: false, held: true, username, message, freesInMinutes };
  }
  return { available: true, username };
}
