/**
 * Account settings' server side: two-factor setup and removal, the list of active sessions with
 * "sign out everywhere else", and the account itself (shown, and deleted with its every row and file).
 */
import { and, eq, ne } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { AUTH_TEXT, DeleteAccountSchema, TwoFactorChangeSchema, TwoFactorEnableSchema, TwoFactorSetupSchema } from "#core/schemas/auth.ts";
import { IdParamSchema } from "#core/dashboard-schemas.ts";
import { BILLING_MESSAGES } from "#core/schemas/billing.ts";
import { sessions, userProfiles, users } from "#db/schema.ts";
import { withPageLock } from "#renderer/publish.ts";
import { confirmIdentity, confirmPassword } from "../../auth/confirm-identity.ts";
import { currentUser, requireUser } from "../../auth/middleware.ts";
import { invalidateUserSessions, listUserSessions, markSecondFactor } from "../../auth/session.ts";
import { endSession } from "../../auth/sign-in.ts";
import type { AppDeps, AppEnv } from "../../context.ts";
import { ApiError } from "../../errors.ts";
import { deleteAccount } from "../../services/account-deletion.ts";
import { runJobs } from "../../jobs/runner.ts";
import { pagesOrigin } from "../../env.server.ts";
import { endSubscriptionForDeletion, subscriptionToEnd } from "../../services/billing.ts";
import { accountDeletedMail, backupCodesRenewedMail, twoFactorChangedMail } from "../../services/auth-mail.ts";
import { assertNotThrottled, clearFailures, recordFailure, userSubject, type ThrottleKey } from "../../services/auth-throttle.ts";
import { beginSetup, confirmSetup, disableTwoFactor, renewBackupCodes, twoFactorStatus, useSecondFactor } from "../../services/two-factor.ts";
import { jsonBody, params } from "../../validate.ts";
import { take, type AuthLimiters } from "./shared.ts";

