import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { upgradeRequests } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

describe("GET /api/me", () => {
  it("gives the profile and the computed plan state", async () => {
    const trial = createApiOwner(t);
    const me = (await (await trial.call("GET", "/api/me")).json()) as any;
    expect(me.username).toBe(trial.username);
    expect(me.plan).toMatchObject({ isTrialActive: true, effectivePlan: "plus", planBadge: "Trial Active", canSavePromoteLink: false });
    const lite = (await (await createApiOwner(t, "lite").call("GET", "/api/me")).json()) as any;
    expect(lite.plan).toMatchObject({ isTrialActive: false, effectivePlan: "lite", planBadge: "Lite" });
    expect(lite.plan.features).not.toContain("scheduling");
    const plus = (await (await createApiOwner(t, "plus").call("GET", "/api/me")).json()) as any;
    expect(plus.plan).toMatchObject({ effectivePlan: "plus", planBadge: "Plus", canSavePromoteLink: true });
    expect((await t.app.request("/api/me")).status).toBe(401);
  });
});

describe("POST /api/upgrade-requests", () => {
  it("records the feature key and refuses unknown ones", async () => {
    const o = createApiOwner(t, "lite");
    expect((await o.call("POST", "/api/upgrade-requests", { feature: "unlimited_social_links" })).status).toBe(201);
    expect((await o.call("POST", "/api/upgrade-requests", { feature: "<script>" })).status).toBe(400);
    expect((await o.call("POST", "/api/upgrade-requests", {})).status).toBe(400);
    const rows = t.deps.db.select().from(upgradeRequests).where(eq(upgradeRequests.userId, o.userId)).all();
    expect(rows.map((r) => r.featureKey)).toEqual(["unlimited_social_links"]);
  });
});

describe("GET /api/events/stamp", () => {
  it("changes when the draft changes", async () => {
    const o = createApiOwner(t);
    const s1 = ((await (await o.call("GET", "/api/events/stamp")).json()) as any).stamp;
    await new Promise((r) => setTimeout(r, 5));
    await o.call("POST", "/api/links", { linkType: "label", title: "A" });
    const s2 = ((await (await o.call("GET", "/api/events/stamp")).json()) as any).stamp;
    expect(s2).not.toBe(s1);
  });
});
