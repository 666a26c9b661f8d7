/**
 * The rewards balance: changed only by one conditional UPDATE inside the transaction that records
 * why (a commission, a payout request, a renewal), so it never goes negative. Billing credits
 * commissions here and the affiliate programme spends the balance, without either importing the other.
 */
import { and, eq, gte, sql } from "drizzle-orm";
import { commissionCents } from "#core/schemas/affiliate.ts";
import type { Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { referralEarnings, userProfiles } from "#db/schema.ts";

/** Takes `cents` from the balance only if it covers them; false (and nothing changed) when it does not. */
export function spendBalance(tx: Db, userId: string, cents: number): boolean {
  const spent = tx
    .update(userProfiles)
    .set({ rewardsBalanceCents: sql`${userProfiles.rewardsBalanceCents} - ${cents}` })
    .where(and(eq(userProfiles.userId, userId), gte(userProfiles.rewardsBalanceCents, cents)))
    .run();
  return spent.changes === 1;
}

export function addToBalance(tx: Db, userId: string, cents: number): void {
  tx.update(userProfiles).set({ rewardsBalanceCents: sql`${userProfiles.rewardsBalanceCents} + ${cents}` }).where(eq(userProfiles.userId, userId)).run();
}

/** Adds a commission for a paid invoice once; null when there is no referrer or it was already paid. */
export function creditCommission(
  tx: Db,
  referredUserId: string,
  invoiceId: string,
  paymentCents: number,
  at: Date,
  billingPeriod: "monthly" | "annual" = "monthly",
): { referrerId: string; commissionCents: number; balanceCents: number } | null {
  const referred = tx.select({ referredBy: userProfiles.referredBy }).from(userProfiles).where(eq(userProfiles.userId, referredUserId)).get();
  const referrerId = referred?.referredBy;
  if (!referrerId || referrerId === referredUserId) return null;
  const commission = commissionCents(paymentCents);
  if (commission <= 0) return null;
  const inserted = tx
    .insert(referralEarnings)
    .values({ id: newId(), referrerId, referredUserId, invoiceId, billingPeriod, paymentCents, commissionCents: commission, createdAt: at })
    .onConflictDoNothing()
    .run();
  if (inserted.changes === 0) return null;
  addToBalance(tx, referrerId, commission);
  const balance = tx.select({ b: userProfiles.rewardsBalanceCents }).from(userProfiles).where(eq(userProfiles.userId, referrerId)).get()?.b ?? 0;
  return { referrerId, commissionCents: commission, balanceCents: balance };
}
