/**
 * The operator's record (ADR 105): every admin action and every use of the admin shell command, with
 * who, what, which target, when, why, and the fields changed before and after. Rows are only ever
 * added; the database refuses UPDATE and DELETE on the table.
 */
import { and, desc, eq, gte, lt, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { AdminAction } from "#core/admin.ts";
import type { Db } from "#db/client.ts";
import { adminAuditLog } from "#db/schema.ts";

export interface AuditEntryInput {
  at: Date;
  actorId: string | null;
  actor: string;
  action: AdminAction;
  targetType: "user" | "page" | "payout" | "report";
  targetId: string;
  targetLabel?: string;
  reason?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/** Call inside the transaction that makes the change, so the change and its record land together. */
export function recordAdminAction(tx: Db, e: AuditEntryInput): void {
  tx.insert(adminAuditLog)
    .values({
      at: e.at,
      actorId: e.actorId,
      actor: e.actor,
      action: e.action,
      targetType: e.targetType,
      targetId: e.targetId,
      targetLabel: e.targetLabel ?? "",
      reason: e.reason ?? "",
      before: JSON.stringify(e.before ?? {}),
      after: JSON.stringify(e.after ?? {}),
    })
    .run();
}

export interface AuditFilter {
  action?: AdminAction;
  /** Part of the actor's e-mail (or "shell"). */
  actor?: string;
  /** A target's id, or part of what it was called. */
  target?: string;
  from?: Date;
  to?: Date;
  /** Entries older than this sequence number (the next page). */
  before?: number;
  limit: number;
}

/** Case-insensitive "contains", with no pattern characters to escape (the console's searches). */
export const contains = (column: AnyColumn, part: string) => sql`instr(lower(${column}), ${part.toLowerCase()}) > 0`;

export function auditEntries(db: Db, f: AuditFilter) {
  const where: SQL[] = [];
  if (f.action) where.push(eq(adminAuditLog.action, f.action));
  if (f.actor) where.push(contains(adminAuditLog.actor, f.actor));
  if (f.target) where.push(or(eq(adminAuditLog.targetId, f.target), contains(adminAuditLog.targetLabel, f.target))!);
  if (f.from) where.push(gte(adminAuditLog.at, f.from));
  if (f.to) where.push(lt(adminAuditLog.at, f.to));
  if (f.before !== undefined) where.push(lt(adminAuditLog.seq, f.before));
  return db
    .select()
    .from(adminAuditLog)
    .where(and(...where))
    .orderBy(desc(adminAuditLog.seq))
    .limit(f.limit)
    .all()
    .map((r) => ({ ...r, at: r.at.toISOString(), before: JSON.parse(r.before) as Record<string, unknown>, after: JSON.parse(r.after) as Record<string, unknown> }));
}

export type AuditEntry = ReturnType<typeof auditEntries>[number];
