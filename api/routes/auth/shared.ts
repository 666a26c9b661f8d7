/**
 * Pieces the account routes share: the per-address limits, the signup-attempt cookie, and the end of
 * every successful first step (a session, or the two-factor step when it is on).
 */
import type { Context } from "hono";
import { AUTH_LIMITS, AUTH_TEXT } from "#core/schemas/auth.ts";
import { clearCookie, isSecureOrigin, readCookie, writeCookie } from "../../auth/cookies.ts";
import { beginSession, beginTwoFactorChallenge } from "../../auth/sign-in.ts";
import type { AppDeps } from "../../context.ts";
import { ApiError } from "../../errors.ts";
import { clientKey } from "../../services/client-key.ts";
import { createRateLimiter, limitStoreFor, type RateLimiter } from "../../services/rate-limit.ts";
import { SIGNUP_COOKIE } from "../../services/signup.ts";
import { isTwoFactorEnabled } from "../../services/two-factor.ts";

export interface AuthLimiters {
  /** Requests that send an e-mail (codes, links): a burst of 20, then one every 30 s per address. */
  mail: RateLimiter;
  /** Every other account request that does real work (password hashing): a burst of 60, then 1 a second. */
  work: RateLimiter;
}

export function createAuthLimiters({ db, now }: Pick<AppDeps, "db" | "now">): AuthLimiters {
  const store = limitStoreFor(db);
  return { mail: createRateLimiter(20, 1 / 30, { now, store, name: "auth-mail" }), work: createRateLimiter(60, 1, { now, store, name: "auth-work" }) };
}

export function take(c: Context, limiter: RateLimiter, trustProxy: number): void {
  if (!limiter.take(clientKey(c, trustProxy))) throw new ApiError("rate_limited", AUTH_TEXT.tooManyRequests);
}

export function readSignupCookie(c: Context, env: AppDeps["env"]): string | undefined {
  return readCookie(c, SIGNUP_COOKIE, isSecureOrigin(env.PUBLIC_ORIGIN));
}

export function setSignupCookie(c: Context, env: AppDeps["env"], token: string): void {
  writeCookie(c, SIGNUP_COOKIE, token, isSecureOrigin(env.PUBLIC_ORIGIN), { maxAge: AUTH_LIMITS.SIGNUP_HOLD_MS / 1000 });
}

export function clearSignupCookie(c: Context, env: AppDeps["env"]): void {
  clearCookie(c, SIGNUP_COOKIE, isSecureOrigin(env.PUBLIC_ORIGIN));
}

export type SignInOutcome = { status: "signed_in" } | { status: "two_factor" };

/** The password (or Google) was right: a session now, or first the second factor when it is on. */
export function finishFirstFactor(c: Context, deps: AppDeps, userId: string, persistent: boolean): SignInOutcome {
  if (isTwoFactorEnabled(deps.db, userId)) {
    beginTwoFactorChallenge(c, deps, userId, persistent);
    return { status: "two_factor" };
  }
  beginSession(c, deps, userId, persistent);
  return { status: "signed_in" };
}
