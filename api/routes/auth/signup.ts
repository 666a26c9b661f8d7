/**
 * The signup wizard's server side (docs/product.md section 2, Signup; docs/product.md section 10: a real e-mail code).
 * Step 1 holds the username and e-mails a code, step 2 checks it, steps 3 and 4 are sent together
 * at the end: the account exists only when every step has passed.
 */
import { Hono } from "hono";
import { AFTER_SIGN_IN, AUTH_TEXT, SignupCompleteSchema, SignupStartSchema, SignupUsernameSchema, SignupVerifySchema } from "#core/schemas/auth.ts";
import { LIMITS } from "#core/limits.ts";
import { newId } from "#db/ids.ts";
import { emailVerificationCodes, upgradeRequests } from "#db/schema.ts";
import { eq } from "drizzle-orm";
import { hashPassword } from "../../auth/password.ts";
import { assertPasswordNotGuessable } from "../../auth/password-policy.ts";
import { beginSession } from "../../auth/sign-in.ts";
import type { AppDeps, AppEnv } from "../../context.ts";
import { pagesOrigin } from "../../env.server.ts";
import { ApiError, fieldError } from "../../errors.ts";
import { accountConflict, createAccount, publishInitialPage } from "../../services/accounts.ts";
import { throughTarget } from "#renderer/publish-target.ts";
import { alreadyRegisteredMail, signupCodeMail } from "../../services/auth-mail.ts";
import { assertNotThrottled, clearFailures, emailSubject, recordFailure } from "../../services/auth-throttle.ts";
import { checkSignupCode, issueSignupCode, latestSignupCode, resendWaitMs } from "../../services/email-codes.ts";
import {
  attemptState,
  emailHasAccount,
  findAttempt,
  holdSignup,
  holdUsername,
  requireAttempt,
  touchAttempt,
  type SignupAttempt,
} from "../../services/signup.ts";
import { schemaJson } from "../../services/json-input.ts";
import { referrerFromCookie } from "../../services/affiliate-referral.ts";
import { signupCheckoutUrl } from "../../services/billing.ts";
import { jsonBody } from "../../validate.ts";
import { clearSignupCookie, readSignupCookie, setSignupCookie, take, type AuthLimiters } from "./shared.ts";
import { log } from "../../log.ts";

