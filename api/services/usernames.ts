/**
 * Whether a username can be claimed: well formed, not reserved, not owned by an account and not held
 * by someone else's signup in progress. Names are compared lowercased, as they are stored.
 */
import { and, eq, gt, isNotNull, isNull, ne, not, or, type SQL } from "drizzle-orm";
import { isReservedUsername } from "#core/reserved.ts";
import { AUTH_LIMITS } from "#core/schemas/auth.ts";
import { USERNAME_TAKEN_MESSAGE, UsernameSchema } from "#core/schemas/username.ts";
import type { Db } from "#db/client.ts";
import { signupAttempts, userProfiles } from "#db/schema.ts";

export type Availability = { available: true; username: string } | { available: false; message: string };

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
    .select({ id: signupAttempts.id })
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
  if (held) return { available: false, message: USERNAME_TAKEN_MESSAGE };
  return { available: true, username };
}
