/**
 * The e-mail addresses a page's lead magnets collected (ADR 142): listed a page at a time, newest
 * first, exported, and erased one by one. Every read and write is scoped to the owner: a lead id of
 * another owner is not found, never touched.
 */
import { and, count, desc, eq, gte, lt } from "drizzle-orm";
import { LEADS_PAGE_SIZE } from "#core/analytics.ts";
import type { Db } from "#db/client.ts";
import { collectedLeads } from "#db/schema.ts";

const COLUMNS = { id: collectedLeads.id, email: collectedLeads.email, linkTitle: collectedLeads.linkTitle, createdAt: collectedLeads.createdAt };
// Newest first; leads of one millisecond keep one order from page to page.
const NEWEST_FIRST = [desc(collectedLeads.createdAt), desc(collectedLeads.id)];
const wire = (l: { id: string; email: string; linkTitle: string; createdAt: Date }) => ({ ...l, createdAt: l.createdAt.toISOString() });

/** Every lead of the owner, or of a range, newest first (the CSV export). */
export function leadsOf(db: Db, userId: string, r?: { from: Date; to: Date }) {
  const where = r ? and(eq(collectedLeads.userId, userId), gte(collectedLeads.createdAt, r.from), lt(collectedLeads.createdAt, r.to)) : eq(collectedLeads.userId, userId);
  return db
    .select(COLUMNS)
    .from(collectedLeads)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .all()
    .map(wire);
}

/** One page (1-based) of the owner's leads, newest first, with the total; a page past the end is empty. */
export function leadsPage(db: Db, userId: string, page: number) {
  const mine = eq(collectedLeads.userId, userId);
  const total = db.select({ n: count() }).from(collectedLeads).where(mine).get()?.n ?? 0;
  const leads = db
    .select(COLUMNS)
    .from(collectedLeads)
    .where(mine)
    .orderBy(...NEWEST_FIRST)
    .limit(LEADS_PAGE_SIZE)
    .offset((page - 1) * LEADS_PAGE_SIZE)
    .all()
    .map(wire);
  return { leads, page, pageSize: LEADS_PAGE_SIZE, total };
}

/** Erases one of the owner's leads; false when the owner has no lead of that id. */
export function deleteLead(db: Db, userId: string, id: string): boolean {
  return db.delete(collectedLeads).where(and(eq(collectedLeads.id, id), eq(collectedLeads.userId, userId))).run().changes > 0;
}
