/**
 * The demo page ships nothing the editor refuses (issue 33): every link, social link and profile text
 * `npm run seed` writes passes the same schemas the dashboard and the API check an owner's input with,
 * is stored exactly as they would store it, and is drawn on the published page.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LinkExtrasSchema } from "#core/dashboard-schemas.ts";
import { LinkInputSchema, storedUrlFor } from "#core/link-input.ts";
import { getPlatform } from "#core/platforms.ts";
import { InitialsSchema, ProfileTextSchema } from "#core/schemas/profile.ts";
import { SocialAddSchema } from "#core/schemas/social.ts";
import { handleOf } from "#core/social-handle.ts";
import { links, socialLinks, userProfiles } from "#db/schema.ts";
import { DEMO_USERNAME, seedDemo } from "#scripts/lib/seed-demo.ts";
import { all, parseHtml } from "#tests/unit/renderer/html.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";

let t: TestApp;
let userId: string;
beforeAll(async () => {
  t = createTestApp();
  const seeded = await seedDemo(t.deps, "Demo-password-for-the-seed-test-9!");
  expect(seeded.published).toBe(true);
  userId = seeded.userId;
});
afterAll(() => t.close());

describe("the demo page (npm run seed)", () => {
  it("holds only links the link dialog and the API accept, stored as they would store them", () => {
    const rows = t.deps.db.select().from(links).where(eq(links.userId, userId)).all();
    expect(rows.length).toBeGreaterThan(0);
    for (const l of rows) {
      const input = LinkInputSchema.safeParse({ linkType: l.linkType, title: l.title, url: l.url, data: l.linkSpecificData });
      expect(input.success, `${l.title}: ${JSON.stringify(input.error?.issues)}`).toBe(true);
      expect(storedUrlFor(input.data!, ""), l.title).toBe(l.url);
      expect(LinkExtrasSchema.safeParse({ thumbnailUrl: l.thumbnailUrl, isMainButton: l.isMainButton }).success, l.title).toBe(true);
    }
  });

  it("holds only social links the Social Links screen accepts, and profile texts the Bio screen accepts", () => {
    const rows = t.deps.db.select().from(socialLinks).where(eq(socialLinks.userId, userId)).all();
    expect(rows.length).toBeGreaterThan(0);
    for (const s of rows) {
      const parsed = SocialAddSchema.safeParse({ platform: s.platform, handle: handleOf(getPlatform(s.platform)!, s.url) });
      expect(parsed.success && parsed.data.url, s.url).toBe(s.url);
    }
    const p = t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get()!;
    const text = { displayName: p.displayName, bio: p.bio, seoTitle: p.seoTitle ?? "", seoDescription: p.seoDescription ?? "", longFormText: p.longFormText ?? "" };
    expect(ProfileTextSchema.safeParse(text).success).toBe(true);
    expect(InitialsSchema.safeParse(p.initialsText ?? "").success).toBe(true);
  });

  it("draws every seeded link and social icon on the published page, the e-mail link included", () => {
    const page = parseHtml(readFileSync(join(t.deps.env.PUBLISHED_DIR, DEMO_USERNAME, "index.html"), "utf8"));
    const rows = t.deps.db.select().from(links).where(eq(links.userId, userId)).all();
    const hrefs = Object.fromEntries(all(page, (e) => e.tag === "a" && !!e.attrs["data-link"]).map((e) => [e.attrs["data-link"], e.attrs.href]));
    expect(hrefs).toEqual(Object.fromEntries(rows.map((l) => [l.id, l.url])));
    expect(Object.values(hrefs)).toContain("mailto:hello@example.com");
    const socials = t.deps.db.select().from(socialLinks).where(eq(socialLinks.userId, userId)).all();
    expect(all(page, (e) => e.tag === "a" && !!e.attrs["data-social"]).map((e) => e.attrs.href).sort()).toEqual(socials.map((s) => s.url).sort());
  });
});
