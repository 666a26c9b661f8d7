/**
 * Keeps the signed-in hint cookie (core/signed-in-hint.ts, ADR 051) in step with the session on every
 * site page the server answers. The site's HTML is static, so the page learns the visitor's state
 * from a cookie set on the very response that delivers it: the head script reads it before first
 * paint, and no sign-in, sign-out or expiry path elsewhere has to remember to update it.
 */
import type { Context, MiddlewareHandler } from "hono";
import { SIGNED_IN_HINT_COOKIE, SIGNED_IN_HINT_VALUE } from "#core/signed-in-hint.ts";
import { clearCookie, isSecureOrigin, readCookie, writeCookie } from "./auth/cookies.ts";
import { deleteSessionCookie, readSessionCookie, setSessionCookie, validateSessionToken } from "./auth/session.ts";
import type { AppDeps } from "./context.ts";

/**
 * Middleware for site requests: after the page is chosen, an HTML answer for which `isSitePage`
 * holds gets the hint set or cleared. Requests with neither cookie cost nothing.
 */
export function signedInHint({ db, env, now }: AppDeps, isSitePage: (c: Context) => boolean): MiddlewareHandler {
  const secure = isSecureOrigin(env.PUBLIC_ORIGIN);
  return async (c, next) => {
    await next();
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return;
    if (!c.res.headers.get("content-type")?.startsWith("text/html") || !isSitePage(c)) return;
    const token = readSessionCookie(c, secure);
    const hinted = readCookie(c, SIGNED_IN_HINT_COOKIE, secure) === SIGNED_IN_HINT_VALUE;
    if (!token && !hinted) return;
    let signedIn = false;
    if (token) {
      const result = validateSessionToken(db, token, now());
      if (result) {
        signedIn = true;
        // Same as the session middleware: a renewed session gets a renewed cookie.
        if (result.renewed) setSessionCookie(c, token, result.session, secure);
      } else {
        deleteSessionCookie(c, secure);
      }
    }
    // A page in a shared cache must not carry one visitor's hint to another (no-store stays as it is).
    if (!/no-store|private/.test(c.res.headers.get("cache-control") ?? "")) c.header("Cache-Control", "private, max-age=0, must-revalidate");
    if (signedIn && !hinted) {
      // No expiry: every site page sets it again, so it only has to outlive one page view.
      writeCookie(c, SIGNED_IN_HINT_COOKIE, SIGNED_IN_HINT_VALUE, secure, { httpOnly: false });
    } else if (!signedIn && hinted) {
      clearCookie(c, SIGNED_IN_HINT_COOKIE, secure, { httpOnly: false });
    }
  };
}
