/**
 * Custom domains (issue 39, ADR 240) through the API, with DNS answered by a stand-in resolver and
 * time moved through the app's injected clock: adding, the records and their states in words,
 * "Check now" and the background check, each refusal, removal, another owner's ids, hostile input,
 * and the address a verified domain gives the page (canonical, Open Graph, share, QR code, sitemap).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DOMAIN_CHECK_EVERY_MS, DOMAIN_MESSAGES, DOMAIN_STATE_TEXTS } from "#core/domains.ts";
import { customDomains, jobs } from "#db/schema.ts";
import { runJobs } from "#api/jobs/runner.ts";
import { republishAll } from "#renderer/republish.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { fakeDns, type FakeDns } from "#tests/support/dns.ts";
import { expectErrorShape } from "#tests/support/hostile.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

const TARGET = "domains.plinth-host.net";
const TARGET_V4 = "203.0.113.10";
const TARGET_V6 = "2001:db8::10";

let t: TestApp;
let dns: FakeDns;
let clock: number;
let owner: ApiOwner;

beforeEach(() => {
  t = createTestApp({ CUSTOM_DOMAIN_TARGET: TARGET });
  clock = Date.now();
  // Set before anything reads the clock: the job worker keeps the function it is made with.
  t.deps.now = () => new Date(clock);
  dns = fakeDns();
  t.deps.resolver = dns;
  dns.set("A", TARGET, [TARGET_V4]);
  dns.set("AAAA", TARGET, [TARGET_V6]);
  owner = createApiOwner(t, "plus");
});
afterEach(() => t.close());

const json = async (r: Promise<Response>) => {
  const res = await r;
  const text = await res.text();
  expectErrorShape(res.status, text, "domains");
  return { status: res.status, body: JSON.parse(text) as any };
};
const rows = () => t.deps.db.select().from(customDomains).all();
const page = (username: string) => readFileSync(join(t.deps.env.PUBLISHED_DIR, username, "index.html"), "utf8");
const sitemap = () => readFileSync(join(t.deps.env.PUBLISHED_DIR, "sitemap.xml"), "utf8");

/** The two records a domain needs, as the owner would create them. */
function createRecords(name: string, token: string, routing: "cname" | "apex" = "cname") {
  dns.set("TXT", `_plinth.${name}`, ["v=spf1 -all", `plinth-verification=${token}`]);
  if (routing === "cname") dns.set("CNAME", name, [`${TARGET}.`]);
  else {
    dns.set("A", name, [TARGET_V4]);
    dns.set("AAAA", name, [TARGET_V6]);
  }
}
const tokenOf = (view: any) => String(view.records[0].value).replace("plinth-verification=", "");

async function addAndVerify(who: ApiOwner, name: string) {
  const added = await json(who.call("POST", "/api/domains", { domain: name }));
  expect(added.status).toBe(201);
  createRecords(added.body.domain.ascii, tokenOf(added.body.domain));
  const checked = await json(who.call("POST", `/api/domains/${added.body.domain.id}/check`));
  expect(checked.body.domain.state).toBe("verified");
  return checked.body.domain;
}

