/**
 * Accounts: the username check today; signup, sign-in, reset and two-factor join this module.
 */
import { Hono } from "hono";
import { UsernameQuerySchema } from "#core/schemas/username.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { createRateLimiter } from "../services/rate-limit.ts";
import { clientKey } from "../services/client-key.ts";
import { ApiError } from "../errors.ts";
import { usernameAvailability } from "../services/usernames.ts";
import { query } from "../validate.ts";

export function authRoutes({ db, env, now }: AppDeps) {
  // Availability is asked 500 ms after typing stops: 30 a minute per client is generous for a person
  // and slow for someone enumerating names.
  const checks = createRateLimiter(30, 0.5);
  return (
    new Hono<AppEnv>()
      // GET /api/auth/username-availability?username= - {available: true, username} or {available: false, message}
      .get("/username-availability", query(UsernameQuerySchema), (c) => {
        if (!checks.take(clientKey(c, env.TRUST_PROXY))) throw new ApiError("rate_limited", "Too many requests. Please try again later.");
        return c.json(usernameAvailability(db, c.req.valid("query").username, now()));
      })
  );
}
