/**
 * The page's address as the dashboard and the owner's previews get it (ADR 244): GET /api/me's
 * `pageAddress` and the share and QR code address of the draft preview and of History's previews are
 * the verified domain while the plan includes it, and the Plinth address before, after a removal and
 * once the plan ends.
 */
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

beforeEach(async () => {
  t = createTestApp({ CUSTOM_DOMAIN_TARGET: TARGET });
  owner = createApiOwner(t, "plus");
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
});
afterEach(() => t.close());

const plinthAddress = () => `${t.deps.env.PUBLIC_ORIGIN}/${owner.username}`;
const meAddress = async () => ((await (await owner.call("GET", "/api/me")).json()) as any).pageAddress as string;

/** The address the preview's share dialog and QR code dialog show. */
async function previewAddress(path: string): Promise<string> {
  const res = await owner.call("GET", path);
  expect(res.status, path).toBe(200);
  const html = await res.text();
  const share = /<input id="sh-url" type="text" readOnly="" value="([^"]+)"/.exec(html)?.[1];
  const qr = /alt="QR code for ([^"]+)" width="250"/.exec(html)?.[1];
  expect(qr, path).toBe(share);
  return share!;
}

async function verify(): Promise<string> {
  const dns = fakeDns();
  t.deps.resolver = dns;
  const added = (await (await owner.call("POST", "/api/domains", { domain: DOMAIN })).json()) as any;
  dns.set("TXT", `_plinth.${DOMAIN}`, [added.domain.records[0].value]);
  dns.set("CNAME", DOMAIN, [TARGET]);
  const checked = (await (await owner.call("POST", `/api/domains/${added.domain.id}/check`)).json()) as any;
  expect(checked.domain.state).toBe("verified");
  return added.domain.id;
}

describe("the page's address for its owner", () => {
  it("is the Plinth address, then the domain once verified, then the Plinth address after removal", async () => {
    expect(await meAddress()).toBe(plinthAddress());
    expect(await previewAddress(`/${owner.username}?preview=true`)).toBe(plinthAddress());

    const id = await verify();
    expect(await meAddress()).toBe(`https://${DOMAIN}/`);
    expect(await previewAddress(`/${owner.username}?preview=true`)).toBe(`https://${DOMAIN}/`);
    expect(await previewAddress(`/${owner.username}/preview`)).toBe(`https://${DOMAIN}/`);
    // History's preview of a version published before the domain: the address the page has now.
    expect(await previewAddress(`/${owner.username}/preview?version=1`)).toBe(`https://${DOMAIN}/`);

    expect((await owner.call("DELETE", `/api/domains/${id}`)).status).toBe(200);
    expect(await meAddress()).toBe(plinthAddress());
    expect(await previewAddress(`/${owner.username}?preview=true`)).toBe(plinthAddress());
    expect(await previewAddress(`/${owner.username}/preview?version=1`)).toBe(plinthAddress());
  });

  it("is not the domain while it waits for its records", async () => {
    expect((await owner.call("POST", "/api/domains", { domain: DOMAIN })).status).toBe(201);
    expect(await meAddress()).toBe(plinthAddress());
  });

  it("goes back to the Plinth address when the plan ends, and to the domain when Plus comes back", async () => {
    await verify();
    t.deps.db.update(userProfiles).set({ planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null }).where(eq(userProfiles.userId, owner.userId)).run();
    expect(await meAddress()).toBe(plinthAddress());
    expect(await previewAddress(`/${owner.username}?preview=true`)).toBe(plinthAddress());
    expect(await previewAddress(`/${owner.username}/preview?version=1`)).toBe(plinthAddress());
    // The domain is kept.
    expect(t.deps.db.select().from(customDomains).get()?.verifiedAt).toBeTruthy();
    t.deps.db.update(userProfiles).set({ planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(Date.now() + 86_400_000) }).where(eq(userProfiles.userId, owner.userId)).run();
    expect(await meAddress()).toBe(`https://${DOMAIN}/`);
  });
});
