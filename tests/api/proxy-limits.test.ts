/**
 * Limits behind a reverse proxy (ADR 091), through a real nginx running docs/nginx-proxy.conf as
 * shipped in front of the app on a real Node HTTP server with TRUST_PROXY=1. A client that forges
 * X-Forwarded-For still meets its limits, keyed on the address nginx saw; a second real client
 * (another loopback address) has its own. The clock is frozen through AppDeps.now, so no bucket
 * refills while a test runs, however slow the machine.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import { createAccount } from "#api/services/accounts.ts";
import { CONTACT_RATE_LIMITED_MESSAGE, CONTACT_RATE_MAX } from "#api/routes/contact.ts";
import { userProfiles } from "#db/schema.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { send, startBehindNginx, type Proxied } from "#tests/support/nginx-proxy.ts";

const NOW = new Date("2030-03-04T05:06:07Z");
const SAME_ORIGIN = { Origin: TEST_ORIGIN, "Sec-Fetch-Site": "same-origin" };

let t: TestApp;
let proxy: Proxied;
beforeEach(async () => {
  t = createTestApp({ TRUST_PROXY: "1" });
  proxy = await startBehindNginx({ ...t.deps, now: () => NOW });
});
afterEach(async () => {
  await proxy.stop();
  t.close();
});

const forged = (i: number) => ({ "X-Forwarded-For": `203.0.113.${i % 250}, 10.9.9.9` });

describe("through nginx with TRUST_PROXY=1", () => {
  it("throttles sign-in per address although every request forges a new X-Forwarded-For", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await send(`${proxy.origin}/api/auth/login`, {
        method: "POST",
        headers: { ...SAME_ORIGIN, ...forged(i) },
        // A different e-mail each time: only the per-address limit can stop this.
        body: { email: `guess${i}@example.com`, password: "wrong-password-1!A", rememberMe: false },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.error.message).toBe(AUTH_TEXT.throttled(15));
    }
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(50)).toEqual(Array(10).fill(429));

    // Another real client, with the same forged header, is not held back by the first one's failures.
    const other = await send(`${proxy.origin}/api/auth/login`, {
      method: "POST",
      from: "127.0.0.2",
      headers: { ...SAME_ORIGIN, ...forged(0) },
      body: { email: "someone@example.com", password: "wrong-password-1!A", rememberMe: false },
    });
    expect(other.status).toBe(401);
  });

  it("limits visitor beacons per real client, not per forged header", async () => {
    const username = "proxied_page";
    const { userId } = createAccount(t.deps.db, { email: "page@example.com", username, passwordHash: null, emailVerified: true, now: NOW });
    t.deps.db.update(userProfiles).set({ hasPublishedPage: true }).where(eq(userProfiles.userId, userId)).run();
    const beacon = (i: number, from: string) =>
      send(`${proxy.origin}/api/visitor/track`, {
        method: "POST",
        from,
        headers: { Origin: "https://static.example", ...forged(i) },
        body: { type: "page_view", username },
      });

    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await beacon(i, "127.0.0.1")).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(204));
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
    const refused = await beacon(99, "127.0.0.1");
    expect(refused.body).toEqual({ error: { code: "rate_limited", message: "Too many requests. Please try again later." } });

    expect((await beacon(0, "127.0.0.2")).status).toBe(204);
  });

  it("limits the contact form per real client", async () => {
    const message = (i: number, from: string) =>
      send(`${proxy.origin}/api/contact`, {
        method: "POST",
        from,
        headers: { ...SAME_ORIGIN, ...forged(i) },
        body: { name: "Visitor", email: "visitor@example.com", message: `Hello number ${i}, a question about pages.` },
      });
    const statuses: number[] = [];
    for (let i = 0; i <= CONTACT_RATE_MAX; i++) statuses.push((await message(i, "127.0.0.1")).status);
    expect(statuses).toEqual([...Array(CONTACT_RATE_MAX).fill(201), 429]);
    expect((await message(99, "127.0.0.1")).body.error.message).toBe(CONTACT_RATE_LIMITED_MESSAGE);
    expect((await message(0, "127.0.0.2")).status).toBe(201);
  });
});
