/**
 * Every HTML answer of the server carries a Content-Security-Policy and may not be framed (ADR 055):
 * the site's pages allow scripts from this origin and their own inline scripts by hash, nothing
 * else; published pages and the owner's preview keep the policy of their meta tag and get the
 * framing rules by header.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

/** A policy's directives by name. */
function directives(policy: string | null): Record<string, string[]> {
  expect(policy).toBeTruthy();
  return Object.fromEntries(
    policy!
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

const hash = (script: string) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`;

/** A built site page as Astro writes one: inline scripts in the head and body, a module script by URL. */
function sitePage(title: string, scripts: string[]): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title><script>${scripts[0]}</script><script type="module" src="/_astro/page.js"></script></head><body><h1>${title}</h1>${scripts
    .slice(1)
    .map((s) => `<script type="module">${s}</script>`)
    .join("")}</body></html>`;
}

function writeSite(files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(t.deps.env.SITE_DIR, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

const PAGES = {
  "/": ["index.html", "Home"],
  "/auth/login": ["auth/login/index.html", "Sign In"],
  "/dashboard/links": ["dashboard/index.html", "Dashboard"],
  "/billing/portal": ["billing/portal/index.html", "Billing"],
  "/no/such/page": ["404.html", "Page Not Found"],
} as const;

function expectFrameProtection(res: Response, where: string): void {
  expect(res.headers.get("x-frame-options"), where).toBe("DENY");
  const d = directives(res.headers.get("content-security-policy"));
  expect(d["frame-ancestors"], where).toEqual(["'none'"]);
  expect(d["object-src"], where).toEqual(["'none'"]);
  expect(d["base-uri"], where).toEqual(["'none'"]);
}

describe("the site's pages", () => {
  it("allow scripts from this origin and exactly their own inline scripts, nothing else", async () => {
    const scriptsOf = (title: string) => [`document.documentElement.dataset.page=${JSON.stringify(title)}`, `console.log(${JSON.stringify(title)})`];
    writeSite(Object.fromEntries(Object.values(PAGES).map(([file, title]) => [file, sitePage(title, scriptsOf(title))])));
    for (const [path, [, title]] of Object.entries(PAGES)) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(path === "/no/such/page" ? 404 : 200);
      expect(await res.text(), path).toContain(`<h1>${title}</h1>`);
      expectFrameProtection(res, path);
      const d = directives(res.headers.get("content-security-policy"));
      expect(d["script-src"], path).toEqual(["'self'", ...scriptsOf(title).map(hash)]);
      expect(d["default-src"]).toEqual(["'self'"]);
      expect(d["connect-src"]).toEqual(["'self'"]);
      expect(d["form-action"]).toEqual(["'self'"]);
      expect(d["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
      expect(d["img-src"]).toEqual(["'self'", "data:", "blob:", "https:"]);
    }
    // HEAD and a revalidation say the same.
    const page = await t.app.request("/auth/login");
    for (const res of [await t.app.request("/auth/login", { method: "HEAD" }), await t.app.request("/auth/login", { headers: { "If-None-Match": page.headers.get("etag")! } })]) {
      expect(res.headers.get("content-security-policy")).toBe(page.headers.get("content-security-policy"));
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
  });

  it("follows a rebuilt page's scripts", async () => {
    writeSite({ "index.html": sitePage("Home", ["first()"]) });
    expect(directives((await t.app.request("/")).headers.get("content-security-policy"))["script-src"]).toEqual(["'self'", hash("first()")]);
    writeSite({ "index.html": sitePage("Home", ["second(1)", "third()"]) });
    expect(directives((await t.app.request("/")).headers.get("content-security-policy"))["script-src"]).toEqual(["'self'", hash("second(1)"), hash("third()")]);
  });

  it("gives the built-in page, when the site is not built, a policy that allows no script", async () => {
    const res = await t.app.request("/no/such/page");
    expect(res.status).toBe(404);
    expectFrameProtection(res, "fallback");
    expect(directives(res.headers.get("content-security-policy"))["default-src"]).toEqual(["'none'"]);
  });

  it("sends no page policy with scripts, styles and images", async () => {
    writeSite({ "index.html": sitePage("Home", ["x()"]), "_astro/page.js": "x()", "favicon.svg": "<svg></svg>" });
    for (const path of ["/_astro/page.js", "/favicon.svg"]) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-security-policy"), path).toBeNull();
    }
  });
});

describe("published pages and the preview", () => {
  it("keep their own policy and may not be framed", async () => {
    const owner = createApiOwner(t, "trial");
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    const page = await t.app.request(`/${owner.username}`);
    expect(page.status).toBe(200);
    expectFrameProtection(page, "published page");
    const html = await page.text();
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#39;/g, "'");
    expect(directives(meta!)["default-src"]).toEqual(["'none'"]);
    expect(readFileSync(join(t.deps.env.PUBLISHED_DIR, owner.username, "index.html"), "utf8")).toBe(html);

    for (const path of [`/${owner.username}/preview`, `/${owner.username}?preview=true`]) {
      const preview = await t.app.request(path, { headers: { Cookie: owner.cookie } });
      expect(preview.status, path).toBe(200);
      expectFrameProtection(preview, path);
    }
    // The 404 a stranger gets instead of the preview, too.
    const refused = await t.app.request(`/${owner.username}/preview`);
    expect(refused.status).toBe(404);
    expectFrameProtection(refused, "refused preview");
  });
});
