/**
 * Proof that the person at the keyboard is the owner, not just someone holding their session, before
 * a change that could lock the owner out: a new password, two-factor on or off, new backup codes,
 * deleting the account (ADR 046). A password account gives its current password, and a wrong one
 * counts against the owner like a failed sign-in (ADR 040). An account without a password (Google
 * only) must have signed in within the last few minutes instead.
 */
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { AUTH_LIMITS, AUTH_TEXT } from "#core/schemas/auth.ts";
import { users } from "#db/schema.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { assertNotThrottled, clearFailures, recordFailure, userSubject, type ThrottleKey } from "../services/auth-throttle.ts";
import { currentUser } from "./middleware.ts";
import { verifyPassword } from "./password.ts";

/** The owner's current password, checked under the sign-in throttle; a 400 on `field` when missing or wrong. */
export async function confirmPassword(
  { db, now }: Pick<AppDeps, "db" | "now">,
  user: { id: string; passwordHash: string },
  password: string | undefined,
  field: string,
): Promise<void> {
  if (!password) throw new ApiError("validation_failed", AUTH_TEXT.confirmPasswordRequired, { fields: { [field]: AUTH_TEXT.confirmPasswordRequired } });
  const at = now();
  const key: ThrottleKey = { action: "sign_in", subject: userSubject(user.id) };
  assertNotThrottled(db, [key], at);
  // Counted before the check and taken back when right, so parallel guesses cannot slip past.
  recordFailure(db, key, at);
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new ApiError("bad_request", AUTH_TEXT.currentPasswordWrong, { fields: { [field]: AUTH_TEXT.currentPasswordWrong } });
  }
  clearFailures(db, key);
}

/**
 * The password of a password account, or a fresh sign-in for a Google-only one (a 403 whose
 * details say `fresh_sign_in`, so the dashboard offers to sign in again).
 */
export async function confirmIdentity(c: Context<AppEnv>, deps: Pick<AppDeps, "db" | "now">, password: string | undefined, field = "password"): Promise<void> {
  const user = currentUser(c);
  const row = deps.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id)).get();
  if (!row) throw new ApiError("unauthorized", AUTH_TEXT.notAuthenticated);
  if (row.passwordHash) return confirmPassword(deps, { id: user.id, passwordHash: row.passwordHash }, password, field);
  const session = c.get("session");
  if (!session || deps.now().getTime() - session.createdAt.getTime() > AUTH_LIMITS.FRESH_SIGN_IN_MS) {
    throw new ApiError("forbidden", AUTH_TEXT.freshSignInRequired, { details: { reason: "fresh_sign_in" } });
  }
}
