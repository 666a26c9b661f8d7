/**
 * Custom domains through nginx (issue 39, ADR 241), for operators who terminate TLS in front of it:
 * Debian's nginx runs the shipped configurations in front of a real Plinth server started with
 * CUSTOM_DOMAIN_TARGET and TRUST_PROXY=1. docs/nginx-proxy.conf as shipped, and docs/nginx.conf with
 * its custom domain block uncommented as its comment says. Through each: a verified domain's Host
 * gets the owner's page and its files, an unknown host gets 404, and an X-Forwarded-Host sent by
 * the client chooses nothing (nginx writes its own; Plinth reads only that one).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpServer } from "#api/http-server.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { fakeDns } from "#tests/support/dns.ts";
import { startStaticHost, type StaticHost } from "#tests/support/nginx.ts";
import { send, startBehindNginx, type Proxied } from "#tests/support/nginx-proxy.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

const TARGET = "domains.plinth-host.net";
const DOMAIN = "links.ada-music.com";

let t: TestApp;
let owner: ApiOwner;

beforeAll(async () => {
  t = createTestApp({ CUSTOM_DOMAIN_TARGET: TARGET, TRUST_PROXY: "1" });
  const dns = fakeDns();
  t.deps.resolver = dns;
  owner = createApiOwner(t, "plus");
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
  const added = (await (await owner.call("POST", "/api/domains", { domain: DOMAIN })).json()) as any;
  dns.set("TXT", `_plinth.${DOMAIN}`, [added.domain.records[0].value]);
  dns.set("CNAME", DOMAIN, [TARGET]);
  expect(((await (await owner.call("POST", `/api/domains/${added.domain.id}/check`)).json()) as any).domain.state).toBe("verified");
  // A domain added by someone else and never verified: not served either.
  const waiting = createApiOwner(t, "plus");
  expect((await waiting.call("POST", "/api/domains", { domain: "links.waiting-owner.com" })).status).toBe(201);
});
afterAll(() => t?.close());

const canonical = `<link rel="canonical" href="https://${DOMAIN}/">`;

/** What every proxy in front of Plinth must do for custom domains, asked of the one at `origin`. */
function behavesForCustomDomains(origin: () => string) {
  const get = (path: string, headers: Record<string, string>) => send(`${origin()}${path}`, { headers });

  it("answers a verified domain's Host with the owner's page and its files", async () => {
    const page = await get("/", { Host: DOMAIN });
    expect(page.status).toBe(200);
    expect(page.body).toContain(canonical);
    const qr = /src="(\/[a-z0-9_]+\/qr-[0-9a-z]+\.svg)"/.exec(page.body)![1]!;
    expect((await get(qr, { Host: DOMAIN })).status).toBe(200);
    expect((await get(`/${owner.username}`, { Host: DOMAIN })).status).toBe(301);
  });

  it("answers 404 to an unknown host and to a domain not verified", async () => {
    for (const host of ["unknown-host.com", "links.waiting-owner.com", `sub.${DOMAIN}`]) {
      for (const path of ["/", "/api/health", `/${owner.username}`]) expect((await get(path, { Host: host })).status, `${host}${path}`).toBe(404);
    }
  });

  it("does not let a client's X-Forwarded-Host choose the page", async () => {
    // An unknown host that names the domain in the header: still unknown.
    expect((await get("/", { Host: "unknown-host.com", "X-Forwarded-Host": DOMAIN })).status).toBe(404);
    // The operator's own host (here its IP address) naming the domain: the operator's site, where
    // /{username} is the page (on the domain it would be a redirect to /).
    const own = await get(`/${owner.username}`, { Host: "127.0.0.1", "X-Forwarded-Host": DOMAIN });
    expect(own.status).toBe(200);
    expect((await get("/api/health", { Host: "127.0.0.1", "X-Forwarded-Host": DOMAIN })).status).toBe(200);
    // The domain naming the operator's host: still the domain, whose API is not served.
    expect((await get("/api/health", { Host: DOMAIN, "X-Forwarded-Host": "127.0.0.1" })).status).toBe(404);
    expect((await get("/", { Host: DOMAIN, "X-Forwarded-Host": "unknown-host.com" })).body).toContain(canonical);
  });
}

describe("docs/nginx-proxy.conf as shipped", () => {
  let proxy: Proxied;
  beforeAll(async () => {
    proxy = await startBehindNginx(t.deps);
  }, 30_000);
  afterAll(() => proxy?.stop());
  behavesForCustomDomains(() => proxy.origin);
});

describe("docs/nginx.conf with its custom domain block", () => {
  let server: Server;
  let nginx: StaticHost;
  beforeAll(async () => {
    server = createHttpServer(t.deps);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    nginx = await startStaticHost({ customDomains: { pagesHost: "localhost", upstream: `127.0.0.1:${(server.address() as AddressInfo).port}` } });
  }, 30_000);
  afterAll(async () => {
    nginx?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });
  behavesForCustomDomains(() => nginx.origin);

  it("keeps serving the pages' own host from the folder, not from Plinth", async () => {
    // The folder is empty here: nginx's own 404 for a page Plinth would answer.
    const res = await send(`${nginx.origin}/${owner.username}`, { headers: { Host: "localhost" } });
    expect(res.status).toBe(404);
    expect((await send(`${nginx.origin}/api/health`, { headers: { Host: "localhost" } })).status).toBe(404);
  });
});
