/**
 * Cross-site request forgery guard for every state-changing request: refused unless the browser says
 * Sec-Fetch-Site: same-origin, or the Origin header equals PUBLIC_ORIGIN. (Hono's csrf() checks form
 * posts only; our API takes JSON.) Requests without either header (curl, server-to-server) carry no
 * ambient browser credentials worth stealing only if they also carry no cookie, so those are refused
 * too when they hold a session cookie.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function sameOriginOnly(publicOrigin: string, sessionCookieName: string): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const site = c.req.header("sec-fetch-site");
    const origin = c.req.header("origin");
    if (site === "same-origin" || (origin !== undefined && origin === publicOrigin)) return next();
    if (site === undefined && origin === undefined) {
      const cookie = c.req.header("cookie") ?? "";
      const hasSession = cookie.split(";").some((part) => part.trim().startsWith(`${sessionCookieName}=`));
      if (!hasSession) return next();
    }
    throw new ApiError("forbidden", "Cross-origin request refused");
  };
}
