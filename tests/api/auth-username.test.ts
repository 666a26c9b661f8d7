import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AUTH_LIMITS } from "#core/schemas/auth.ts";
import { newId } from "#db/ids.ts";
import { signupAttempts } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const check = async (username: string) => {
  const res = await t.app.request(`/api/auth/username-availability?username=${encodeURIComponent(username)}`);
  return { status: res.status, body: (await res.json()) as { available: boolean; message?: string; username?: string } };
};

describe("GET /api/auth/username-availability", () => {
  it("answers available for a free, well-formed name, trimmed and lowercased", async () => {
    expect(await check("  Fresh_Name-1 ")).toEqual({ status: 200, body: { available: true, username: "fresh_name-1" } });
  });

  it("gives docs/product.md's format messages", async () => {
    expect((await check("ab")).body).toEqual({ available: false, message: "Username must be at least 3 characters" });
    expect((await check("a".repeat(31))).body).toEqual({ available: false, message: "Username must be less than 30 characters" });
    expect((await check("bad name!")).body).toEqual({
      available: false,
      message: "Username can only contain letters, numbers, hyphens, and underscores",
    });
    expect((await check("<script>")).body.available).toBe(false);
  });

  it("refuses a taken name in any case, and every reserved name", async () => {
    const owner = createApiOwner(t);
    expect((await check(owner.username.toUpperCase())).body).toEqual({ available: false, message: "Username is already taken" });
    for (const name of ["dashboard", "API", "status", "features", "affiliate-terms", "pricing"]) {
      expect((await check(name)).body, name).toEqual({ available: false, message: "Username is already taken" });
    }
  });

  it("refuses a name held by a signup in progress: 10 minutes after its last step while unverified, 30 once verified (ADR 107)", async () => {
    const now = Date.now();
    const lastStep = (minutesAgo: number) => new Date(now - minutesAgo * 60_000 + AUTH_LIMITS.SIGNUP_HOLD_MS);
    const attempt = (username: string, minutesAgo: number, verified: boolean) =>
      t.deps.db.insert(signupAttempts).values({ id: newId(), tokenHash: newId(), username, emailVerifiedAt: verified ? new Date(now) : null, expiresAt: lastStep(minutesAgo) }).run();
    attempt("fresh_name", 9, false);
    attempt("idle_name", 11, false);
    attempt("verified_name", 29, true);
    attempt("lapsed_name", 31, true);
    expect((await check("fresh_name")).body.available).toBe(false);
    expect((await check("idle_name")).body.available).toBe(true);
    expect((await check("verified_name")).body.available).toBe(false);
    expect((await check("lapsed_name")).body.available).toBe(true);
  });

  it("answers a missing or oversized parameter with a 4xx or a refusal, never a 500", async () => {
    expect((await check("")).body.available).toBe(false);
    const res = await t.app.request("/api/auth/username-availability");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { available: boolean }).available).toBe(false);
    const big = await t.app.request(`/api/auth/username-availability?username=${"x".repeat(5000)}`);
    expect(big.status).toBe(400);
  });

  it("limits how fast one client may ask", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await t.app.request(`/api/auth/username-availability?username=name${i}`)).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
