/**
 * Signing in: the password check that answers unknown accounts in the same time as wrong passwords,
 * a fresh session (and its cookies) at every sign-in, and the pending second step when two-factor
 * is on.
 */
import { and, eq, lte } from "drizzle-orm";
import type { Context } from "hono";
import { SUSPENSION_TEXTS } from "#core/admin.ts";
import { AUTH_LIMITS } from "#core/schemas/auth.ts";
import type { Db } from "#db/client.ts";
import { twoFactorChallenges, users } from "#db/schema.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { clearCookie, isSecureOrigin, readCookie, writeCookie } from "./cookies.ts";
import { dummyPasswordHash, verifyPassword } from "./password.ts";
import { createSession, deleteSessionCookie, invalidateSession, setSessionCookie, sha256Hex } from "./session.ts";
import { randomToken } from "./tokens.ts";

export type UserRow = typeof users.$inferSelect;

/**
 * The user whose e-mail and password these are, or null. An unknown e-mail or an account without a
 * password still verifies a real argon2 hash, so the answer takes the same time either way.
 */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<UserRow | null> {
  const user = db.select().from(users).where(eq(users.email, email)).get();
  if (!user?.passwordHash) {
    await verifyPassword(await dummyPasswordHash(), password);
    return null;
  }
  return (await verifyPassword(user.passwordHash, password)) ? user : null;
}

/** A suspended account (ADR 109) signs in no way: password, Google, second step, reset or signup. */
export function assertNotSuspended(db: Db, userId: string): void {
  const row = db.select({ suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, userId)).get();
  if (row?.suspendedAt) throw new ApiError("forbidden", SUSPENSION_TEXTS.signInRefused);
}

/**
 * A new session for the user, with its cookies (Remember me off: cookies end with the browser).
 * `secondFactor`: this sign-in passed the second step (only then may an admin's session use the console, ADR 105).
 */
export function beginSession(c: Context, { db, env, now }: Pick<AppDeps, "db" | "env" | "now">, userId: string, persistent: boolean, opts: { secondFactor?: boolean } = {}) {
  assertNotSuspended(db, userId);
  const current = c.get("session") as { id: string } | null | undefined;
  // A sign-in never reuses the session the browser arrived with (no session fixation).
  if (current) invalidateSession(db, current.id);
  const { token, session } = createSession(db, userId, { persistent, userAgent: c.req.header("user-agent") ?? null, now: now(), secondFactor: opts.secondFactor === true });
  setSessionCookie(c, token, session, isSecureOrigin(env.PUBLIC_ORIGIN));
  return session;
}

export function endSession(c: Context, { db, env }: Pick<AppDeps, "db" | "env">) {
  const current = c.get("session") as { id: string } | null | undefined;
  if (current) invalidateSession(db, current.id);
  deleteSessionCookie(c, isSecureOrigin(env.PUBLIC_ORIGIN));
}

// ---------------------------------------------------------------------------------------------
// The second step

export const TWO_FACTOR_COOKIE = "plinth_2fa";

export function beginTwoFactorChallenge(c: Context, { db, env, now }: Pick<AppDeps, "db" | "env" | "now">, userId: string, persistent: boolean): void {
  assertNotSuspended(db, userId);
  const at = now();
  const token = randomToken();
  db.delete(twoFactorChallenges).where(lte(twoFactorChallenges.expiresAt, at)).run();
  db.insert(twoFactorChallenges)
    .values({ id: sha256Hex(token), userId, persistent, expiresAt: new Date(at.getTime() + AUTH_LIMITS.TWO_FACTOR_CHALLENGE_TTL_MS), createdAt: at })
    .run();
  writeCookie(c, TWO_FACTOR_COOKIE, token, isSecureOrigin(env.PUBLIC_ORIGIN), { maxAge: AUTH_LIMITS.TWO_FACTOR_CHALLENGE_TTL_MS / 1000 });
}

export function findTwoFactorChallenge(c: Context, { db, env }: Pick<AppDeps, "db" | "env">, now: Date) {
  const token = readCookie(c, TWO_FACTOR_COOKIE, isSecureOrigin(env.PUBLIC_ORIGIN));
  if (!token || token.length > 64) return null;
  const row = db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.id, sha256Hex(token))).get();
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  return row;
}

export function endTwoFactorChallenge(c: Context, { db, env }: Pick<AppDeps, "db" | "env">, challengeId: string | null): void {
  if (challengeId) db.delete(twoFactorChallenges).where(and(eq(twoFactorChallenges.id, challengeId))).run();
  clearCookie(c, TWO_FACTOR_COOKIE, isSecureOrigin(env.PUBLIC_ORIGIN));
}
