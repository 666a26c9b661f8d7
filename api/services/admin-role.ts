/**
 * Granting and revoking the admin role (ADR 105). Only the shell does this (npm run admin), so no
 * screen can make its own account an admin; each change is recorded with who ran it.
 */
import { eq } from "drizzle-orm";
import { transaction, type Db } from "#db/client.ts";
import { users } from "#db/schema.ts";
import { recordAdminAction } from "./admin-audit.ts";

export type RoleChange =
  | { outcome: "unknown" }
  | { outcome: "unchanged" | "changed"; userId: string; email: string; role: "owner" | "admin" };

export function setAdminRole(db: Db, input: { email: string; admin: boolean; actor: string; now: Date }): RoleChange {
  const email = input.email.trim().toLowerCase();
  const role = input.admin ? "admin" : "owner";
  return transaction(db, (tx) => {
    const user = tx.select({ id: users.id, email: users.email, role: users.role }).from(users).where(eq(users.email, email)).get();
    if (!user) return { outcome: "unknown" as const };
    if (user.role === role) return { outcome: "unchanged" as const, userId: user.id, email: user.email, role };
    tx.update(users).set({ role, updatedAt: input.now }).where(eq(users.id, user.id)).run();
    recordAdminAction(tx, {
      at: input.now,
      actorId: null,
      actor: input.actor,
      action: input.admin ? "role.grant" : "role.revoke",
      targetType: "user",
      targetId: user.id,
      targetLabel: user.email,
      before: { role: user.role },
      after: { role },
    });
    return { outcome: "changed" as const, userId: user.id, email: user.email, role };
  });
}