export function securityRoutes(deps: AppDeps, limiters: AuthLimiters) {
  const { db, env, mailer, now } = deps;

  const notify = (message: Parameters<typeof mailer.send>[0]) =>
    mailer.send(message).catch((err) => console.error("Sending a security notice failed", err));

  /** Wrong codes count against the owner like wrong passwords: 5, then 15 minutes. */
  const twoFactorKey = (userId: string): ThrottleKey => ({ action: "two_factor", subject: userSubject(userId) });
  const wrongCode = () => new ApiError("bad_request", AUTH_TEXT.codeInvalidRetry, { fields: { code: AUTH_TEXT.codeInvalidRetry } });

  /**
   * Turning two-factor off and making new backup codes: two-factor must be on, then the password
   * (or a fresh sign-in, ADR 046), then a code from the app or a backup code (which is used up).
   */
  async function confirmChange(c: Context<AppEnv>, { password, code }: { password?: string; code: string }): Promise<void> {
    const user = currentUser(c);
    if (!twoFactorStatus(db, user.id, now()).enabled) throw new ApiError("conflict", AUTH_TEXT.twoFactorNotOn);
    await confirmIdentity(c, deps, password);
    const at = now();
    const key = twoFactorKey(user.id);
    assertNotThrottled(db, [key], at);
    recordFailure(db, key, at);
    if (!useSecondFactor(db, user.id, code, at)) throw wrongCode();
    clearFailures(db, key);
  }

  return (
    new Hono<AppEnv>()
      // GET /api/auth/two-factor - enabled, setup pending, backup codes left
      .get("/two-factor", requireUser, (c) => c.json(twoFactorStatus(db, currentUser(c).id, now())))

      // POST /api/auth/two-factor/setup - after the password (ADR 046): a new server-made secret and its QR code; not enabled until a code proves it
      .post("/two-factor/setup", requireUser, jsonBody(TwoFactorSetupSchema), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const user = currentUser(c);
        if (twoFactorStatus(db, user.id, now()).enabled) throw new ApiError("conflict", AUTH_TEXT.twoFactorAlreadyOn);
        await confirmIdentity(c, deps, c.req.valid("json").password);
        return c.json(await beginSetup(db, user, now()));
      })

      // POST /api/auth/two-factor/enable - a code from the app turns it on; answers the 8 backup codes, shown this once
      .post("/two-factor/enable", requireUser, jsonBody(TwoFactorEnableSchema), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const user = currentUser(c);
        const at = now();
        const status = twoFactorStatus(db, user.id, at);
        if (status.enabled) throw new ApiError("conflict", AUTH_TEXT.twoFactorAlreadyOn);
        if (!status.pendingSetup) throw new ApiError("bad_request", AUTH_TEXT.twoFactorNotPending);
        const key = twoFactorKey(user.id);
        assertNotThrottled(db, [key], at);
        recordFailure(db, key, at);
        const backupCodes = confirmSetup(db, user.id, c.req.valid("json").code, at);
        if (!backupCodes) throw wrongCode();
        clearFailures(db, key);
        // This sign-in has now shown the second factor; the account's other sessions have not (ADR 105).
        const current = c.get("session");
        if (current) markSecondFactor(db, current.id);
        await notify(twoFactorChangedMail(user.email, true));
        return c.json({ backupCodes });
      })

      // POST /api/auth/two-factor/disable - the password and a current code (or a backup code); clears the secret and the codes
      .post("/two-factor/disable", requireUser, jsonBody(TwoFactorChangeSchema), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const user = currentUser(c);
        await confirmChange(c, c.req.valid("json"));
        disableTwoFactor(db, user.id, now());
        await notify(twoFactorChangedMail(user.email, false));
        return c.json(twoFactorStatus(db, user.id, now()));
      })

      // POST /api/auth/two-factor/backup-codes - the password and a current code: 8 new backup codes, shown this once; the old ones stop working
      .post("/two-factor/backup-codes", requireUser, jsonBody(TwoFactorChangeSchema), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const user = currentUser(c);
        await confirmChange(c, c.req.valid("json"));
        const backupCodes = renewBackupCodes(db, user.id, now());
        await notify(backupCodesRenewedMail(user.email, env.PUBLIC_ORIGIN));
        return c.json({ backupCodes });
      })

      // GET /api/auth/sessions - the owner's active sessions, this one marked
      .get("/sessions", requireUser, (c) => {
        const user = currentUser(c);
        const current = c.get("session")?.id;
        const at = now().getTime();
        const list = listUserSessions(db, user.id)
          .filter((s) => s.expiresAt.getTime() > at)
          .map((s) => ({
            id: s.id,
            userAgent: s.userAgent,
            createdAt: s.createdAt.toISOString(),
            lastSeenAt: (s.lastSeenAt ?? s.createdAt).toISOString(),
            current: s.id === current,
          }));
        return c.json({ sessions: list });
      })

      // POST /api/auth/sessions/revoke-others - sign out everywhere else
      .post("/sessions/revoke-others", requireUser, (c) => {
        const user = currentUser(c);
        const current = c.get("session");
        if (!current) throw new ApiError("unauthorized", AUTH_TEXT.notAuthenticated);
        const before = db.select({ id: sessions.id }).from(sessions).where(and(eq(sessions.userId, user.id), ne(sessions.id, current.id))).all().length;
        invalidateUserSessions(db, user.id, current.id);
        return c.json({ ended: before });
      })

      // DELETE /api/auth/sessions/:id - sign out one other session of the owner's
      .delete("/sessions/:id", requireUser, params(IdParamSchema), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        if (id === c.get("session")?.id) throw new ApiError("bad_request", "Use Sign out to end this session.");
        const ended = db.delete(sessions).where(and(eq(sessions.id, id), eq(sessions.userId, user.id))).run().changes;
        if (!ended) throw new ApiError("not_found", "Session not found");
        return c.json({ ended: 1 });
      })

      // GET /api/auth/account - what the Account tab shows
      .get("/account", requireUser, (c) => {
        const user = currentUser(c);
        const row = db
          .select({ email: users.email, passwordHash: users.passwordHash, googleSub: users.googleSub, createdAt: users.createdAt, username: userProfiles.username })
          .from(users)
          .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
          .where(eq(users.id, user.id))
          .get();
        if (!row) throw new ApiError("not_found", "Profile not found");
        return c.json({
          email: row.email,
          username: row.username,
          hasPassword: row.passwordHash !== null,
          googleLinked: row.googleSub !== null,
          createdAt: row.createdAt.toISOString(),
          /** Deleting the account ends this subscription now (ADR 049): the dialog warns first. */
          subscriptionEndsOnDelete: subscriptionToEnd(deps, user.id) !== null,
        });
      })

      // DELETE /api/auth/account - deletes the account, every row and every published file; needs the password (or the username for
      // Google-only accounts), and ends a subscription at the provider first (ADR 049): {endSubscription: true} says the owner saw that
      .delete("/account", requireUser, jsonBody(DeleteAccountSchema), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const user = currentUser(c);
        const { password, confirmUsername, endSubscription } = c.req.valid("json");
        const row = db
          .select({ email: users.email, passwordHash: users.passwordHash, username: userProfiles.username })
          .from(users)
          .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
          .where(eq(users.id, user.id))
          .get();
        if (!row) throw new ApiError("not_found", "Profile not found");
        const subscription = subscriptionToEnd(deps, user.id);
        // A dialog opened before a subscription started never warned about it: it must ask again.
        if (subscription && endSubscription !== true) {
          throw new ApiError("conflict", BILLING_MESSAGES.deleteNeedsSubscriptionEnd, { details: { subscription: true } });
        }
        if (row.passwordHash) await confirmPassword(deps, { id: user.id, passwordHash: row.passwordHash }, password, "password");
        else if ((confirmUsername ?? "").trim().toLowerCase() !== row.username) {
          throw new ApiError("validation_failed", AUTH_TEXT.deleteUsernameMismatch, { fields: { confirmUsername: AUTH_TEXT.deleteUsernameMismatch } });
        }
        // First at the provider (a failure stops here with nothing changed), and outside the page lock:
        // the provider's events may re-render the page, which takes the lock too.
        const subscriptionEnded = await endSubscriptionForDeletion(deps, user.id);
        // Under the page lock, so a publish or a scheduled rebuild cannot write the page back. The
        // account is gone once its rows are; a bucket's copies and the CDN's go through the jobs
        // queue, retried until they are gone (ADR 129, 133).
        await withPageLock(user.id, async () => deleteAccount(db, user.id, { publishedDir: env.PUBLISHED_DIR, origin: pagesOrigin(env), now: deps.now() }));
        await runJobs(deps);
        c.set("session", null);
        endSession(c, deps);
        await notify(accountDeletedMail(row.email, row.username, { subscriptionEnded }));
        return c.json({ deleted: true });
      })
  );
}
