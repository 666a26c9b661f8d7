/**
 * The one session middleware: reads the cookie, validates it, renews the cookie when the session was
 * extended, and exposes c.var.user / c.var.session. requireUser() guards owner routes.
 */
import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { isSecureOrigin, readCookie } from "./cookies.ts";
import { deleteSessionCookie, readSessionCookie, setSessionCookie, SIGNED_IN_HINT_COOKIE, validateSessionToken } from "./session.ts";

export function sessionMiddleware({ db, env, now }: AppDeps): MiddlewareHandler<AppEnv> {
  const secure = isSecureOrigin(env.PUBLIC_ORIGIN);
  return async (c, next) => {
    const token = readSessionCookie(c, secure);
    c.set("user", null);
    c.set("session", null);
    if (token) {
      const result = validateSessionToken(db, token, now());
      if (result) {
        c.set("user", result.user);
        c.set("session", result.session);
        if (result.renewed) setSessionCookie(c, token, result.session, secure);
      } else {
        deleteSessionCookie(c, secure);
      }
    } else if (readCookie(c, SIGNED_IN_HINT_COOKIE, secure)) {
      // The session cookie is gone (expired or cleared): the navigation hint must not outlive it.
      deleteSessionCookie(c, secure);
    }
    await next();
  };
}

/** 401 'User not authenticated' unless signed in; narrows c.var.user for the handler. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get("user")) throw new ApiError("unauthorized", "User not authenticated");
  await next();
};

export function currentUser(c: { get(key: "user"): AppEnv["Variables"]["user"] }) {
  const user = c.get("user");
  if (!user) throw new ApiError("unauthorized", "User not authenticated");
  return user;
}
