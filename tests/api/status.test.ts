import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

describe("GET /api/status", () => {
  it("reports health and no publish time on an empty database", async () => {
    const res = await t.app.request("/api/status");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ ok: true, db: "ok", lastPublishAt: null });
    expect(typeof body.version).toBe("string");
  });

  it("gives the latest publish time and no personal data", async () => {
    const a = createApiOwner(t, "lite");
    const b = createApiOwner(t, "lite");
    const earlier = new Date("2026-01-01T10:00:00.000Z");
    const later = new Date("2026-02-01T10:00:00.000Z");
    const db = t.deps.db;
    const userOf = (username: string) => db.select().from(userProfiles).where(eq(userProfiles.username, username)).get()!;
    db.update(userProfiles).set({ lastPublishedAt: earlier }).where(eq(userProfiles.userId, userOf(a.username).userId)).run();
    db.update(userProfiles).set({ lastPublishedAt: later }).where(eq(userProfiles.userId, userOf(b.username).userId)).run();
    const res = await t.app.request("/api/status");
    const text = await res.text();
    expect(JSON.parse(text).lastPublishAt).toBe(later.toISOString());
    expect(text).not.toContain(a.username);
    expect(text).not.toContain(b.username);
  });

  it("reports a broken database as 503 with the same shape, so the page can still say what is down", async () => {
    t.deps.db.$client.close();
    const res = await t.app.request("/api/status");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, db: "unavailable", lastPublishAt: null });
    const { openDatabase } = await import("#db/client.ts");
    t.deps.db = openDatabase({ path: t.deps.env.DATABASE_PATH });
  });

  it("is never cached, so the status page is live", async () => {
    const res = await t.app.request("/api/status");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("ignores hostile query strings and refuses other methods", async () => {
    const res = await t.app.request("/api/status?username=<script>alert(1)</script>&x=' or 1=1 --");
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain("<script>");
    const post = await t.app.request("/api/status", { method: "POST", headers: { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" } });
    expect(post.status).toBeGreaterThanOrEqual(400);
    expect(post.status).toBeLessThan(500);
  });
});
