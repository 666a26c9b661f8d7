/**
 * Forgot password, the reset link's page, and changing the password from account settings. Every
 * password is held to the one policy (decisions.md), and every change ends all sessions.
 */
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { AUTH_LIMITS, AUTH_TEXT, EmailOnlySchema, LinkTokenSchema, PasswordChangeSchema, ResetPasswordSchema } from "#core/schemas/auth.ts";
import { users } from "#db/schema.ts";
import { currentUser, requireUser } from "../../auth/middleware.ts";
import { confirmPassword } from "../../auth/confirm-identity.ts";
import { hashPassword } from "../../auth/password.ts";
import { assertPasswordNotGuessable, personalWordsOf } from "../../auth/password-policy.ts";
import { invalidateUserSessions } from "../../auth/session.ts";
import { assertNotSuspended, beginSession, endSession } from "../../auth/sign-in.ts";
import type { AppDeps, AppEnv } from "../../context.ts";
import { ApiError } from "../../errors.ts";
import { passwordChangedMail, passwordResetMail } from "../../services/auth-mail.ts";
import { assertNotThrottled, clearFailures, emailSubject, recordFailure, type ThrottleKey } from "../../services/auth-throttle.ts";
import { completeReset, issueResetToken, resetTokenOwner } from "../../services/password-reset.ts";
import { jsonBody, query } from "../../validate.ts";
import { take, type AuthLimiters } from "./shared.ts";

export function passwordRoutes(deps: AppDeps, limiters: AuthLimiters) {
  const { db, env, mailer, now } = deps;

  /** Mail that need not hold up the answer: sent after it, failures logged. */
  const sendLater = (message: Parameters<typeof mailer.send>[0], what: string) => {
    void mailer.send(message).catch((err) => console.error(`Sending ${what} failed`, err));
  };

  return (
    new Hono<AppEnv>()
      // POST /api/auth/forgot-password - e-mails a reset link; the same answer, in the same time, whether or not the account exists
      .post("/forgot-password", jsonBody(EmailOnlySchema), (c) => {
        take(c, limiters.mail, env.TRUST_PROXY);
        const { email } = c.req.valid("json");
        const at = now();
        const key: ThrottleKey = { action: "reset", subject: emailSubject(email) };
        assertNotThrottled(db, [key], at);
        // Every request counts: at most 5 reset e-mails per address per 15 minutes.
        recordFailure(db, key, at);
        const user = db.select({ id: users.id, email: users.email, suspendedAt: users.suspendedAt }).from(users).where(eq(users.email, email)).get();
        // A suspended account gets no link, and the answer is the one a stranger gets for an unknown address (ADR 109).
        if (user && !user.suspendedAt) {
          const token = issueResetToken(db, user.id, at);
          // Not awaited: waiting for the mail server would tell an observer that the account exists.
          sendLater(passwordResetMail(user.email, `${env.PUBLIC_ORIGIN}/auth/update-password?token=${token}`, AUTH_LIMITS.RESET_TTL_MS), "a reset link");
        }
        return c.json({ message: AUTH_TEXT.resetSent });
      })

      // GET /api/auth/reset-password?token= - whether a reset link is still good (the page says so before asking for a password)
      .get("/reset-password", query(z.object({ token: z.string().max(200).default("") })), (c) => {
        const parsed = LinkTokenSchema.safeParse(c.req.valid("query").token);
        return c.json({ valid: parsed.success && resetTokenOwner(db, parsed.data, now()) !== null });
      })

      // POST /api/auth/reset-password - sets the new password, ends every session, does not sign in
      .post("/reset-password", jsonBody(ResetPasswordSchema), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const { token, password } = c.req.valid("json");
        const owner = resetTokenOwner(db, token, now());
        if (!owner) throw new ApiError("bad_request", AUTH_TEXT.resetLinkInvalid);
        // A link issued before the suspension changes nothing: the owner already has the suspension e-mail.
        assertNotSuspended(db, owner);
        await assertPasswordNotGuessable(password, personalWordsOf(db, owner), "password");
        const hash = await hashPassword(password);
        const done = completeReset(db, token, hash, now());
        if (!done) throw new ApiError("bad_request", AUTH_TEXT.resetLinkInvalid);
        const user = db.select({ email: users.email }).from(users).where(eq(users.id, done.userId)).get();
        if (user) clearFailures(db, { action: "sign_in", subject: emailSubject(user.email) });
        endSession(c, deps);
        return c.json({ message: AUTH_TEXT.passwordUpdated });
      })

      // POST /api/auth/password - change the password (current one required); every session ends, this browser gets a new one
      .post("/password", requireUser, jsonBody(PasswordChangeSchema), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const me = currentUser(c);
        const { currentPassword, newPassword } = c.req.valid("json");
        const user = db.select().from(users).where(eq(users.id, me.id)).get();
        if (!user) throw new ApiError("unauthorized", AUTH_TEXT.notAuthenticated);
        if (!user.passwordHash) {
          throw new ApiError("bad_request", "Your account signs in with Google. Use Forgot password to set a password.");
        }
        await confirmPassword(deps, { id: user.id, passwordHash: user.passwordHash }, currentPassword, "currentPassword");
        await assertPasswordNotGuessable(newPassword, personalWordsOf(db, user.id), "newPassword");
        const hash = await hashPassword(newPassword);
        const persistent = c.get("session")?.persistent ?? true;
        // The new session is the same sign-in: it keeps whether that sign-in passed the second factor.
        const secondFactor = c.get("session")?.secondFactor === true;
        db.update(users).set({ passwordHash: hash, updatedAt: now() }).where(eq(users.id, user.id)).run();
        invalidateUserSessions(db, user.id);
        c.set("session", null);
        beginSession(c, deps, user.id, persistent, { secondFactor });
        await mailer.send(passwordChangedMail(user.email, env.PUBLIC_ORIGIN)).catch((err) => console.error("Sending a password-change notice failed", err));
        return c.json({ message: AUTH_TEXT.passwordChanged });
      })
  );
}