describe("adding a domain and verifying it", () => {
  it("shows the records to create and each one's state in words, then verifies on Check now", async () => {
    const added = await json(owner.call("POST", "/api/domains", { domain: "Links.Ada-Music.com." }));
    expect(added.status).toBe(201);
    const d = added.body.domain;
    expect(d).toMatchObject({ domain: "links.ada-music.com", ascii: "links.ada-music.com", state: "pending", status: DOMAIN_STATE_TEXTS.pending, address: "https://links.ada-music.com/" });
    expect(d.records[0]).toMatchObject({ type: "TXT", name: "_plinth.links.ada-music.com", state: "missing", status: DOMAIN_STATE_TEXTS.missing });
    expect(d.records[0].value).toMatch(/^plinth-verification=[0-9a-f]{32}$/);
    expect(d.records[1]).toMatchObject({ type: "CNAME", name: "links.ada-music.com", value: TARGET, state: "missing" });
    expect(d.records[1].apexNote).toContain(TARGET);

    // Nothing created yet: the check says so, and the domain stays pending.
    const first = await json(owner.call("POST", `/api/domains/${d.id}/check`));
    expect(first.body.domain.records.map((r: any) => r.status)).toEqual([DOMAIN_STATE_TEXTS.missing, DOMAIN_STATE_TEXTS.missing]);
    expect(first.body.domain.state).toBe("pending");

    // A wrong token and a CNAME elsewhere are shown as found but wrong, with what DNS answered.
    dns.set("TXT", "_plinth.links.ada-music.com", ["plinth-verification=not-the-token"]);
    dns.set("CNAME", "links.ada-music.com", ["somewhere-else.example.net."]);
    const wrong = await json(owner.call("POST", `/api/domains/${d.id}/check`));
    expect(wrong.body.domain.records.map((r: any) => r.state)).toEqual(["wrong", "wrong"]);
    expect(wrong.body.domain.records[0].status).toBe(DOMAIN_STATE_TEXTS.wrong);
    expect(wrong.body.domain.records[1].seen).toEqual(["somewhere-else.example.net"]);
    expect(wrong.body.domain.state).toBe("pending");

    createRecords("links.ada-music.com", tokenOf(d));
    const ok = await json(owner.call("POST", `/api/domains/${d.id}/check`));
    expect(ok.body.domain).toMatchObject({ state: "verified", status: DOMAIN_STATE_TEXTS.verified, checkingUntil: null });
    expect(ok.body.domain.records.map((r: any) => r.status)).toEqual([DOMAIN_STATE_TEXTS.found, DOMAIN_STATE_TEXTS.found]);
    const shown = await json(owner.call("GET", "/api/domains"));
    expect(shown.body).toMatchObject({ available: true, domain: { id: d.id, state: "verified" } });
  });

  it("verifies an apex domain by its A and AAAA records", async () => {
    const added = await json(owner.call("POST", "/api/domains", { domain: "ada-music.com" }));
    createRecords("ada-music.com", tokenOf(added.body.domain), "apex");
    const ok = await json(owner.call("POST", `/api/domains/${added.body.domain.id}/check`));
    expect(ok.body.domain.state).toBe("verified");
  });

  it("refuses an apex whose addresses are only partly the target's", async () => {
    const added = await json(owner.call("POST", "/api/domains", { domain: "ada-music.com" }));
    createRecords("ada-music.com", tokenOf(added.body.domain), "apex");
    dns.set("A", "ada-music.com", [TARGET_V4, "198.51.100.7"]);
    const checked = await json(owner.call("POST", `/api/domains/${added.body.domain.id}/check`));
    expect(checked.body.domain.records[1].state).toBe("wrong");
    expect(checked.body.domain.state).toBe("pending");
  });

  it("stores an international name in ASCII and shows it in Unicode", async () => {
    const added = await json(owner.call("POST", "/api/domains", { domain: "Bücher-Links.de" }));
    expect(added.body.domain).toMatchObject({ domain: "bücher-links.de", ascii: "xn--bcher-links-thb.de" });
    expect(rows()[0]!.name).toBe("xn--bcher-links-thb.de");
    expect(added.body.domain.records[0].name).toBe("_plinth.xn--bcher-links-thb.de");
  });
});

describe("the background check", () => {
  it("checks every few minutes through the job queue and verifies once the records appear", async () => {
    const added = await json(owner.call("POST", "/api/domains", { domain: "links.ada-music.com" }));
    const id = added.body.domain.id;
    clock += DOMAIN_CHECK_EVERY_MS;
    await runJobs(t.deps);
    expect(rows()[0]!.lastCheckedAt?.getTime()).toBe(clock);
    expect(rows()[0]!.verifiedAt).toBeNull();
    createRecords("links.ada-music.com", tokenOf(added.body.domain));
    // Not due yet: nothing is looked up before the next check.
    dns.asked.length = 0;
    await runJobs(t.deps);
    expect(dns.asked).toEqual([]);
    clock += DOMAIN_CHECK_EVERY_MS;
    await runJobs(t.deps);
    expect(rows()[0]!.verifiedAt?.getTime()).toBe(clock);
    const shown = await json(owner.call("GET", "/api/domains"));
    expect(shown.body.domain).toMatchObject({ id, state: "verified" });
    // Verified: no check is left waiting.
    const waiting = t.deps.db.select().from(jobs).where(eq(jobs.kind, "domain-check")).all().filter((j) => j.state === "pending");
    expect(waiting).toHaveLength(0);
  });

  it("stops after a day, says so, and runs for another day after Check now", async () => {
    const added = await json(owner.call("POST", "/api/domains", { domain: "links.ada-music.com" }));
    clock += 25 * 60 * 60_000;
    await runJobs(t.deps);
    const pendingChecks = () => t.deps.db.select().from(jobs).where(eq(jobs.kind, "domain-check")).all().filter((j) => j.state === "pending");
    expect(pendingChecks()).toHaveLength(0);
    const stopped = await json(owner.call("GET", "/api/domains"));
    expect(stopped.body.domain).toMatchObject({ state: "stopped", status: DOMAIN_STATE_TEXTS.stopped });
    const again = await json(owner.call("POST", `/api/domains/${added.body.domain.id}/check`));
    expect(again.body.domain.state).toBe("pending");
    expect(new Date(again.body.domain.checkingUntil).getTime()).toBe(clock + 24 * 60 * 60_000);
    expect(pendingChecks()).toHaveLength(1);
  });
});

