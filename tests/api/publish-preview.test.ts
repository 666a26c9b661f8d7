import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import MarkdownIt from "markdown-it";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OWNER_WRITE_LIMITS, TOO_MANY_PREVIEWS } from "#api/auth/owner-write-limit.ts";
import { createServerApp } from "#api/site.ts";
import { PROFILE_MESSAGES } from "#core/profile.ts";
import { TEXT_MESSAGES } from "#core/text-rule.ts";
import { userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
  t.deps.db.update(userProfiles).set({ displayName: "Draft Only Name" }).where(eq(userProfiles.userId, owner.userId)).run();
});
afterEach(() => t.close());

describe("preview", () => {
  it.each(["/{u}/preview", "/{u}?preview=true"])("shows %s to its owner, noindex and uncached", async (pattern) => {
    const res = await t.app.request(pattern.replace("{u}", owner.username), { headers: { Cookie: owner.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-robots-tag")).toContain("noindex");
    const html = await res.text();
    expect(html).toContain("Draft Only Name");
    expect(html).toContain('<meta name="robots" content="noindex,nofollow">');
    expect(html).toContain('<div class="pv" role="status">Preview: this is your unpublished draft.');
    // A preview never counts as a visit.
    expect(html).toContain('"preview":true');
  });

  it("answers 404 to signed-out visitors and to other owners, without the draft", async () => {
    const other = createApiOwner(t, "trial");
    const headerSets: Record<string, string>[] = [{}, { Cookie: other.cookie }, { Cookie: "plinth_session=forged.token" }];
    for (const headers of headerSets) {
      for (const path of [`/${owner.username}/preview`, `/${owner.username}?preview=true`]) {
        const res = await t.app.request(path, { headers });
        expect(res.status).toBe(404);
        expect(res.headers.get("cache-control")).toBe("no-store");
        expect(await res.text()).not.toContain("Draft Only Name");
      }
    }
  });

  it("leaves the published page as it was", async () => {
    await owner.call("POST", "/api/publish");
    t.deps.db.update(userProfiles).set({ displayName: "Newer Draft" }).where(eq(userProfiles.userId, owner.userId)).run();
    const preview = await t.app.request(`/${owner.username}/preview`, { headers: { Cookie: owner.cookie } });
    expect(await preview.text()).toContain("Newer Draft");
    const live = await t.app.request(`/${owner.username}`);
    expect(await live.text()).toContain("Draft Only Name");
  });
});

describe("long-form text that cannot stall the server (issue 35, ADR 148)", () => {
  const longForm = () => t.deps.db.select({ text: userProfiles.longFormText, revision: userProfiles.textRevision }).from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!;

  it("refuses, with the field's message and nothing saved, more list items than allowed, nesting the parser would not read, and references to invisible characters", async () => {
    const before = longForm();
    const cases: [string, string][] = [
      ["- a\n".repeat(1250), PROFILE_MESSAGES.longFormTooManyItems],
      ["> ".repeat(100) + "deep", PROFILE_MESSAGES.longFormTooDeep],
      ["[&#x202E;moc.elgoog](https://evil.example/)", TEXT_MESSAGES.invisible],
      ["Hello &#x2066;there", TEXT_MESSAGES.invisible],
    ];
    for (const [text, message] of cases) {
      const res = await owner.edit("PATCH", "/api/profile/text", { longFormText: text });
      expect(res.status, text.slice(0, 30)).toBe(400);
      expect(((await res.json()) as any).error).toMatchObject({ message, fields: { longFormText: message } });
    }
    expect(longForm()).toEqual(before);
    // The raw character is refused as before.
    expect((await owner.edit("PATCH", "/api/profile/text", { longFormText: "[\u202emoc.elgoog](https://evil.example/)" })).status).toBe(400);
    expect((await owner.edit("PATCH", "/api/profile/text", { longFormText: "- a\n".repeat(200) })).status).toBe(200);
  });

  it("is parsed once when saved; previews draw the kept tree without parsing it again", async () => {
    const parse = vi.spyOn(MarkdownIt.prototype, "parse");
    try {
      const text = `## About ${Date.now()}\n\n- *one*\n- [two](https://example.com/)`;
      expect((await owner.edit("PATCH", "/api/profile/text", { longFormText: text })).status).toBe(200);
      expect(parse).toHaveBeenCalledTimes(1);
      for (let i = 0; i < 5; i++) {
        const res = await t.app.request(`/${owner.username}/preview`, { headers: { Cookie: owner.cookie } });
        expect(await res.text()).toContain('<a href="https://example.com/" rel="noopener">two</a>');
      }
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });
});

describe("previews are limited per owner like writes (issue 35)", () => {
  it("answers 429 after the burst, to that owner only, and again once time has passed", async () => {
    let at = new Date("2026-11-28T12:00:00Z");
    const app = createServerApp({ ...t.deps, now: () => at });
    const other = createApiOwner(t, "trial");
    const preview = (who: ApiOwner) => app.request(`/${who.username}/preview`, { headers: { Cookie: who.cookie } });
    for (let i = 0; i < OWNER_WRITE_LIMITS.previews.burst; i++) expect((await preview(owner)).status).toBe(200);
    const refused = await preview(owner);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.text()).toBe(TOO_MANY_PREVIEWS);
    expect((await preview(other)).status).toBe(200);
    at = new Date(at.getTime() + 1000);
    expect((await preview(owner)).status).toBe(200);
    expect((await preview(owner)).status).toBe(429);
  });
});

describe("sitemap.xml and robots.txt", () => {
  it("lists published pages only and is served from the root", async () => {
    const unpublished = createApiOwner(t, "trial");
    await owner.call("POST", "/api/publish");
    const sitemap = await t.app.request("/sitemap.xml");
    expect(sitemap.status).toBe(200);
    const xml = await sitemap.text();
    expect(xml).toContain(`/${owner.username}</loc>`);
    expect(xml).not.toContain(unpublished.username);
    expect(readFileSync(join(t.deps.env.PUBLISHED_DIR, "sitemap.xml"), "utf8")).toBe(xml);
    const robots = await (await t.app.request("/robots.txt")).text();
    expect(robots).toContain("Sitemap: ");
    expect(robots).toContain("Disallow: /api/");
  });
});
