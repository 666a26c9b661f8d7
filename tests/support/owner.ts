/**
 * An owner for API tests: an account and a session made straight in the test app's database, and a
 * request helper that sends the session cookie with same-origin headers.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { createSession, SESSION_COOKIE } from "#api/auth/session.ts";
import { createAccount } from "#api/services/accounts.ts";
import { userProfiles } from "#db/schema.ts";
import { sameOrigin, type TestApp } from "./app.ts";
import { asFreshTab } from "./revisions.ts";

export interface ApiOwner {
  userId: string;
  username: string;
  cookie: string;
  /** app.request with this owner's cookie and same-origin headers; body is sent as JSON. */
  call(method: string, path: string, body?: unknown): Promise<Response>;
  /** `call` as an up-to-date dashboard tab: a write carries the current revision of what it changes (ADR 068). */
  edit(method: string, path: string, body?: unknown): Promise<Response>;
}

export type OwnerPlan = "trial" | "lite" | "plus";

export function createApiOwner(t: TestApp, plan: OwnerPlan = "trial"): ApiOwner {
  const username = `owner_${randomBytes(4).toString("hex")}`;
  // The app's clock: a test that injects one makes its owners at its own time.
  const now = t.deps.now();
  const { userId } = createAccount(t.deps.db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now });
  const db = t.deps.db;
  if (plan !== "trial") db.update(userProfiles).set({ trialEndsAt: now }).where(eq(userProfiles.userId, userId)).run();
  if (plan === "plus") {
    db.update(userProfiles)
      .set({ planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(now.getTime() + 30 * 86_400_000) })
      .where(eq(userProfiles.userId, userId))
      .run();
  }
  const { token } = createSession(db, userId, { persistent: true, now });
  const cookie = `${SESSION_COOKIE}=${token}`;
  const call = (method: string, path: string, body?: unknown) =>
    t.app.request(path, {
      method,
      headers: sameOrigin({ Cookie: cookie }),
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
  return {
    userId,
    username,
    cookie,
    call: async (method, path, body) => call(method, path, body),
    async edit(method, path, body) {
      const fresh = asFreshTab(db, userId, method, path, body);
      return call(method, fresh.path, fresh.body);
    },
  };
}
