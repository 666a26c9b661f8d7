/**
 * The console's guard (ADR 105): only a signed-in admin with two-factor on, whose own sign-in passed
 * the second factor, gets past; everyone else gets the same 404 as a path that does not exist, so the
 * console cannot be found by probing. A session signed in with the password alone stays an owner's
 * session after two-factor is turned on elsewhere (issue 35).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { isTwoFactorEnabled } from "../services/two-factor.ts";
import { isSecureOrigin } from "./cookies.ts";
import { readSessionCookie, validateSessionToken, type Session, type SessionUser } from "./session.ts";

const mayUseConsole = (db: AppDeps["db"], user: SessionUser | null, session: Session | null) =>
  !!user && user.role === "admin" && !!session?.secondFactor && isTwoFactorEnabled(db, user.id);

/** Outside /api (the console's page itself): whether this request's session may see the console. */
export function isConsoleRequest({ db, env, now }: AppDeps, c: Context): boolean {
  const token = readSessionCookie(c, isSecureOrigin(env.PUBLIC_ORIGIN));
  const valid = token ? validateSessionToken(db, token, now()) : null;
  return !!valid && mayUseConsole(db, valid.user, valid.session);
}

export function requireAdmin({ db }: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!mayUseConsole(db, c.get("user"), c.get("session"))) throw new ApiError("not_found", "Not found");
    await next();
  };
}
