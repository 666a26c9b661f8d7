/**
 * Browser-test fixtures. `owner` creates a fresh account and a session straight in the test server's
 * database and puts the session cookie in the browser, so dashboard tests do not click through
 * signup every time (the accounts tests walk signup itself).
 */
import { test as base, expect, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { createSession, SESSION_COOKIE } from "#api/auth/session.ts";
import { hashPassword } from "#api/auth/password.ts";
import { createAccount } from "#api/services/accounts.ts";
import { LIMITS_FILE, openLimitStore, type LimitStore } from "#api/services/rate-limit.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { E2E } from "./env.ts";

export interface TestOwner {
  userId: string;
  username: string;
  email: string;
  password: string;
}

let db: Db | undefined;
export function e2eDb(): Db {
  db ??= openDatabase({ path: E2E.databasePath, migrate: false });
  return db;
}

export function uniqueUsername(prefix = "owner"): string {
  return `${prefix}_${randomBytes(4).toString("hex")}`;
}

const OWNER_PASSWORD = "Correct-horse-9!";
/** The owners' password hashed once per worker (argon2 costs about 65 ms a hash); a sign-in verifies it as usual. */
let ownerPasswordHash: Promise<string> | undefined;

export async function createOwner(opts: { username?: string; trial?: boolean; plan?: "lite" | "plus" } = {}): Promise<TestOwner> {
  const username = opts.username ?? uniqueUsername();
  const email = `${username}@example.com`;
  const password = OWNER_PASSWORD;
  const now = new Date();
  const { userId } = createAccount(e2eDb(), { email, username, passwordHash: await (ownerPasswordHash ??= hashPassword(password)), emailVerified: true, now });
  if (opts.trial === false) e2eDb().update(userProfiles).set({ trialEndsAt: now }).where(eq(userProfiles.userId, userId)).run();
  if (opts.plan === "plus") {
    e2eDb()
      .update(userProfiles)
      .set({ planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(now.getTime() + 30 * 86_400_000) })
      .where(eq(userProfiles.userId, userId))
      .run();
  }
  return { userId, username, email, password };
}

/** `secondFactor`: as if the sign-in went through the two-factor step (what the console requires, ADR 105). */
export async function signInAs(context: BrowserContext, owner: TestOwner, opts: { secondFactor?: boolean } = {}): Promise<void> {
  const { token } = createSession(e2eDb(), owner.userId, { persistent: true, now: new Date(), secondFactor: opts.secondFactor === true });
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: "localhost", path: "/", httpOnly: true, sameSite: "Lax" }]);
}

let limits: LimitStore | undefined;
/**
 * Each test starts as a new visitor. Every page in the suite calls the visitor routes from one
 * address, 127.0.0.1, and their limits (api/routes/visitor.ts: 30 at once, then one a second) are
 * per address: two workers' public-page tests spent them within ten seconds on a fast machine, and
 * the next test's report was refused with 429. The limits themselves are tested in tests/api.
 */
function freshVisitorLimits(): void {
  limits ??= openLimitStore(join(E2E.dataDir, LIMITS_FILE));
  limits.prepare("DELETE FROM buckets WHERE name IN ('visitor', 'visitor-mail')").run();
}

export const test = base.extend<{ owner: TestOwner }>({
  /**
   * Every page is left on about:blank before the context closes. The dashboard reloads itself a
   * moment after a publish; a context closed while one of its pages navigates can wait for that
   * navigation without end, so a test that finishes right after a publish would hang in teardown.
   */
  context: async ({ context }, use) => {
    freshVisitorLimits();
    await use(context);
    await Promise.all(context.pages().map((p) => p.goto("about:blank", { timeout: 10_000 }).catch(() => undefined)));
  },
  owner: async ({ context }, use) => {
    const owner = await createOwner();
    await signInAs(context, owner);
    await use(owner);
  },
});

test.afterAll(() => {
  if (db) closeDatabase(db);
  db = undefined;
  limits?.close();
  limits = undefined;
});

export { expect };

/**
 * Lift a sortable row with the keyboard, as a keyboard user does: focus its handle and press Space.
 * Resolves once the row is lifted and the sortable list listens for arrow keys. @dnd-kit's keyboard
 * sensor starts listening in a zero-delay timer after the Space that lifted the row, so an arrow
 * pressed the moment the handle shows aria-pressed could arrive before it on a busy machine (a
 * person cannot press that fast). A zero-delay timer of ours, set after that one, runs after it.
 */
export async function liftWithKeyboard(page: Page, handle: Locator): Promise<void> {
  await handle.focus();
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

/**
 * A profile edit as an up-to-date dashboard tab sends it: based on its section's revision as the API
 * answers it now (ADR 068).
 */
export async function editProfile(page: Page, path: "/api/profile/text" | "/api/profile/appearance" | "/api/profile/picture-settings", body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ path, body }) => {
      const { revisions } = await (await fetch("/api/profile")).json();
      const section = path.endsWith("/text") ? "text" : path.endsWith("/appearance") ? "appearance" : "picture";
      const r = await fetch(path, { method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...body, revision: revisions[section] }) });
      return { status: r.status, body: await r.json() };
    },
    { path, body },
  );
}