describe("the page's address", () => {
  it("moves the canonical, Open Graph, share and QR address and the sitemap to the domain, and back on removal", async () => {
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    const plinthAddress = `${t.deps.env.PUBLIC_ORIGIN}/${owner.username}`;
    expect(page(owner.username)).toContain(`<link rel="canonical" href="${plinthAddress}">`);
    const d = await addAndVerify(owner, "links.ada-music.com");
    const html = page(owner.username);
    expect(html).toContain(`<link rel="canonical" href="https://links.ada-music.com/">`);
    expect(html).toContain(`<meta property="og:url" content="https://links.ada-music.com/">`);
    expect(html).toContain(`alt="QR code for https://links.ada-music.com/"`);
    expect(sitemap()).toContain("<loc>https://links.ada-music.com/</loc>");
    expect(sitemap()).not.toContain(`<loc>${plinthAddress}</loc>`);
    // A publish after verification keeps the address.
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    expect(page(owner.username)).toContain(`<link rel="canonical" href="https://links.ada-music.com/">`);

    const removed = await json(owner.call("DELETE", `/api/domains/${d.id}`));
    expect(removed.body).toEqual({ ok: true });
    expect(rows()).toHaveLength(0);
    expect(page(owner.username)).toContain(`<link rel="canonical" href="${plinthAddress}">`);
    expect(sitemap()).toContain(`<loc>${plinthAddress}</loc>`);
    expect(sitemap()).not.toContain("links.ada-music.com");
  });
});

describe("the page's address in every render", () => {
  it("keeps the domain through a bulk re-render, on the main thread and on workers", async () => {
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    await addAndVerify(owner, "links.ada-music.com");
    for (const threads of [1, 2]) {
      const count = await republishAll(t.deps.db, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: t.deps.env.PUBLIC_ORIGIN, threads, offMainThread: threads > 1 });
      expect(count).toBe(1);
      expect(page(owner.username), `threads ${threads}`).toContain(`<link rel="canonical" href="https://links.ada-music.com/">`);
    }
  });

  it("goes back to the Plinth address when the trial ends, and the domain is kept", async () => {
    const trial = createApiOwner(t, "trial");
    expect((await trial.call("POST", "/api/publish")).status).toBe(200);
    await addAndVerify(trial, "links.trial-owner.com");
    expect(page(trial.username)).toContain(`<link rel="canonical" href="https://links.trial-owner.com/">`);
    expect(sitemap()).toContain("<loc>https://links.trial-owner.com/</loc>");
    // The trial's end is one of the page's boundaries: its re-render runs on the queue at that time.
    clock += 8 * 86_400_000;
    await runJobs(t.deps);
    expect(page(trial.username)).toContain(`<link rel="canonical" href="${t.deps.env.PUBLIC_ORIGIN}/${trial.username}">`);
    expect(sitemap()).toContain(`<loc>${t.deps.env.PUBLIC_ORIGIN}/${trial.username}</loc>`);
    expect(sitemap()).not.toContain("links.trial-owner.com");
    expect(rows().find((d) => d.userId === trial.userId)?.verifiedAt).not.toBeNull();
  });
});

