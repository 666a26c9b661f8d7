/**
 * The console's guard (ADR 105): only a signed-in admin with two-factor on gets past; everyone else
 * gets the same 404 as a path that does not exist, so the console cannot be found by probing.
 */
import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { isTwoFactorEnabled } from "../services/two-factor.ts";

export function requireAdmin({ db }: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = c.get("user");
    if (!user || user.role !== "admin" || !isTwoFactorEnabled(db, user.id)) throw new ApiError("not_found", "Not found");
    await next();
  };
}
