/**
 * A custom domain with the pages in a bucket behind a CDN (ADR 242): the bucket keeps one copy of
 * each page, at `{username}/index.html`; the custom domain reaches Plinth (through Caddy), which
 * passes on the CDN's copy of the page and its files. The bucket is a real S3-protocol server, and
 * the CDN a stand-in that maps `/{username}` to its key as docs/bucket-and-cdn.md asks a CDN to.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { fakeDns } from "#tests/support/dns.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { startTestBucket, type TestBucket } from "#tests/support/s3.ts";

const TARGET = "domains.plinth-host.net";
const DOMAIN = "links.ada-music.com";

let bucket: TestBucket;
let cdn: Server;
let cdnOrigin: string;
let t: TestApp;
let owner: ApiOwner;
const cdnPaths: string[] = [];

beforeAll(async () => {
  bucket = await startTestBucket();
  cdn = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://cdn").pathname;
    cdnPaths.push(path);
    const key = /^\/[a-z0-9_-]{3,30}$/.test(path) ? `${path.slice(1)}/index.html` : path.slice(1);
    void bucket.object(key).then((o) => {
      if (!o) return res.writeHead(403).end();
      res.writeHead(200, { "Content-Type": o.contentType ?? "application/octet-stream", "Cache-Control": o.cacheControl ?? "" });
      res.end(req.method === "HEAD" ? undefined : o.body);
    });
  });
  await new Promise<void>((resolve) => cdn.listen(0, "127.0.0.1", resolve));
  cdnOrigin = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  t = createTestApp({ ...bucket.env(), PUBLIC_PAGES_ORIGIN: cdnOrigin, CUSTOM_DOMAIN_TARGET: TARGET });
  const dns = fakeDns();
  t.deps.resolver = dns;
  owner = createApiOwner(t, "plus");
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
  const added = (await (await owner.call("POST", "/api/domains", { domain: DOMAIN })).json()) as any;
  dns.set("TXT", `_plinth.${DOMAIN}`, [added.domain.records[0].value]);
  dns.set("CNAME", DOMAIN, [TARGET]);
  const checked = (await (await owner.call("POST", `/api/domains/${added.domain.id}/check`)).json()) as any;
  expect(checked.domain.state).toBe("verified");
}, 60_000);

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => cdn?.close(resolve));
  await bucket?.stop();
});

describe("a custom domain with pages in a bucket", () => {
  it("puts the page into the bucket with the domain as its address", async () => {
    const page = await bucket.object(`${owner.username}/index.html`);
    expect(page!.body.toString("utf8")).toContain(`<link rel="canonical" href="https://${DOMAIN}/">`);
    expect(await bucket.keys()).not.toContain(`${DOMAIN}/index.html`);
  });

  it("serves the CDN's copy of the page and its files at the domain", async () => {
    const res = await t.app.request(`http://${DOMAIN}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const html = await res.text();
    expect(html).toContain(`<link rel="canonical" href="https://${DOMAIN}/">`);
    expect(cdnPaths).toContain(`/${owner.username}`);
    const qr = /src="(\/[a-z0-9_]+\/qr-[0-9a-z]+\.svg)"/.exec(html)![1]!;
    const file = await t.app.request(`http://${DOMAIN}${qr}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("image/svg+xml");
    expect((await t.app.request(`http://${DOMAIN}/media/nothing-here.png`)).status).toBe(404);
  });
});
