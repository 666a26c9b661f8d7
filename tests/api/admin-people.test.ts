/**
 * People in the operator's console (ADR 105): search by e-mail or username, an account's state at a
 * glance, and signing it out everywhere, recorded. Never a password or a two-factor secret.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TEXTS } from "#core/admin.ts";
import { adminAuditLog, pageReports, userProfiles } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiAdmin } from "#tests/support/admin.ts";
import { createApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const admin = () => createApiAdmin(t, { backupCodes: ["hash-of-a-code"] });
const json = async (r: Promise<Response>) => {
  const res = await r;
  return { status: res.status, body: (await res.json()) as any };
};

describe("searching people", () => {
  it("finds accounts by part of the e-mail or username, any case, and refuses a search too short or hostile", async () => {
    const a = admin();
    const owner = createApiOwner(t, "lite");
    const part = owner.username.slice(6);
    const byName = await json(a.call("GET", `/api/admin/people?q=${encodeURIComponent(part.toUpperCase())}`));
    expect(byName.status).toBe(200);
    expect(byName.body.people).toEqual([expect.objectContaining({ id: owner.userId, email: `${owner.username}@example.com`, username: owner.username, role: "owner", planType: "lite" })]);
    expect((await json(a.call("GET", `/api/admin/people?q=${encodeURIComponent(`${owner.username}@example`)}`))).body.people).toHaveLength(1);
    // Pattern characters are plain text here.
    expect((await json(a.call("GET", `/api/admin/people?q=${encodeURIComponent("%_")}`))).body.people).toEqual([]);
    for (const q of ["", "a", " a ", "%00ab", "x".repeat(255)]) {
      const res = await json(a.call("GET", `/api/admin/people?q=${q}`));
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
    }
    expect((await json(a.call("GET", "/api/admin/people?q=a"))).body.error.message).toBe(ADMIN_TEXTS.searchTooShort);
  });
});

describe("an account's page", () => {
  it("shows plan, subscription, trial end, dates, two-factor on or off, balance and reports, and no secret", async () => {
    const a = admin();
    const owner = createApiOwner(t, "plus");
    t.deps.db.update(userProfiles).set({ rewardsBalanceCents: 1234, lastPublishedAt: new Date("2026-11-20T10:00:00Z") }).where(eq(userProfiles.userId, owner.userId)).run();
    t.deps.db.insert(pageReports).values({ id: newId(), reportedUserId: owner.userId, reportedPageUsername: owner.username, reason: "spam" }).run();
    const res = await json(a.call("GET", `/api/admin/people/${owner.userId}`));
    expect(res.status).toBe(200);
    expect(res.body.person).toMatchObject({
      id: owner.userId,
      username: owner.username,
      planType: "plus",
      subscriptionStatus: "active_plus",
      lastPublishedAt: "2026-11-20T10:00:00.000Z",
      lastSignInAt: expect.any(String),
      twoFactorOn: false,
      rewardsBalanceCents: 1234,
      sessions: 1,
      reports: 1,
    });
    expect((await json(a.call("GET", `/api/admin/people/${a.userId}`))).body.person.twoFactorOn).toBe(true);
    const text = JSON.stringify((await json(a.call("GET", `/api/admin/people/${a.userId}`))).body);
    for (const secret of ["JBSWY3DPEHPK3PXP", "hash-of-a-code", "password", "secret"]) expect(text).not.toContain(secret);
    expect((await a.call("GET", "/api/admin/people/nobody")).status).toBe(404);
  });
});

describe("sign out everywhere", () => {
  it("ends every session of the account, says how many, and is recorded with the reason", async () => {
    const a = admin();
    const owner = createApiOwner(t, "plus");
    expect((await owner.call("GET", "/api/me")).status).toBe(200);
    expect(await json(a.call("POST", `/api/admin/people/${owner.userId}/sign-out-everywhere`, {}))).toMatchObject({ status: 400, body: { error: { message: ADMIN_TEXTS.reasonRequired } } });
    expect((await owner.call("GET", "/api/me")).status).toBe(200);
    const res = await json(a.call("POST", `/api/admin/people/${owner.userId}/sign-out-everywhere`, { reason: "Owner reported a stolen laptop" }));
    expect(res).toEqual({ status: 200, body: { ended: 1 } });
    expect((await owner.call("GET", "/api/me")).status).toBe(401);
    const [entry] = t.deps.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "account.sign_out_everywhere")).all();
    expect(entry).toMatchObject({ actorId: a.userId, targetId: owner.userId, reason: "Owner reported a stolen laptop", before: '{"sessions":1}', after: '{"sessions":0}' });
    expect((await a.call("POST", "/api/admin/people/nobody/sign-out-everywhere", { reason: "x" })).status).toBe(404);
  });
});
