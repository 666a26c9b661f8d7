/**
 * Referral attribution (ADR 084): a visit through a referral link ({origin}/?ref={referral id})
 * leaves a first-party cookie for 30 days; the signup that follows, by e-mail or with Google, reads
 * it and the new account's referred_by is set to the owner of that referral id. The last referral
 * link followed wins, as with most affiliate programmes.
 */
import { eq } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { REFERRAL_COOKIE, REFERRAL_COOKIE_DAYS, REFERRAL_PARAM, ReferralIdSchema } from "#core/schemas/affiliate.ts";
import type { Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { isSecureOrigin, readCookie, writeCookie } from "../auth/cookies.ts";

/** For the site's pages: keeps a well-formed ?ref= in the referral cookie. */
export function captureReferral(publicOrigin: string): MiddlewareHandler {
  const secure = isSecureOrigin(publicOrigin);
  return async (c, next) => {
    await next();
    if (c.req.method !== "GET" || c.req.path.startsWith("/api/")) return;
    const ref = c.req.query(REFERRAL_PARAM);
    // Set on the finished response: the site's pages are files answered with their own Response.
    if (ref && ReferralIdSchema.safeParse(ref).success) {
      writeCookie(c, REFERRAL_COOKIE, ref, secure, { maxAge: REFERRAL_COOKIE_DAYS * 86_400 });
      // A shared cache (a CDN in front of the site) must never keep this response, cookie and all,
      // and hand one referrer's cookie to every later visitor.
      c.header("Cache-Control", "private, no-store");
    }
  };
}

/** The referring owner's user id from the signup request's cookie, or null. */
export function referrerFromCookie(db: Db, c: Context, publicOrigin: string): string | null {
  const ref = readCookie(c, REFERRAL_COOKIE, isSecureOrigin(publicOrigin));
  if (!ref || !ReferralIdSchema.safeParse(ref).success) return null;
  return db.select({ userId: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.referralId, ref)).get()?.userId ?? null;
}
