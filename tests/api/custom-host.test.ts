/**
 * Requests by host (issue 39, ADR 241): a verified custom domain serves its owner's page and files at
 * `/`, its www / apex companion redirects to it, any other host gets 404, the operator's own hosts
 * work as before, and X-Forwarded-Host counts only behind trusted proxies.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { customDomains, userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { fakeDns } from "#tests/support/dns.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

const TARGET = "domains.plinth-host.net";
const DOMAIN = "links.ada-music.com";

let t: TestApp;
let owner: ApiOwner;

/** The owner's domain, verified the way the API verifies it. */
async function verify(app: TestApp, who: ApiOwner, name: string) {
  const dns = fakeDns();
  app.deps.resolver = dns;
  const added = (await (await who.call("POST", "/api/domains", { domain: name })).json()) as any;
  dns.set("TXT", `_plinth.${name}`, [added.domain.records[0].value]);
  dns.set("CNAME", name, [TARGET]);
  const checked = (await (await who.call("POST", `/api/domains/${added.domain.id}/check`)).json()) as any;
  expect(checked.domain.state).toBe("verified");
}

async function setUp(overrides: Record<string, string> = {}) {
  t = createTestApp({ CUSTOM_DOMAIN_TARGET: TARGET, ...overrides });
  owner = createApiOwner(t, "plus");
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
  await verify(t, owner, DOMAIN);
}
afterEach(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.request(url, { headers });

describe("a verified domain", () => {
  beforeEach(() => setUp());

  it("serves the owner's page at / with its domain as the canonical address", async () => {
    const res = await get(`http://${DOMAIN}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const html = await res.text();
    expect(html).toContain(`<link rel="canonical" href="https://${DOMAIN}/">`);
    // The Host header names it too, as a proxy passes it on; the port and a final dot do not matter.
    expect((await get("http://127.0.0.1/", { Host: `${DOMAIN}.:443` })).status).toBe(200);
  });

  it("serves the page's files and shared assets, and nothing of anyone else", async () => {
    const html = await (await get(`http://${DOMAIN}/`)).text();
    const qr = /src="\/[a-z0-9_]+\/(qr-[0-9a-z]+\.svg)"/.exec(html)?.[1];
    expect(qr).toBeDefined();
    for (const path of [`/${owner.username}/${qr}`, `/${qr}`]) {
      const res = await get(`http://${DOMAIN}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toContain("image/svg+xml");
    }
    const script = /src="(\/_p\/[^"]+\.js)"/.exec(html)?.[1];
    expect((await get(`http://${DOMAIN}${script}`)).status).toBe(200);

    const other = createApiOwner(t, "plus");
    await other.call("POST", "/api/publish");
    const otherQr = readdirSync(join(t.deps.env.PUBLISHED_DIR, other.username)).find((f) => f.startsWith("qr-"))!;
    for (const path of [`/${other.username}`, `/${other.username}/${otherQr}`, "/dashboard", "/api/health", "/api/me", "/sitemap.xml", "/auth/login", "/admin", "/metrics", "/../../etc/passwd"]) {
      expect((await get(`http://${DOMAIN}${path}`)).status, path).toBe(404);
    }
    // Its own Plinth address, on its domain, is the domain's root.
    const own = await get(`http://${DOMAIN}/${owner.username}?utm_source=x`);
    expect(own.status).toBe(301);
    expect(own.headers.get("location")).toBe("/?utm_source=x");
  });

  it("answers robots.txt naming the operator's sitemap, and only GET and HEAD", async () => {
    const robots = await get(`http://${DOMAIN}/robots.txt`);
    expect(await robots.text()).toContain(`Sitemap: ${t.deps.env.PUBLIC_ORIGIN}/sitemap.xml`);
    expect((await t.app.request(`http://${DOMAIN}/`, { method: "HEAD" })).status).toBe(200);
    expect((await t.app.request(`http://${DOMAIN}/`, { method: "POST" })).status).toBe(404);
  });

  it("redirects the www / apex companion to the domain, and serves no www of a deeper name", async () => {
    expect((await get(`http://www.${DOMAIN}/`)).status).toBe(404);
    const apex = createApiOwner(t, "plus");
    await apex.call("POST", "/api/publish");
    await verify(t, apex, "ada-apex.com");
    const res = await get("http://www.ada-apex.com/?a=1");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("https://ada-apex.com/?a=1");
    const www = createApiOwner(t, "plus");
    await www.call("POST", "/api/publish");
    await verify(t, www, "www.ada-www.com");
    const bare = await get("http://ada-www.com/");
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("https://www.ada-www.com/");
    expect((await get("http://www.ada-www.com/")).status).toBe(200);
  });

  it("sends visitors to the Plinth address while the plan lacks custom domains, and serves it again on Plus", async () => {
    t.deps.db.update(userProfiles).set({ planType: "lite", subscriptionStatus: null, trialEndsAt: new Date(0) }).where(eq(userProfiles.userId, owner.userId)).run();
    const res = await get(`http://${DOMAIN}/?utm_source=card`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${t.deps.env.PUBLIC_ORIGIN}/${owner.username}?utm_source=card`);
    t.deps.db.update(userProfiles).set({ planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(Date.now() + 86_400_000) }).where(eq(userProfiles.userId, owner.userId)).run();
    expect((await get(`http://${DOMAIN}/`)).status).toBe(200);
  });

  it("answers a suspended page as unavailable", async () => {
    t.deps.db.update(userProfiles).set({ pageSuspendedAt: new Date() }).where(eq(userProfiles.userId, owner.userId)).run();
    expect((await get(`http://${DOMAIN}/`)).status).toBe(410);
  });

  it("stops serving the domain once it is removed", async () => {
    const row = t.deps.db.select().from(customDomains).get()!;
    expect((await owner.call("DELETE", `/api/domains/${row.id}`)).status).toBe(200);
    expect((await get(`http://${DOMAIN}/`)).status).toBe(404);
  });
});

describe("other hosts", () => {
  beforeEach(() => setUp());

  it("answers 404 to an unknown host and to a domain still waiting for its records", async () => {
    const waiting = createApiOwner(t, "plus");
    expect((await waiting.call("POST", "/api/domains", { domain: "links.waiting-owner.com" })).status).toBe(201);
    for (const host of ["unknown-host.com", "links.waiting-owner.com", `sub.${DOMAIN}`, "evil.domains.plinth-host.net"]) {
      for (const path of ["/", "/api/health", `/${owner.username}`]) {
        const res = await get(`http://${host}${path}`);
        expect(res.status, `${host}${path}`).toBe(404);
      }
    }
  });

  it("keeps the operator's own host, loopback and IP addresses working as before", async () => {
    for (const origin of ["http://localhost:4321", "http://127.0.0.1:4321", "http://[::1]:4321", `http://${TARGET}`]) {
      expect((await get(`${origin}/api/health`)).status, origin).toBe(200);
      expect((await get(`${origin}/${owner.username}`)).status, origin).toBe(200);
    }
  });

  it("ignores X-Forwarded-Host without trusted proxies", async () => {
    const forged = await get("http://localhost:4321/api/health", { "X-Forwarded-Host": DOMAIN });
    expect(forged.status).toBe(200);
    expect((await get(`http://unknown-host.com/api/health`, { "X-Forwarded-Host": "localhost" })).status).toBe(404);
  });
});

describe("behind a trusted proxy", () => {
  beforeEach(() => setUp({ TRUST_PROXY: "1" }));

  it("takes the host from the nearest proxy's X-Forwarded-Host", async () => {
    const page = await get("http://127.0.0.1:4321/", { "X-Forwarded-Host": `forged.example.net, ${DOMAIN}` });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<link rel="canonical" href="https://${DOMAIN}/">`);
    expect((await get("http://127.0.0.1:4321/api/health", { "X-Forwarded-Host": "unknown-host.com" })).status).toBe(404);
  });
});

describe("with custom domains off", () => {
  it("answers every host as it always did", async () => {
    t = createTestApp();
    expect((await get("http://any-host.example.net/api/health")).status).toBe(200);
  });
});
