/**
 * Signing in and out (spec section 2, Login; section 8, Sign-in and account; section 9, throttle),
 * the second step when two-factor is on, and e-mail verification for accounts not yet verified.
 */
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { AUTH_LIMITS, AUTH_TEXT, EmailOnlySchema, LoginFormSchema, SecondFactorSchema, VerifyEmailSchema } from "#core/schemas/auth.ts";
import { LIMITS } from "#core/limits.ts";
import { users } from "#db/schema.ts";
import { assertNotSuspended, beginSession, endSession, endTwoFactorChallenge, findTwoFactorChallenge, verifyCredentials } from "../../auth/sign-in.ts";
import type { AppDeps, AppEnv } from "../../context.ts";
import { ApiError } from "../../errors.ts";
import { verifyEmailMail } from "../../services/auth-mail.ts";
import {
  assertNotThrottled,
  clearFailures,
  emailSubject,
  forgiveOne,
  ipSubject,
  recordFailure,
  userSubject,
  type ThrottleKey,
} from "../../services/auth-throttle.ts";
import { clientKey } from "../../services/client-key.ts";
import { consumeVerifyLink, issueVerifyLink, lastVerifyLinkSentAt } from "../../services/email-codes.ts";
import { oidcSettings } from "../../services/oidc.ts";
import { useSecondFactor } from "../../services/two-factor.ts";
import { jsonBody } from "../../validate.ts";
import { finishFirstFactor, take, type AuthLimiters } from "./shared.ts";

export function loginRoutes(deps: AppDeps, limiters: AuthLimiters) {
  const { db, env, mailer, now } = deps;

  return (
    new Hono<AppEnv>()
      // GET /api/auth/session - whether this browser is signed in (the auth pages skip to the dashboard)
      .get("/session", (c) => c.json({ signedIn: c.get("user") !== null }))

      // GET /api/auth/providers - whether sign-in with an OpenID Connect provider is configured (`google`, its older
      // name), the button's text, and whether the provider is Google (its logo on the button; ADR 150)
      .get("/providers", (c) => {
        const s = oidcSettings(env);
        return c.json({ google: s !== null, label: s?.label ?? null, googleLogo: s?.google === true });
      })

      // POST /api/auth/login - e-mail and password; answers a session, or asks for the second factor
      .post("/login", jsonBody(LoginFormSchema), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const { email, password, rememberMe } = c.req.valid("json");
        const at = now();
        const byEmail: ThrottleKey = { action: "sign_in", subject: emailSubject(email) };
        const byAddress: ThrottleKey = { action: "sign_in", subject: ipSubject(clientKey(c, env.TRUST_PROXY)), max: AUTH_LIMITS.THROTTLE_IP_MAX_FAILURES };
        assertNotThrottled(db, [byEmail, byAddress], at);
        // Counted before the (slow) password check, so parallel guesses cannot slip past the limit;
        // a right password takes the count back.
        recordFailure(db, byEmail, at);
        recordFailure(db, byAddress, at);
        const user = await verifyCredentials(db, email, password);
        if (!user) throw new ApiError("unauthorized", AUTH_TEXT.invalidCredentials);
        clearFailures(db, byEmail);
        forgiveOne(db, byAddress);
        // Only someone who knows the password learns that the address is unverified.
        if (!user.emailVerified) {
          throw new ApiError("forbidden", AUTH_TEXT.unverifiedTitle, { details: { reason: "email_unverified", description: AUTH_TEXT.unverifiedText } });
        }
        return c.json(finishFirstFactor(c, deps, user.id, rememberMe));
      })

      // POST /api/auth/login/two-factor - the second step: a TOTP code or a backup code
      .post("/login/two-factor", jsonBody(SecondFactorSchema), (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const at = now();
        const challenge = findTwoFactorChallenge(c, deps, at);
        if (!challenge) throw new ApiError("unauthorized", AUTH_TEXT.twoFactorExpired);
        // Suspended since the first step: refused before a code is checked, so no backup code is used up.
        assertNotSuspended(db, challenge.userId);
        const key: ThrottleKey = { action: "two_factor", subject: userSubject(challenge.userId) };
        assertNotThrottled(db, [key], at);
        recordFailure(db, key, at);
        const used = useSecondFactor(db, challenge.userId, c.req.valid("json").code, at);
        if (!used) throw new ApiError("bad_request", AUTH_TEXT.codeInvalidRetry, { fields: { code: AUTH_TEXT.codeInvalidRetry } });
        clearFailures(db, key);
        endTwoFactorChallenge(c, deps, challenge.id);
        beginSession(c, deps, challenge.userId, challenge.persistent, { secondFactor: true });
        return c.json({ status: "signed_in" as const, used });
      })

      // POST /api/auth/logout - ends this session
      .post("/logout", (c) => {
        endSession(c, deps);
        return c.json({ signedOut: true });
      })

      // POST /api/auth/resend-verification - a new verification link; the same answer for any address
      .post("/resend-verification", jsonBody(EmailOnlySchema), async (c) => {
        take(c, limiters.mail, env.TRUST_PROXY);
        const { email } = c.req.valid("json");
        const at = now();
        const user = db.select().from(users).where(eq(users.email, email)).get();
        const last = user ? lastVerifyLinkSentAt(db, user.id) : null;
        const due = !last || at.getTime() - last.getTime() >= LIMITS.OTP_RESEND_INTERVAL_MS;
        if (user && !user.emailVerified && due) {
          const token = issueVerifyLink(db, user, at);
          try {
            await mailer.send(verifyEmailMail(user.email, `${env.PUBLIC_ORIGIN}/auth/verify-email?token=${token}`));
          } catch (err) {
            console.error("Sending a verification link failed", err);
            throw new ApiError("internal", AUTH_TEXT.verificationFailed);
          }
        }
        return c.json({ message: AUTH_TEXT.verificationSent });
      })

      // POST /api/auth/verify-email - the link from that e-mail (posted by the page, so mail scanners cannot use it up)
      .post("/verify-email", jsonBody(VerifyEmailSchema), (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const at = now();
        const owner = consumeVerifyLink(db, c.req.valid("json").token, at);
        if (!owner) throw new ApiError("bad_request", AUTH_TEXT.verifyLinkInvalid);
        // Only if the account still has the address the link was sent to.
        const user = db.select().from(users).where(eq(users.id, owner.userId)).get();
        if (!user || user.email !== owner.email) throw new ApiError("bad_request", AUTH_TEXT.verifyLinkInvalid);
        db.update(users).set({ emailVerified: true, updatedAt: at }).where(eq(users.id, user.id)).run();
        return c.json({ message: AUTH_TEXT.emailVerified });
      })
  );
}
