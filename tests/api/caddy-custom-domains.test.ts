/**
 * Custom domains through Caddy (issue 39, ADR 241): Debian's Caddy runs the shipped docs/Caddyfile,
 * adapted only to take its certificates from its own CA on loopback, in front of a real Plinth
 * server. Over https, with the names resolved to 127.0.0.1 by curl: a verified domain gets its
 * certificate on demand and the owner's page; a domain still waiting for its DNS records gets no
 * certificate (Caddy's ask check said no); a host that is not a verified domain gets 404 from Plinth;
 * a removed domain gets no new certificate and no page, before and after Caddy restarts (ADR 245).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpServer } from "#api/http-server.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { startCaddy, type CaddyProxy } from "#tests/support/caddy.ts";
import { fakeDns, type FakeDns } from "#tests/support/dns.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

const TARGET = "domains.plinth-host.net";
const VERIFIED = "links.ada-music.com";
const WAITING = "links.waiting-owner.com";

let t: TestApp;
let server: Server;
let caddy: CaddyProxy;
let owner: ApiOwner;
let waiting: ApiOwner;
let waitingDomain: any;
let dns: FakeDns;
let upstream: string;

beforeAll(async () => {
  t = createTestApp({ CUSTOM_DOMAIN_TARGET: TARGET });
  dns = fakeDns();
  t.deps.resolver = dns;
  owner = createApiOwner(t, "plus");
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
  const added = (await (await owner.call("POST", "/api/domains", { domain: VERIFIED })).json()) as any;
  dns.set("TXT", `_plinth.${VERIFIED}`, [added.domain.records[0].value]);
  dns.set("CNAME", VERIFIED, [TARGET]);
  const checked = (await (await owner.call("POST", `/api/domains/${added.domain.id}/check`)).json()) as any;
  expect(checked.domain.state).toBe("verified");
  waiting = createApiOwner(t, "plus");
  expect((await waiting.call("POST", "/api/publish")).status).toBe(200);
  const pending = await waiting.call("POST", "/api/domains", { domain: WAITING });
  expect(pending.status).toBe(201);
  waitingDomain = ((await pending.json()) as any).domain;

  server = createHttpServer(t.deps);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  upstream = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The origin is PUBLIC_ORIGIN's host, localhost; Caddy makes its certificate at start.
  caddy = await startCaddy({ originHost: "localhost", upstream });
}, 60_000);

afterAll(async () => {
  await caddy?.stop();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

describe("Caddy with docs/Caddyfile in front of Plinth", () => {
  it("obtains a certificate for a verified domain on demand and serves the owner's page", async () => {
    const answer = await caddy.curl(VERIFIED, "/");
    expect(answer.stderr).toBe("");
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`<link rel="canonical" href="https://${VERIFIED}/">`);
    // The page's QR code, where the page names it.
    const qr = /src="(\/[a-z0-9_]+\/qr-[0-9a-z]+\.svg)"/.exec(answer.body)![1]!;
    expect((await caddy.curl(VERIFIED, qr)).status).toBe(200);
  });

  it("gives a domain still waiting for its records no certificate", async () => {
    const answer = await caddy.curl(WAITING, "/");
    expect(answer.status).toBeNull();
    expect(answer.code).not.toBe(0);
    expect(answer.stderr).toMatch(/SSL|TLS|alert/i);
    expect(caddy.output()).not.toMatch(new RegExp(`certificate obtained successfully[^\\n]*${WAITING.replaceAll(".", "\\.")}`));
  });

  it("gives the same domain its certificate once it is verified: the ask check decides", async () => {
    dns.set("TXT", `_plinth.${WAITING}`, [waitingDomain.records[0].value]);
    dns.set("CNAME", WAITING, [TARGET]);
    const checked = (await (await waiting.call("POST", `/api/domains/${waitingDomain.id}/check`)).json()) as any;
    expect(checked.domain.state).toBe("verified");
    const answer = await caddy.curl(WAITING, "/");
    expect(answer.stderr).toBe("");
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`<link rel="canonical" href="https://${WAITING}/">`);
  });

  it("answers 404 to a host that is not a verified domain, on the origin's connection", async () => {
    const answer = await caddy.curl("unknown-host.com", "/", { sni: "localhost" });
    expect(answer.stderr).toBe("");
    expect(answer.status).toBe(404);
    // The operator's own origin still answers as before.
    expect((await caddy.curl("localhost", `/${owner.username}`)).status).toBe(200);
  });
});

describe("a removed domain's certificate (ADR 245)", () => {
  const LEAVING = "links.leaving-owner.com";
  let storage: string;
  const started: CaddyProxy[] = [];
  afterAll(async () => {
    // Stopping a stopped Caddy does nothing: each is stopped here too, should the test fail midway.
    for (const c of started) await c.stop();
    rmSync(storage, { recursive: true, force: true });
  });

  it("is never renewed nor obtained again, and no page is served under it, before and after Caddy restarts", async () => {
    const leaving = createApiOwner(t, "plus");
    expect((await leaving.call("POST", "/api/publish")).status).toBe(200);
    const added = (await (await leaving.call("POST", "/api/domains", { domain: LEAVING })).json()) as any;
    dns.set("TXT", `_plinth.${LEAVING}`, [added.domain.records[0].value]);
    dns.set("CNAME", LEAVING, [TARGET]);
    expect(((await (await leaving.call("POST", `/api/domains/${added.domain.id}/check`)).json()) as any).domain.state).toBe("verified");

    storage = mkdtempSync(join(tmpdir(), "plinth-caddy-storage-"));
    const first = await startCaddy({ originHost: "localhost", upstream, storage });
    started.push(first);
    expect((await first.curl(LEAVING, "/")).body).toContain(`<link rel="canonical" href="https://${LEAVING}/">`);
    const certificate = join(storage, "certificates", "local", LEAVING, `${LEAVING}.crt`);
    const issued = readFileSync(certificate, "utf8");

    expect((await leaving.call("DELETE", `/api/domains/${added.domain.id}`)).status).toBe(200);
    // Caddy still holds the certificate it has: the connection is made, and Plinth has no page for the host.
    const held = await first.curl(LEAVING, "/");
    expect(held.status).toBe(404);
    expect(held.body).not.toContain("canonical");
    await first.stop();

    // Restarted on the same storage: the page is never served again, and no certificate is obtained
    // for the name (Caddy asks before it obtains or renews one, and Plinth says no).
    const second = await startCaddy({ originHost: "localhost", upstream, storage });
    started.push(second);
    const after = await second.curl(LEAVING, "/");
    expect(after.status).not.toBe(200);
    expect(after.body).not.toContain("canonical");
    expect(readFileSync(certificate, "utf8")).toBe(issued);
    expect(second.output()).not.toMatch(new RegExp(`certificate obtained successfully[^\\n]*${LEAVING.replaceAll(".", "\\.")}`));
  }, 60_000);
});