describe("refusals", () => {
  it("refuses a domain another owner verified, and says so to an owner who added it first", async () => {
    const other = createApiOwner(t, "plus");
    const early = await json(owner.call("POST", "/api/domains", { domain: "links.ada-music.com" }));
    expect(early.status).toBe(201);
    await addAndVerify(other, "links.ada-music.com");
    const shown = await json(owner.call("GET", "/api/domains"));
    expect(shown.body.domain).toMatchObject({ state: "taken", status: DOMAIN_STATE_TEXTS.taken });
    // Even with the records right, the first to verify keeps it.
    createRecords("links.ada-music.com", tokenOf(early.body.domain));
    const checked = await json(owner.call("POST", `/api/domains/${early.body.domain.id}/check`));
    expect(checked.body.domain.state).toBe("taken");

    const third = createApiOwner(t, "plus");
    for (const name of ["links.ada-music.com", "LINKS.ada-music.com", "www.links.ada-music.com"]) {
      const r = await json(third.call("POST", "/api/domains", { domain: name }));
      expect(r.status, name).toBe(409);
      expect(r.body.error.message).toBe(DOMAIN_MESSAGES.taken);
    }
  });

  it("counts www and the apex as one claim", async () => {
    const other = createApiOwner(t, "plus");
    await addAndVerify(other, "www.ada-music.com");
    const r = await json(owner.call("POST", "/api/domains", { domain: "ada-music.com" }));
    expect(r.status).toBe(409);
    expect(r.body.error.message).toBe(DOMAIN_MESSAGES.taken);
  });

  it("refuses invalid names with the rule's message and writes nothing", async () => {
    const cases: [unknown, string][] = [
      ["", DOMAIN_MESSAGES.required],
      [undefined, DOMAIN_MESSAGES.required],
      [42, DOMAIN_MESSAGES.required],
      [["a.com"], DOMAIN_MESSAGES.required],
      ["https://links.ada-music.com", DOMAIN_MESSAGES.invalid],
      ["links.ada-music.com/page", DOMAIN_MESSAGES.invalid],
      ["links.ada-music.com:8443", DOMAIN_MESSAGES.invalid],
      ["ada@links.ada-music.com", DOMAIN_MESSAGES.invalid],
      ["localhost", DOMAIN_MESSAGES.reserved],
      ["nodots", DOMAIN_MESSAGES.invalid],
      ["-ada.com", DOMAIN_MESSAGES.invalid],
      ["ada-.com", DOMAIN_MESSAGES.invalid],
      ["a..com", DOMAIN_MESSAGES.invalid],
      ["under_score.com", DOMAIN_MESSAGES.invalid],
      ["1.2.3.4", DOMAIN_MESSAGES.invalid],
      ["0x7f.1", DOMAIN_MESSAGES.invalid],
      ["[::1]", DOMAIN_MESSAGES.invalid],
      ["*.ada-music.com", DOMAIN_MESSAGES.invalid],
      ["xn--zz.com", DOMAIN_MESSAGES.invalid],
      [`${"a".repeat(64)}.com`, DOMAIN_MESSAGES.tooLong],
      [`${"abcdefghi.".repeat(26)}com`, DOMAIN_MESSAGES.tooLong],
      ["x".repeat(5000), DOMAIN_MESSAGES.tooLong],
    ];
    for (const [domain, message] of cases) {
      const r = await json(owner.call("POST", "/api/domains", { domain }));
      expect(r.status, String(domain).slice(0, 40)).toBe(400);
      expect(r.body.error.message, String(domain).slice(0, 40)).toBe(message);
    }
    expect(rows()).toHaveLength(0);
  });

  it("refuses control characters, invisible marks and mixed-alphabet lookalikes", async () => {
    const cases: [string, string][] = [
      ["links.ada\u0000music.com", DOMAIN_MESSAGES.invalid],
      ["links.ada-music.com\r\nX-Injected: 1", DOMAIN_MESSAGES.invalid],
      ["links.ada\tmusic.com", DOMAIN_MESSAGES.invalid],
      ["links.ada\u200bmusic.com", DOMAIN_MESSAGES.invalid],
      ["links.\u202eada-music.com", DOMAIN_MESSAGES.invalid],
      ["<script>.com", DOMAIN_MESSAGES.invalid],
      // "pаypal" with a Cyrillic "а", typed and as its "xn--" form.
      ["p\u0430ypal.com", DOMAIN_MESSAGES.mixedScripts],
      [new URL("https://p\u0430ypal.com/").hostname, DOMAIN_MESSAGES.mixedScripts],
      ["g\u03bfogle.com", DOMAIN_MESSAGES.mixedScripts],
    ];
    for (const [domain, message] of cases) {
      const r = await json(owner.call("POST", "/api/domains", { domain }));
      expect(r.status, JSON.stringify(domain)).toBe(400);
      expect(r.body.error.message, JSON.stringify(domain)).toBe(message);
    }
    // One alphabet per label is fine, in any alphabet.
    expect((await owner.call("POST", "/api/domains", { domain: "пример-ссылки.рф" })).status).toBe(201);
    expect(rows()).toHaveLength(1);
  });

  it("refuses malformed bodies without a 500", async () => {
    for (const body of ["{", "null", "[]", '"links.ada-music.com"', "{}"]) {
      const res = await owner.call("POST", "/api/domains", body);
      expectErrorShape(res.status, await res.text(), body);
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    expect(rows()).toHaveLength(0);
  });

  it("refuses reserved names and the operator's own", async () => {
    for (const domain of ["links.test", "ada.localhost", "example.com", "www.example.org", "printer.local", "ada.internal", "x.onion"]) {
      const r = await json(owner.call("POST", "/api/domains", { domain }));
      expect(r.status, domain).toBe(400);
      expect(r.body.error.message, domain).toBe(DOMAIN_MESSAGES.reserved);
    }
    for (const domain of [TARGET, `ada.${TARGET}`, `www.${TARGET}`]) {
      const r = await json(owner.call("POST", "/api/domains", { domain }));
      expect(r.status, domain).toBe(400);
      expect(r.body.error.message, domain).toBe(DOMAIN_MESSAGES.operator);
    }
    expect(rows()).toHaveLength(0);
  });

  it("refuses the operator's own origin", async () => {
    const s = createTestApp({ CUSTOM_DOMAIN_TARGET: TARGET, PUBLIC_ORIGIN: "http://plinth-operator.com" });
    try {
      const who = createApiOwner(s, "plus");
      const call = (domain: string) => s.app.request("/api/domains", { method: "POST", headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin", Origin: "http://plinth-operator.com", Cookie: who.cookie }, body: JSON.stringify({ domain }) });
      for (const domain of ["plinth-operator.com", "www.plinth-operator.com", "pages.plinth-operator.com"]) {
        const res = await call(domain);
        expect(res.status, domain).toBe(400);
        expect(((await res.json()) as any).error.message).toBe(DOMAIN_MESSAGES.operator);
      }
    } finally {
      await s.close();
    }
  });

  it("is a Plus feature, and one domain per page", async () => {
    const lite = createApiOwner(t, "lite");
    const r = await json(lite.call("POST", "/api/domains", { domain: "links.lite-owner.com" }));
    expect(r.status).toBe(402);
    expect(r.body.error.details).toEqual({ feature: "custom_domain" });
    // The trial has every Plus feature.
    const trial = createApiOwner(t, "trial");
    expect((await trial.call("POST", "/api/domains", { domain: "links.trial-owner.com" })).status).toBe(201);

    expect((await owner.call("POST", "/api/domains", { domain: "links.ada-music.com" })).status).toBe(201);
    const second = await json(owner.call("POST", "/api/domains", { domain: "ada-music.org" }));
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe(DOMAIN_MESSAGES.onePerPage);
    expect(rows().filter((d) => d.userId === owner.userId)).toHaveLength(1);
  });

  it("says the server offers no custom domains when CUSTOM_DOMAIN_TARGET is unset", async () => {
    const s = createTestApp();
    try {
      const who = createApiOwner(s, "plus");
      const shown = await who.call("GET", "/api/domains");
      expect(await shown.json()).toEqual({ available: false, domain: null });
      const r = await who.call("POST", "/api/domains", { domain: "links.ada-music.com" });
      expect(r.status).toBe(404);
      expect(((await r.json()) as any).error.message).toBe(DOMAIN_MESSAGES.notSetUp);
    } finally {
      await s.close();
    }
  });
});

describe("ownership", () => {
  it("answers another owner's domain id as not found, and changes nothing", async () => {
    const d = await addAndVerify(owner, "links.ada-music.com");
    const other = createApiOwner(t, "plus");
    for (const [method, path] of [["POST", `/api/domains/${d.id}/check`], ["DELETE", `/api/domains/${d.id}`]] as const) {
      const r = await json(other.call(method, path));
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.message).toBe(DOMAIN_MESSAGES.notFound);
    }
    expect((await json(other.call("GET", "/api/domains"))).body.domain).toBeNull();
    expect(rows()).toHaveLength(1);
    expect(rows()[0]!.verifiedAt).not.toBeNull();
  });

  it("needs a session and a same-origin request", async () => {
    expect((await t.app.request("/api/domains")).status).toBe(401);
    const cross = await t.app.request("/api/domains", { method: "POST", headers: { "Content-Type": "application/json", Cookie: owner.cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }, body: JSON.stringify({ domain: "links.ada-music.com" }) });
    expect(cross.status).toBe(403);
    expect(rows()).toHaveLength(0);
  });

  it("removes the domain with the account", async () => {
    await addAndVerify(owner, "links.ada-music.com");
    const { users } = await import("#db/schema.ts");
    t.deps.db.delete(users).where(eq(users.id, owner.userId)).run();
    expect(rows()).toHaveLength(0);
  });
});

describe("GET /api/domains/allowed (Caddy's ask)", () => {
  const ask = (domain: string) => t.app.request(`/api/domains/allowed?domain=${encodeURIComponent(domain)}`);

  it("answers 200 only for a verified domain and its www / apex companion", async () => {
    const added = await json(owner.call("POST", "/api/domains", { domain: "ada-music.com" }));
    expect((await ask("ada-music.com")).status).toBe(404);
    createRecords("ada-music.com", tokenOf(added.body.domain), "apex");
    await owner.call("POST", `/api/domains/${added.body.domain.id}/check`);
    expect((await ask("ada-music.com")).status).toBe(200);
    expect((await ask("ADA-MUSIC.com.")).status).toBe(200);
    expect((await ask("www.ada-music.com")).status).toBe(200);
    expect((await ask("other.ada-music.com")).status).toBe(404);
    // The www of a deeper name is not served: nobody is sent a certificate for it.
    const other = createApiOwner(t, "plus");
    await addAndVerify(other, "links.other-owner.com");
    expect((await ask("links.other-owner.com")).status).toBe(200);
    expect((await ask("www.links.other-owner.com")).status).toBe(404);
    expect((await ask("unknown-domain.com")).status).toBe(404);
    expect((await t.app.request("/api/domains/allowed")).status).toBe(400);
    for (const hostile of ["ada-music.com\r\nx", "../../etc/passwd", "x".repeat(5000), "1.2.3.4"]) {
      const res = await ask(hostile);
      expectErrorShape(res.status, await res.text(), hostile.slice(0, 20));
      expect(res.status).toBe(400);
    }
  });

  it("refuses a removed domain at once, so its certificate is never renewed, and keeps a kept one while the plan has lapsed (ADR 245)", async () => {
    const domain = await addAndVerify(owner, "ada-music.com");
    expect((await ask("ada-music.com")).status).toBe(200);
    // The plan ends: the domain is kept and redirects to the Plinth address, over https, so its
    // certificate stays allowed.
    const { userProfiles } = await import("#db/schema.ts");
    t.deps.db.update(userProfiles).set({ planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null }).where(eq(userProfiles.userId, owner.userId)).run();
    expect((await ask("ada-music.com")).status).toBe(200);
    expect((await ask("www.ada-music.com")).status).toBe(200);

    // Removed: the next question, the one before a renewal, is refused, for the companion too.
    expect((await owner.call("DELETE", `/api/domains/${domain.id}`)).status).toBe(200);
    expect((await ask("ada-music.com")).status).toBe(404);
    expect((await ask("www.ada-music.com")).status).toBe(404);

    // A domain whose account is deleted: refused as well.
    const leaving = createApiOwner(t, "plus");
    await addAndVerify(leaving, "links.leaving-owner.com");
    expect((await ask("links.leaving-owner.com")).status).toBe(200);
    const { users } = await import("#db/schema.ts");
    t.deps.db.delete(users).where(eq(users.id, leaving.userId)).run();
    expect((await ask("links.leaving-owner.com")).status).toBe(404);
  });
});
