import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, sameOrigin, type TestApp } from "#tests/support/app.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

function publish(username: string, html: string) {
  const dir = join(t.deps.env.PUBLISHED_DIR, username);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "index.html"), html);
}

describe("GET /api/health", () => {
  it("answers ok, db and version", async () => {
    const res = await t.app.request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, db: "ok", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("every API answer, errors included, carries the security headers and no-store; the visitor routes are readable cross-origin", async () => {
    const answers = [
      await t.app.request("/api/health"),
      await t.app.request("/api/no-such-route"),
      await t.app.request("/api/me"),
      await t.app.request("/api/auth/username-availability?username=" + "x".repeat(5000)),
    ];
    for (const res of answers) {
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(res.headers.get("strict-transport-security")).toBe("max-age=15552000; includeSubDomains");
    }
    expect(answers.map((r) => r.status)).toEqual([200, 404, 401, 400]);
    const refused = await t.app.request("/api/visitor/track", { method: "POST", headers: { "Content-Type": "text/plain" }, body: '{"type":"page_view","username":"nobody_here"}' });
    expect(refused.status).toBe(404);
    expect(refused.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(refused.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("reports a broken database as 503", async () => {
    t.deps.db.$client.close();
    const res = await t.app.request("/api/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, db: "unavailable" });
    // Reopen so close() in afterEach works.
    const { openDatabase } = await import("#db/client.ts");
    t.deps.db = openDatabase({ path: t.deps.env.DATABASE_PATH });
  });
});

describe("API errors", () => {
  it("answers unknown API paths with the JSON error shape", async () => {
    const res = await t.app.request("/api/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "Not found" } });
  });

  it("refuses a cross-origin state-changing request", async () => {
    const res = await t.app.request("/api/links", {
      method: "POST",
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json" },
      body: JSON.stringify({ title: "x" }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("forbidden");
  });

  it("refuses a cookie-carrying request that names no origin", async () => {
    const res = await t.app.request("/api/links", {
      method: "POST",
      headers: { Cookie: "plinth_session=abc.def", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(403);
  });

  it("refuses an oversized body with 413", async () => {
    const res = await t.app.request("/api/links", {
      method: "POST",
      headers: sameOrigin(),
      body: JSON.stringify({ title: "x".repeat(100 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("payload_too_large");
  });

  it("asks for a session before anything else on owner routes", async () => {
    const res = await t.app.request("/api/links", { method: "POST", headers: sameOrigin(), body: "{not json" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: "unauthorized", message: "User not authenticated" } });
  });

  it("ignores a forged session cookie", async () => {
    const res = await t.app.request("/api/links", { headers: { Cookie: "plinth_session=aaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" } });
    expect(res.status).toBe(401);
  });
});

describe("published pages", () => {
  it("serves /{username} from published/{username}/index.html", async () => {
    publish("alice", "<!doctype html><title>Alice</title><p>hello</p>");
    const res = await t.app.request("/alice");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain("<p>hello</p>");
    expect(res.headers.get("etag")).toBeTruthy();
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("answers a matching If-None-Match with 304", async () => {
    publish("alice", "<p>hello</p>");
    const first = await t.app.request("/alice");
    const res = await t.app.request("/alice", { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(res.status).toBe(304);
  });

  it("redirects a mixed-case name to lowercase", async () => {
    publish("alice", "<p>hello</p>");
    const res = await t.app.request("/Alice?x=1");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/alice?x=1");
  });

  it.each(["/nobody", "/api", "/dashboard", "/admin", "/ab", "/a.b", "/%2e%2e/%2e%2e/etc/passwd", "/_p/../data/plinth.db"])(
    "gives the 404 page with status 404 for %s",
    async (path) => {
      const res = await t.app.request(path);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("Page Not Found");
    },
  );

  it("never serves a reserved name even if a folder exists for it", async () => {
    publish("admin", "<p>should not be served</p>");
    const res = await t.app.request("/admin");
    expect(res.status).toBe(404);
  });

  it("serves published files with immutable caching and refuses traversal", async () => {
    mkdirSync(join(t.deps.env.PUBLISHED_DIR, "_p"), { recursive: true });
    writeFileSync(join(t.deps.env.PUBLISHED_DIR, "_p", "visitor.abc123.js"), "console.log(1)");
    const ok = await t.app.request("/_p/visitor.abc123.js");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toContain("immutable");
    expect(ok.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const bad = await t.app.request("/_p/%2e%2e/%2e%2e/package.json");
    expect(bad.status).toBe(404);
  });

  it("serves a page's content-named files, the QR code and contact cards, with immutable caching", async () => {
    publish("cardowner", "<p>page</p>");
    const dir = join(t.deps.env.PUBLISHED_DIR, "cardowner");
    writeFileSync(join(dir, "qr-1a2b3c.svg"), "<svg></svg>");
    writeFileSync(join(dir, "contact-9z8y.vcf"), "BEGIN:VCARD\r\nEND:VCARD\r\n");
    writeFileSync(join(dir, "qr.svg"), "<svg></svg>");
    for (const [path, type] of [["/cardowner/qr-1a2b3c.svg", "image/svg+xml"], ["/cardowner/contact-9z8y.vcf", "text/vcard"]] as const) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toContain("immutable");
      expect(res.headers.get("content-type"), path).toContain(type);
    }
    // Only names the renderer gives: anything else in a page's folder stays private.
    for (const path of ["/cardowner/qr.svg", "/cardowner/qr-ABC.svg", "/cardowner/.tmp-index.html"]) expect((await t.app.request(path)).status, path).toBe(404);
  });
});

describe("mail", () => {
  it("writes messages to the outbox as .eml files", async () => {
    await t.deps.mailer.send({ to: "someone@example.com", subject: "Hello there", text: "Your code is 123456" });
    const mails = t.outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("To: someone@example.com");
    expect(mails[0]).toContain("Subject: Hello there");
    expect(mails[0]).toContain("123456");
  });
});