export function signupRoutes(deps: AppDeps, limiters: AuthLimiters) {
  const { db, env, mailer, now } = deps;
  const signUpKey = (email: string) => ({ action: "sign_up" as const, subject: emailSubject(email) });

  /**
   * E-mails a fresh code. An address that already has an account gets a note saying so instead,
   * and the attempt carries a code that matches nothing: the answer is the same either way, so
   * signup never tells anyone which addresses are registered.
   */
  async function sendCode(attempt: SignupAttempt & { email: string }) {
    const at = now();
    const registered = emailHasAccount(db, attempt.email);
    const code = issueSignupCode(db, attempt, at, { decoy: registered });
    try {
      await mailer.send(registered ? alreadyRegisteredMail(attempt.email, env.PUBLIC_ORIGIN) : signupCodeMail(attempt.email, code, LIMITS.OTP_TTL_MS));
    } catch (err) {
      // Not sent, so not counted: the owner may ask again at once.
      db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.signupAttemptId, attempt.id)).run();
      log().error({ err }, "Sending a signup code failed");
      throw new ApiError("internal", AUTH_TEXT.codeSendFailed);
    }
  }

  const stateOf = (attempt: SignupAttempt) => ({ ...attemptState(attempt), resendInMs: resendWaitMs(db, attempt.id, now()) });

  return (
    new Hono<AppEnv>()
      // GET /api/auth/signup - this browser's signup in progress (after a reload or a return from Google), or null
      .get("/", (c) => {
        const attempt = findAttempt(db, readSignupCookie(c, env), now());
        return c.json({ attempt: attempt ? stateOf(attempt) : null });
      })

      // POST /api/auth/signup/start - step 1: hold the username for this signup and e-mail a code
      .post("/start", jsonBody(SignupStartSchema), async (c) => {
        take(c, limiters.mail, env.TRUST_PROXY);
        const { username, email } = c.req.valid("json");
        const at = now();
        assertNotThrottled(db, [signUpKey(email)], at);
        const { attempt, token } = holdSignup(db, { token: readSignupCookie(c, env), username, email }, at);
        setSignupCookie(c, env, token);
        if (!attempt.emailVerifiedAt) {
          const live = latestSignupCode(db, attempt.id);
          const usable = live && live.expiresAt.getTime() > at.getTime() && live.attempts < LIMITS.OTP_MAX_ATTEMPTS;
          // Back and Continue with the same address keeps the code already sent (and its resend clock).
          if (!usable && resendWaitMs(db, attempt.id, at) === 0) await sendCode({ ...attempt, email });
        }
        return c.json(stateOf(attempt));
      })

      // POST /api/auth/signup/resend - a new code, at most once a minute
      .post("/resend", async (c) => {
        take(c, limiters.mail, env.TRUST_PROXY);
        const at = now();
        const attempt = requireAttempt(db, readSignupCookie(c, env), at);
        if (!attempt.email) throw new ApiError("bad_request", AUTH_TEXT.emailRequired);
        if (attempt.emailVerifiedAt) return c.json(stateOf(attempt));
        assertNotThrottled(db, [signUpKey(attempt.email)], at);
        const wait = resendWaitMs(db, attempt.id, at);
        if (wait > 0) {
          throw new ApiError("rate_limited", AUTH_TEXT.codeResendWait(Math.ceil(wait / 1000)), {
            headers: { "Retry-After": String(Math.ceil(wait / 1000)) },
          });
        }
        touchAttempt(db, attempt.id, at);
        await sendCode({ ...attempt, email: attempt.email });
        return c.json(stateOf(attempt));
      })

      // POST /api/auth/signup/verify - step 2: the six-digit code from the e-mail
      .post("/verify", jsonBody(SignupVerifySchema), (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const at = now();
        const attempt = requireAttempt(db, readSignupCookie(c, env), at);
        if (!attempt.email) throw new ApiError("bad_request", AUTH_TEXT.emailRequired);
        if (attempt.emailVerifiedAt) return c.json(stateOf(attempt));
        const key = signUpKey(attempt.email);
        assertNotThrottled(db, [key], at);
        const result = checkSignupCode(db, attempt.id, c.req.valid("json").code, at);
        if (result === "expired") throw new ApiError("bad_request", AUTH_TEXT.codeExpired, { fields: { code: AUTH_TEXT.codeExpired } });
        if (result === "wrong") {
          recordFailure(db, key, at);
          throw new ApiError("bad_request", AUTH_TEXT.codeInvalidRetry, { fields: { code: AUTH_TEXT.codeInvalidRetry } });
        }
        clearFailures(db, key);
        touchAttempt(db, attempt.id, at, { emailVerifiedAt: at });
        return c.json(stateOf({ ...attempt, emailVerifiedAt: at }));
      })

      // POST /api/auth/signup/username - a signup begun with Google picks its username
      .post("/username", jsonBody(SignupUsernameSchema), (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const at = now();
        const attempt = requireAttempt(db, readSignupCookie(c, env), at);
        if (!attempt.googleSub) throw new ApiError("bad_request", "Enter your email address to continue");
        return c.json(stateOf(holdUsername(db, attempt, c.req.valid("json").username, at)));
      })

      // POST /api/auth/signup/complete - steps 3 and 4: password, plan and terms; creates the account and signs in
      .post("/complete", schemaJson(SignupCompleteSchema), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const token = readSignupCookie(c, env);
        const body = c.req.valid("json");
        const first = requireAttempt(db, token, now());
        if (!first.username) throw fieldError("bad_request", "username", "Please choose a username");
        if (!first.email || !first.emailVerifiedAt) throw new ApiError("bad_request", AUTH_TEXT.codeInvalid, { fields: { code: AUTH_TEXT.codeInvalid } });
        if (!first.googleSub && !body.password) throw new ApiError("validation_failed", AUTH_TEXT.passwordRequired, { fields: { password: AUTH_TEXT.passwordRequired } });
        if (body.password) await assertPasswordNotGuessable(body.password, first, "password");
        const passwordHash = body.password ? await hashPassword(body.password) : null;

        // Looked up again after the hashing: a second submit of the same signup finds it gone.
        const at = now();
        const attempt = requireAttempt(db, token, at);
        let userId: string;
        try {
          ({ userId } = createAccount(db, {
            email: attempt.email!,
            username: attempt.username!,
            passwordHash,
            emailVerified: true,
            googleSub: attempt.googleSub,
            signupAttemptId: attempt.id,
            referredBy: referrerFromCookie(db, c, env.PUBLIC_ORIGIN),
            now: at,
          }));
        } catch (err) {
          throw accountConflict(err) ?? err;
        }
        if (body.plan === "plus") {
          // ADR 042: the trial starts either way; the Plus choice is kept for checkout.
          db.insert(upgradeRequests).values({ id: newId(), userId, featureKey: "plus_plan", reason: "signup", createdAt: at }).run();
        }
        // Through the publish target (ADR 129); a bucket that refuses it is logged like any failure here.
        await throughTarget(deps.target, (writer) => publishInitialPage(db, userId, { publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(env), now: at, writer })).catch((err: unknown) =>
          log().error({ err, userId }, "Error in initial page generation"),
        );
        clearSignupCookie(c, env);
        beginSession(c, deps, userId, body.rememberMe);
        // Plus goes on to checkout (ADR 085); if that cannot start, the account is still made.
        const redirect = body.plan === "plus" ? await signupCheckoutUrl(deps, userId) : AFTER_SIGN_IN;
        return c.json({ redirect, username: attempt.username! }, 201);
      })
  );
}
