/**
 * The sign-in, sign-up and reset throttle (docs/product.md section 9): per action and subject (an e-mail, a user
 * or a client address), blocked after N failed attempts until 15 minutes have passed since the last
 * one; then the count starts again. Kept in the database so a restart does not reset it, and every
 * server process on one DATA_DIR counts against the same rows.
 */
import { and, eq, lte, sql } from "drizzle-orm";
import { LIMITS } from "#core/limits.ts";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import type { Db } from "#db/client.ts";
import { authThrottle, type THROTTLE_ACTIONS } from "#db/schema.ts";
import { ApiError } from "../errors.ts";

export type ThrottleAction = (typeof THROTTLE_ACTIONS)[number];

export interface ThrottleKey {
  action: ThrottleAction;
  subject: string;
  /** Failures before the block (default 5). */
  max?: number;
}

export const emailSubject = (email: string) => `email:${email}`;
export const userSubject = (userId: string) => `user:${userId}`;
export const ipSubject = (ip: string) => `ip:${ip}`;

/** Minutes left of the block (rounded up), or 0 when the subject may try. */
export function blockedMinutes(db: Db, key: ThrottleKey, now: Date): number {
  const row = db
    .select()
    .from(authThrottle)
    .where(and(eq(authThrottle.action, key.action), eq(authThrottle.subject, key.subject)))
    .get();
  if (!row) return 0;
  const left = row.lastAttemptAt.getTime() + LIMITS.THROTTLE_WINDOW_MS - now.getTime();
  if (left <= 0 || row.failures < (key.max ?? LIMITS.THROTTLE_MAX_FAILURES)) return 0;
  return Math.ceil(left / 60_000);
}

/** Throws docs/product.md's 429 when any of the keys is blocked. */
export function assertNotThrottled(db: Db, keys: ThrottleKey[], now: Date): void {
  let minutes = 0;
  for (const key of keys) minutes = Math.max(minutes, blockedMinutes(db, key, now));
  if (minutes > 0) throw new ApiError("rate_limited", AUTH_TEXT.throttled(minutes), { headers: { "Retry-After": String(minutes * 60) } });
}

/**
 * One more failure; a quiet window of 15 minutes since the last attempt starts the count again. One
 * upsert, so failures counted by several server processes at once all count (ADR 180).
 */
export function recordFailure(db: Db, key: ThrottleKey, now: Date): void {
  const lapsedBefore = new Date(now.getTime() - LIMITS.THROTTLE_WINDOW_MS);
  db.insert(authThrottle)
    .values({ action: key.action, subject: key.subject, failures: 1, lastAttemptAt: now })
    .onConflictDoUpdate({
      target: [authThrottle.action, authThrottle.subject],
      set: {
        failures: sql`CASE WHEN ${authThrottle.lastAttemptAt} <= ${lapsedBefore.getTime()} THEN 1 ELSE ${authThrottle.failures} + 1 END`,
        lastAttemptAt: now,
      },
    })
    .run();
}

export function clearFailures(db: Db, key: ThrottleKey): void {
  db.delete(authThrottle)
    .where(and(eq(authThrottle.action, key.action), eq(authThrottle.subject, key.subject)))
    .run();
}

/** Takes back one counted attempt (it turned out to succeed), keeping the others; atomic like recordFailure. */
export function forgiveOne(db: Db, key: ThrottleKey): void {
  const where = and(eq(authThrottle.action, key.action), eq(authThrottle.subject, key.subject));
  db.update(authThrottle).set({ failures: sql`${authThrottle.failures} - 1` }).where(where).run();
  db.delete(authThrottle).where(and(where, lte(authThrottle.failures, 0))).run();
}
