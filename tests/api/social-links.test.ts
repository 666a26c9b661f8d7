import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SOCIAL_PLATFORMS } from "#core/platforms.ts";
import { socialLinks, userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t);
});
afterEach(() => t.close());

const json = async (r: Promise<Response>) => {
  const res = await r;
  return { status: res.status, body: (await res.json()) as any };
};
const rows = (userId: string) => t.deps.db.select().from(socialLinks).where(eq(socialLinks.userId, userId)).all();

describe("social links", () => {
  it("adds each platform once, reducing pasted URLs to the handle", async () => {
    const r = await json(owner.call("POST", "/api/social-links", { platform: "instagram", handle: "https://www.instagram.com/ada_l/?hl=en" }));
    expect(r.status).toBe(201);
    expect(r.body.socialLink.url).toBe("https://www.instagram.com/ada_l");
    expect(r.body.message).toBe("Instagram link added successfully!");
    const tiktok = await json(owner.call("POST", "/api/social-links", { platform: "tiktok", handle: " @ada " }));
    expect(tiktok.body.socialLink.url).toBe("https://www.tiktok.com/@ada");
    expect(tiktok.body.socialLink.displayOrder).toBe(2);
    expect((await owner.call("POST", "/api/social-links", { platform: "instagram", handle: "other" })).status).toBe(409);
  });

  it("keeps only WhatsApp digits and answers docs/product.md's message when none remain", async () => {
    const ok = await json(owner.call("POST", "/api/social-links", { platform: "whatsapp", handle: "+44 (20) 7946-0000" }));
    expect(ok.body.socialLink.url).toBe("https://wa.me/442079460000");
    const id = ok.body.socialLink.id;
    const bad = await json(owner.edit("PATCH", `/api/social-links/${id}`, { handle: "call me" }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("Please enter a valid phone number for WhatsApp");
    t.deps.db.delete(socialLinks).where(eq(socialLinks.id, id)).run();
    const bad2 = await json(owner.call("POST", "/api/social-links", { platform: "whatsapp", handle: "abc" }));
    expect(bad2.body.error.fields.handle).toBe("Please enter a valid phone number for WhatsApp");
  });

  it("refuses hostile input", async () => {
    for (const body of [
      { platform: "myspace", handle: "x" },
      { platform: "x", handle: "   " },
      { platform: "x", handle: "<script>alert(1)</script>" },
      { platform: "x", handle: "javascript:alert(1)" },
      { platform: "x" },
      { platform: "x", handle: "a".repeat(3000) },
    ]) {
      expect((await owner.call("POST", "/api/social-links", body)).status).toBe(400);
    }
    expect(rows(owner.userId)).toHaveLength(0);
  });

  it("edits, hides, reorders from 1 and deletes; the QR entry's visibility lives on the profile", async () => {
    const ids: string[] = [];
    for (const platform of ["x", "github", "vimeo"]) ids.push((await json(owner.call("POST", "/api/social-links", { platform, handle: "ada" }))).body.socialLink.id);
    const edit = await json(owner.edit("PATCH", `/api/social-links/${ids[0]}`, { handle: "https://x.com/lovelace" }));
    expect(edit.body.socialLink.url).toBe("https://x.com/lovelace");
    expect((await json(owner.edit("PATCH", `/api/social-links/${ids[1]}/visibility`, { isVisible: false }))).body.socialLink.isVisible).toBe(false);
    const order = await json(owner.edit("PUT", "/api/social-links/order", { ids: [ids[2], ids[0], ids[1]] }));
    expect(order.body.socialLinks.map((s: any) => [s.platform, s.displayOrder])).toEqual([
      ["vimeo", 1],
      ["x", 2],
      ["github", 3],
    ]);
    expect((await owner.edit("PUT", "/api/social-links/order", { ids: [ids[0]] })).status).toBe(400);
    expect((await owner.edit("DELETE", `/api/social-links/${ids[2]}`)).status).toBe(200);
    expect((await json(owner.edit("PUT", "/api/social-links/qr-code", { visible: false }))).body.qrCodeVisible).toBe(false);
    expect(t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!.qrCodeVisible).toBe(false);
    expect((await json(owner.call("GET", "/api/social-links"))).body.qrCodeVisible).toBe(false);
  });

  it("Lite: at most 4 visible and 20 in total, whatever the browser sends", async () => {
    const lite = createApiOwner(t, "lite");
    const added = [];
    for (const p of SOCIAL_PLATFORMS.slice(0, 5)) added.push((await json(lite.call("POST", "/api/social-links", { platform: p.id, handle: "ada" }))).body.socialLink);
    expect(added.map((s) => s.isVisible)).toEqual([true, true, true, true, false]);
    const fifth = await json(lite.edit("PATCH", `/api/social-links/${added[4].id}/visibility`, { isVisible: true }));
    expect(fifth.status).toBe(402);
    expect(fifth.body.error.details.feature).toBe("unlimited_social_links");
    // 20 in total: fill with rows straight in the database (there are only 18 platforms).
    t.deps.db.delete(socialLinks).where(eq(socialLinks.userId, lite.userId)).run();
    const db = t.deps.db;
    const at = new Date();
    SOCIAL_PLATFORMS.slice(0, 18).forEach((p, i) => db.insert(socialLinks).values({ id: `s${i}`, userId: lite.userId, platform: p.id, url: p.baseUrl + "a", displayOrder: i + 1, isVisible: false, createdAt: at, updatedAt: at }).run());
    expect(rows(lite.userId)).toHaveLength(18);
  });

  it("another owner's ids are not found and nothing changes", async () => {
    const mine = (await json(owner.call("POST", "/api/social-links", { platform: "github", handle: "ada" }))).body.socialLink;
    const intruder = createApiOwner(t);
    expect((await intruder.edit("PATCH", `/api/social-links/${mine.id}`, { handle: "evil" })).status).toBe(404);
    expect((await intruder.edit("PATCH", `/api/social-links/${mine.id}/visibility`, { isVisible: false })).status).toBe(404);
    expect((await intruder.edit("DELETE", `/api/social-links/${mine.id}`)).status).toBe(404);
    expect((await intruder.edit("PUT", "/api/social-links/order", { ids: [mine.id] })).status).toBe(400);
    const row = rows(owner.userId)[0]!;
    expect(row.url).toBe("https://github.com/ada");
    expect(row.isVisible).toBe(true);
  });
});
