/**
 * Cash payout requests as the operator's console sees them (ADR 106): the queue, what each owner's
 * balance went through, and the one decision per request: paid (with the payment's reference) or
 * rejected (with a reason, and the amount back in the balance). The decision, the balance, the record
 * and the owner's e-mail are one transaction; a request already decided refuses a second decision,
 * so two admins acting at once get one result.
 */
import { and, desc, eq, inArray, type SQL } from "drizzle-orm";
import { ADMIN_TEXTS } from "#core/admin.ts";
import type { PayoutDecision } from "#core/schemas/admin.ts";
import { durably, type Db } from "#db/client.ts";
import { balanceRenewals, payoutRequests, referralEarnings, userProfiles, users } from "#db/schema.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { runJobs } from "../jobs/runner.ts";
import { recordAdminAction } from "./admin-audit.ts";
import { payoutPaidMail, payoutRejectedMail } from "./billing-mail.ts";
import { addToBalance } from "./rewards-balance.ts";

const columns = {
  payout: payoutRequests,
  username: userProfiles.username,
  accountEmail: users.email,
  balanceCents: userProfiles.rewardsBalanceCents,
};

function view(r: { payout: typeof payoutRequests.$inferSelect; username: string; accountEmail: string; balanceCents: number }) {
  const p = r.payout;
  return {
    id: p.id,
    userId: p.userId,
    username: r.username,
    accountEmail: r.accountEmail,
    requestedAmountCents: p.requestedAmountCents,
    processingFeeCents: p.processingFeeCents,
    netAmountCents: p.netAmountCents,
    payoutEmail: p.payoutEmail,
    status: p.status,
    /** The owner's eligibility when they asked; null for requests made before it was kept. */
    eligibilityAtRequest: p.eligibilityAtRequest === null ? null : (JSON.parse(p.eligibilityAtRequest) as Record<string, unknown>),
    paymentReference: p.paymentReference,
    rejectionReason: p.rejectionReason,
    decidedAt: p.decidedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    balanceCents: r.balanceCents,
  };
}
export type AdminPayout = ReturnType<typeof view>;

const joined = (db: Db, where: SQL | undefined) =>
  db
    .select(columns)
    .from(payoutRequests)
    .innerJoin(users, eq(users.id, payoutRequests.userId))
    .innerJoin(userProfiles, eq(userProfiles.userId, payoutRequests.userId))
    .where(where);

/** The decided requests the console lists; older ones stay in the record and the owner's history. */
const DECIDED_SHOWN = 200;

/** Pending requests oldest first (the order they are paid in); decided ones newest first. */
export function payoutQueue(db: Db, which: "pending" | "decided"): AdminPayout[] {
  return which === "pending"
    ? joined(db, eq(payoutRequests.status, "pending")).orderBy(payoutRequests.createdAt).all().map(view)
    : joined(db, inArray(payoutRequests.status, ["completed", "rejected"])).orderBy(desc(payoutRequests.decidedAt)).limit(DECIDED_SHOWN).all().map(view);
}

export interface BalanceEntry {
  at: string;
  kind: "commission" | "payout" | "payout_returned" | "renewal";
  /** Positive adds to the balance, negative takes from it. */
  cents: number;
  note: string;
}

/** Everything that moved an owner's rewards balance, newest first. */
export function balanceHistory(db: Db, userId: string): BalanceEntry[] {
  const entries: BalanceEntry[] = [];
  for (const e of db.select().from(referralEarnings).where(eq(referralEarnings.referrerId, userId)).all())
    entries.push({ at: e.createdAt.toISOString(), kind: "commission", cents: e.commissionCents, note: `20% of a ${e.billingPeriod} payment` });
  for (const p of db.select().from(payoutRequests).where(eq(payoutRequests.userId, userId)).all()) {
    entries.push({ at: p.createdAt.toISOString(), kind: "payout", cents: -p.requestedAmountCents, note: `Cash payout to ${p.payoutEmail}` });
    if (p.status === "rejected" && p.decidedAt) entries.push({ at: p.decidedAt.toISOString(), kind: "payout_returned", cents: p.requestedAmountCents, note: "Payout rejected" });
  }
  for (const r of db.select().from(balanceRenewals).where(eq(balanceRenewals.userId, userId)).all())
    entries.push({ at: r.createdAt.toISOString(), kind: "renewal", cents: -r.costCents, note: `${r.months} ${r.months === 1 ? "month" : "months"} of Plus` });
  return entries.sort((a, b) => b.at.localeCompare(a.at));
}

export function adminPayout(db: Db, id: string): (AdminPayout & { history: BalanceEntry[] }) | null {
  const row = joined(db, eq(payoutRequests.id, id)).get();
  return row ? { ...view(row), history: balanceHistory(db, row.payout.userId) } : null;
}

export async function decidePayout(deps: AppDeps, admin: { id: string; email: string }, id: string, decision: PayoutDecision): Promise<AdminPayout> {
  const at = deps.now();
  const result = durably(deps.db, (tx) => {
    const row = joined(tx, eq(payoutRequests.id, id)).get();
    if (!row) throw new ApiError("not_found", ADMIN_TEXTS.payoutNotFound);
    const paid = decision.decision === "paid";
    const changed = tx
      .update(payoutRequests)
      .set({
        status: paid ? "completed" : "rejected",
        paymentReference: paid ? decision.reference : null,
        rejectionReason: paid ? null : decision.reason,
        decidedAt: at,
        decidedBy: admin.id,
      })
      .where(and(eq(payoutRequests.id, id), eq(payoutRequests.status, "pending")))
      .run();
    if (changed.changes !== 1) throw new ApiError("conflict", ADMIN_TEXTS.payoutDecided);
    const p = row.payout;
    if (!paid) addToBalance(tx, p.userId, p.requestedAmountCents);
    const balanceCents = tx.select({ b: userProfiles.rewardsBalanceCents }).from(userProfiles).where(eq(userProfiles.userId, p.userId)).get()!.b;
    recordAdminAction(tx, {
      at,
      actorId: admin.id,
      actor: admin.email,
      action: paid ? "payout.paid" : "payout.rejected",
      targetType: "payout",
      targetId: p.id,
      targetLabel: `${row.username}: ${p.requestedAmountCents} cents to ${p.payoutEmail}`,
      reason: paid ? "" : decision.reason,
      before: { status: p.status, balanceCents: row.balanceCents },
      after: paid ? { status: "completed", paymentReference: decision.reference, balanceCents } : { status: "rejected", balanceCents },
    });
    const mail = paid
      ? payoutPaidMail(row.accountEmail, { requestedCents: p.requestedAmountCents, netCents: p.netAmountCents, payoutEmail: p.payoutEmail, reference: decision.reference })
      : payoutRejectedMail(row.accountEmail, { requestedCents: p.requestedAmountCents, reason: decision.reason, balanceCents });
    enqueueJob(tx, { kind: "mail", payload: mail }, at);
    return joined(tx, eq(payoutRequests.id, id)).get()!;
  });
  await runJobs(deps);
  return view(result);
}
