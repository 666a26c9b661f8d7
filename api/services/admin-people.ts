/**
 * Accounts as the operator's console sees them (ADR 105): search by e-mail or username, one account's
 * state, and signing it out everywhere. Nothing here reads or sets a password or a two-factor secret:
 * the console sees only whether two-factor is on.
 */
import { count, desc, eq, or } from "drizzle-orm";
import { ADMIN_TEXTS } from "#core/admin.ts";
import { transaction, type Db } from "#db/client.ts";
import { pageReports, sessions, user2faSettings, userProfiles, users } from "#db/schema.ts";
import { ApiError } from "../errors.ts";
import { contains, recordAdminAction } from "./admin-audit.ts";

/** How many accounts a search lists. */
const SEARCH_SHOWN = 25;

/** `q` is checked by PeopleQuerySchema: trimmed, at least 2 characters. */
export function searchPeople(db: Db, q: string) {
  return db
    .select({ id: users.id, email: users.email, username: userProfiles.username, role: users.role, planType: userProfiles.planType, createdAt: users.createdAt })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(or(contains(users.email, q), contains(userProfiles.username, q)))
    .orderBy(desc(users.createdAt))
    .limit(SEARCH_SHOWN)
    .all()
    .map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function personOf(db: Db, userId: string) {
  const row = db
    .select({
      user: { id: users.id, email: users.email, role: users.role, createdAt: users.createdAt, lastSignInAt: users.lastSignInAt, suspendedAt: users.suspendedAt, suspensionReason: users.suspensionReason },
      profile: userProfiles,
    })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, userId))
    .get();
  if (!row) throw new ApiError("not_found", ADMIN_TEXTS.accountNotFound);
  const p = row.profile;
  const twoFactor = db.select({ on: user2faSettings.isEnabled }).from(user2faSettings).where(eq(user2faSettings.userId, userId)).get()?.on ?? false;
  const signedInSessions = db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)).get()!.n;
  const reports = db.select({ n: count() }).from(pageReports).where(eq(pageReports.reportedUserId, userId)).get()!.n;
  return {
    id: row.user.id,
    email: row.user.email,
    username: p.username,
    role: row.user.role,
    planType: p.planType,
    subscriptionStatus: p.subscriptionStatus,
    currentPeriodEnd: iso(p.currentPeriodEndDate),
    trialEndsAt: iso(p.trialEndsAt),
    createdAt: row.user.createdAt.toISOString(),
    lastSignInAt: iso(row.user.lastSignInAt),
    lastPublishedAt: iso(p.lastPublishedAt),
    twoFactorOn: twoFactor,
    rewardsBalanceCents: p.rewardsBalanceCents,
    sessions: signedInSessions,
    reports,
    suspendedAt: iso(row.user.suspendedAt),
    suspensionReason: row.user.suspendedAt ? row.user.suspensionReason : null,
    pageSuspendedAt: iso(p.pageSuspendedAt),
  };
}
export type AdminPerson = ReturnType<typeof personOf>;

/** Ends every session of the account (a stolen cookie, a departing employee), recorded. */
export function signOutEverywhere(db: Db, admin: { id: string; email: string }, userId: string, reason: string, now: Date) {
  return transaction(db, (tx) => {
    const user = tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
    if (!user) throw new ApiError("not_found", ADMIN_TEXTS.accountNotFound);
    const ended = tx.delete(sessions).where(eq(sessions.userId, userId)).run().changes;
    recordAdminAction(tx, {
      at: now,
      actorId: admin.id,
      actor: admin.email,
      action: "account.sign_out_everywhere",
      targetType: "user",
      targetId: userId,
      targetLabel: user.email,
      reason,
      before: { sessions: ended },
      after: { sessions: 0 },
    });
    return { ended };
  });
}
