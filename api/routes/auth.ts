/**
 * Accounts (/api/auth): the username check, signup, sign-in and sign-out, Google, password reset
 * and change, two-factor, sessions and the account itself. Each part lives in routes/auth/*.ts and
 * is chained here, so hc<AppType> sees every route.
 */
import { Hono } from "hono";
import { UsernameQuerySchema } from "#core/schemas/username.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { createRateLimiter, limitStoreFor } from "../services/rate-limit.ts";
import { clientKey } from "../services/client-key.ts";
import { ApiError } from "../errors.ts";
import { usernameAvailability } from "../services/usernames.ts";
import { query } from "../validate.ts";
import { googleRoutes } from "./auth/google.ts";
import { loginRoutes } from "./auth/login.ts";
import { passwordRoutes } from "./auth/password.ts";
import { securityRoutes } from "./auth/security.ts";
import { createAuthLimiters, readSignupCookie } from "./auth/shared.ts";
import { findAttempt } from "../services/signup.ts";
import { signupRoutes } from "./auth/signup.ts";

export function authRoutes(deps: AppDeps) {
  const { db, env, now } = deps;
  // Availability is asked 500 ms after typing stops: 30 a minute per client is generous for a person
  // and slow for someone enumerating names.
  const checks = createRateLimiter(30, 0.5, { now, store: limitStoreFor(db), name: "username-checks" });
  const limiters = createAuthLimiters(deps);
  return (
    new Hono<AppEnv>()
      // GET /api/auth/username-availability?username= - {available: true, username} or {available: false, message}
      .get("/username-availability", query(UsernameQuerySchema), (c) => {
        if (!checks.take(clientKey(c, env.TRUST_PROXY))) throw new ApiError("rate_limited", "Too many requests. Please try again later.");
        // The name this browser's own signup holds is still available to it (a reload of the wizard).
        const own = findAttempt(db, readSignupCookie(c, env), now());
        return c.json(usernameAvailability(db, c.req.valid("query").username, now(), { exceptAttemptId: own?.id }));
      })
      .route("/signup", signupRoutes(deps, limiters))
      .route("/", loginRoutes(deps, limiters))
      .route("/", passwordRoutes(deps, limiters))
      .route("/", googleRoutes(deps, limiters))
      .route("/", securityRoutes(deps, limiters))
  );
}
