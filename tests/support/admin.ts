/**
 * An admin of the operator's console for API tests: an owner given the role from the shell, with
 * two-factor on unless said, whose session is then as if signed in through the second step.
 */
import { eq } from "drizzle-orm";
import { setAdminRole } from "#api/services/admin-role.ts";
import { sessions, user2faSettings } from "#db/schema.ts";
import type { TestApp } from "./app.ts";
import { createApiOwner, type ApiOwner } from "./owner.ts";

export const turnOnTwoFactor = (t: TestApp, userId: string, backupCodes: string[] = []) =>
  t.deps.db.insert(user2faSettings).values({ userId, secretKey: "JBSWY3DPEHPK3PXP", isEnabled: true, backupCodes }).run();

/** The user's sessions now, as if each had signed in through the second step (ADR 105). */
export const passSecondFactor = (t: TestApp, userId: string) => t.deps.db.update(sessions).set({ secondFactor: true }).where(eq(sessions.userId, userId)).run();

export function createApiAdmin(t: TestApp, opts: { twoFactor?: boolean; backupCodes?: string[] } = {}): ApiOwner {
  const o = createApiOwner(t, "plus");
  const granted = setAdminRole(t.deps.db, { email: `${o.username}@example.com`, admin: true, actor: "shell (test)", now: new Date() });
  if (granted.outcome !== "changed") throw new Error(`the admin role was not granted: ${granted.outcome}`);
  if (opts.twoFactor !== false) {
    turnOnTwoFactor(t, o.userId, opts.backupCodes);
    passSecondFactor(t, o.userId);
  }
  return o;
}
