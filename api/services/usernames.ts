/**
 * Whether a username can be claimed: well formed, not reserved, not owned by an account and not held
 * by someone else's signup in progress. Names are compared lowercased, as they are stored.
 */
import { and, eq, gt, ne } from "drizzle-orm";
import { isReservedUsername } from "#core/reserved.ts";
import { USERNAME_TAKEN_MESSAGE, UsernameSchema } from "#core/schemas/username.ts";
import type { Db } from "#db/client.ts";
import { signupAttempts, userProfiles } from "#db/schema.ts";

export type Availability = { available: true; username: string } | { available: false; message: string };

export function usernameAvailability(db: Db, raw: string, now: Date, opts: { exceptAttemptId?: string } = {}): Availability {
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
        gt(signupAttempts.expiresAt, now),
        opts.exceptAttemptId ? ne(signupAttempts.id, opts.exceptAttemptId) : undefined,
      ),
    )
    .get();
  if (held) return { available: false, message: USERNAME_TAKEN_MESSAGE };
  return { available: true, username };
}
