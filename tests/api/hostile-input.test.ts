/**
 * Every API route, found from the app itself (so a new route is covered the day it is added), gets
 * missing, malformed, oversized and hostile input, another owner's ids, no session and a cross-site
 * origin. None may answer 500, every refusal has the one JSON error shape, and the other owner's page,
 * draft and files are left exactly as they were.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "#api/auth/session.ts";
import { collectedLeads, linkLists, links, pageVersions, socialLinks, uploads, userProfiles, users } from "#db/schema.ts";
import { createTestApp, sameOrigin, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { expectErrorShape } from "#tests/support/hostile.ts";
import { fakeDns } from "#tests/support/dns.ts";

/** Routes anyone may call: the rest need a session. */
const PUBLIC = [/^\/api\/health$/, /^\/api\/ready$/, /^\/api\/status$/, /^\/api\/contact$/, /^\/api\/auth\//, /^\/api\/visitor\//, /^\/api\/billing\/webhook$/, /^\/api\/billing\/stripe\/webhook$/, /^\/api\/connect\/stripe\/webhook$/, /^\/api\/pay\//, /^\/api\/domains\/allowed$/];
const isPublic = (path: string) => PUBLIC.some((re) => re.test(path));
/** Without a session an owner route answers 401; the operator's console answers 404, as if it did not exist (ADR 105). */
const refusedWith = (path: string) => (path.startsWith("/api/admin/") ? 404 : 401);
/** Visitor and payment routes are cross-origin by design (published pages live on any static host). */
const isCrossOriginByDesign = (path: string) => path.startsWith("/api/visitor/") || path.startsWith("/api/pay/");

let t: TestApp;
let victim: ApiOwner;
let attacker: ApiOwner;
const victimIds: string[] = [];
let routes: { method: string; path: string }[] = [];

function victimState(): string {
  const db = t.deps.db;
  const id = victim.userId;
  const rows = {
    user: db.select().from(users).where(eq(users.id, id)).all(),
    profile: db.select().from(userProfiles).where(eq(userProfiles.userId, id)).all(),
    links: db.select().from(links).where(eq(links.userId, id)).all(),
    lists: db.select().from(linkLists).where(eq(linkLists.userId, id)).all(),
    social: db.select().from(socialLinks).where(eq(socialLinks.userId, id)).all(),
    versions: db.select().from(pageVersions).where(eq(pageVersions.userId, id)).all(),
    leads: db.select().from(collectedLeads).where(eq(collectedLeads.userId, id)).all(),
    uploads: db.select().from(uploads).where(eq(uploads.userId, id)).all(),
  };
  const dir = join(t.deps.env.PUBLISHED_DIR, victim.username);
  const files = existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .map(String)
        .filter((f) => statSync(join(dir, f)).isFile())
        .sort()
        .map((f) => `${f}:${createHash("sha256").update(readFileSync(join(dir, f))).digest("hex")}`)
    : [];
  return JSON.stringify({ rows, files });
}

const HOSTILE_TEXT = `<script>alert(1)</script>"'><img src=x onerror=alert(1)>`;
const hostileObject = () => ({
  title: HOSTILE_TEXT,
  url: "javascript:alert(document.cookie)",
  linkType: "standard_url",
  data: { url: "data:text/html,<script>alert(1)</script>", fileUrl: "javascript:alert(1)", email: HOSTILE_TEXT, name: HOSTILE_TEXT },
  platform: "github",
  handle: HOSTILE_TEXT,
  isActive: "yes",
  isVisible: 1,
  isMainButton: "true",
  visible: null,
  ids: victimIds,
  items: victimIds.map((id) => ({ id, parentListId: null })),
  lists: victimIds,
  version: -1,
  feature: "__proto__",
  reason: HOSTILE_TEXT,
  username: victim.username,
  linkId: victimIds[0],
  email: HOSTILE_TEXT,
  name: HOSTILE_TEXT,
  message: HOSTILE_TEXT,
  parentListId: victimIds[1],
  thumbnailUrl: "javascript:alert(1)",
  scheduleStartTime: "not a date",
  userId: victim.userId,
});

function bodies(): (string | undefined)[] {
  let deep = "1";
  for (let i = 0; i < 500; i++) deep = `{"a":[${deep}]}`;
  return [
    undefined,
    "",
    "{",
    "null",
    "[]",
    "42",
    '"text"',
    '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    deep,
    JSON.stringify({ title: "x".repeat(70 * 1024) }),
    JSON.stringify(hostileObject()),
  ];
}

function paths(path: string): string[] {
  if (!path.includes(":")) return [path];
  const values = [...victimIds, "nope", "..%2F..%2Fetc%2Fpasswd", "x".repeat(300), "%00", "1 OR 1=1"];
  return values.map((v) => path.replace(/:[A-Za-z]+/g, v));
}

async function send(method: string, path: string, body: string | undefined, headers: Record<string, string>) {
  const res = await t.app.request(path, { method, headers, ...(body === undefined || method === "GET" ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, text };
}

beforeAll(async () => {
  // Custom domains on, so their routes are exercised past "not available on this server".
  t = createTestApp({ TRUST_PROXY: "1", CUSTOM_DOMAIN_TARGET: "domains.plinth-host.net" });
  // No DNS query leaves the test: the domain checks read a stand-in with no records.
  t.deps.resolver = fakeDns();
  victim = createApiOwner(t, "trial");
  attacker = createApiOwner(t, "trial");
  const link = await (await victim.call("POST", "/api/links", { linkType: "standard_url", title: "Victim link", url: "https://victim.example" })).json();
  const list = await (await victim.call("POST", "/api/link-lists", { title: "Victim list" })).json();
  const social = await (await victim.call("POST", "/api/social-links", { platform: "github", handle: "victim" })).json();
  for (const v of [link.link?.id ?? link.id, list.list?.id ?? list.id, social.socialLink?.id ?? social.link?.id ?? social.id]) {
    expect(typeof v, "victim setup").toBe("string");
    victimIds.push(v);
  }
  expect((await victim.call("POST", "/api/publish")).status).toBe(200);
  routes = t.app.routes
    .filter((r) => r.path.startsWith("/api/") && !r.path.endsWith("*") && r.method !== "ALL")
    .map((r) => ({ method: r.method, path: r.path }));
});
afterAll(() => t.close());

describe("every API route under hostile input", () => {
  it("finds the routes to attack", () => {
    expect(routes.length).toBeGreaterThan(25);
  });

  it("answers an attacker's hostile input with 4xx (never 500) and leaves another owner untouched", async () => {
    const before = victimState();
    let n = 0;
    for (const r of routes) {
      for (const path of paths(r.path)) {
        for (const body of bodies()) {
          const { status, text } = await send(r.method, path, body, sameOrigin({ Cookie: attacker.cookie, "X-Forwarded-For": `198.51.100.${n++ % 250}` }));
          expectErrorShape(status, text, `${r.method} ${path} ${String(body).slice(0, 40)}`);
        }
      }
    }
    expect(victimState()).toBe(before);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("refuses every owner route without a session (401), and no public route answers 500", async () => {
    for (const r of routes) {
      for (const path of paths(r.path).slice(0, 1)) {
        const { status, text } = await send(r.method, path, "{}", sameOrigin({ "X-Forwarded-For": "203.0.113.7" }));
        expectErrorShape(status, text, `${r.method} ${path}`);
        if (!isPublic(r.path)) expect(status, `${r.method} ${path}`).toBe(refusedWith(r.path));
      }
    }
  });

  it("refuses a forged or expired session cookie like no session", async () => {
    for (const r of routes.filter((x) => !isPublic(x.path))) {
      const path = paths(r.path)[0]!;
      for (const cookie of [`${SESSION_COOKIE}=forged.token`, `${SESSION_COOKIE}=${victim.cookie.split("=")[1]}x`, `${SESSION_COOKIE}=${"a".repeat(5000)}`]) {
        const { status } = await send(r.method, path, "{}", sameOrigin({ Cookie: cookie }));
        expect(status, `${r.method} ${path}`).toBe(refusedWith(r.path));
      }
    }
  });

  it("refuses every cross-site state-changing request that carries the owner's cookie (403)", async () => {
    const before = victimState();
    for (const r of routes.filter((x) => x.method !== "GET" && !isCrossOriginByDesign(x.path))) {
      const path = paths(r.path)[0]!;
      const forged: Record<string, string>[] = [
        { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
        { Origin: "null" },
        { Origin: `${TEST_ORIGIN}.evil.example` },
        { "Sec-Fetch-Site": "same-site" },
        {},
      ];
      for (const headers of forged) {
        const { status, text } = await send(r.method, path, JSON.stringify(hostileObject()), {
          "Content-Type": "application/json",
          Cookie: victim.cookie,
          ...headers,
        });
        expect(status, `${r.method} ${path} ${JSON.stringify(headers)} ${text.slice(0, 120)}`).toBe(403);
      }
    }
    expect(victimState()).toBe(before);
  });
});
