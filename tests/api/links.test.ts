import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { links, userProfiles } from "#db/schema.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t);
});
afterEach(() => t.close());

async function add(o: ApiOwner, body: unknown) {
  const res = await o.call("POST", "/api/links", body);
  return { status: res.status, body: (await res.json()) as any };
}
const rows = (userId: string) => t.deps.db.select().from(links).where(eq(links.userId, userId)).all();

describe("POST /api/links", () => {
  it("adds every link type with its stored url", async () => {
    const cases: [unknown, string][] = [
      [{ linkType: "standard_url", title: "Site", url: "https://example.com" }, "https://example.com"],
      [{ linkType: "label", title: "Section" }, "#"],
      [{ linkType: "text_link", title: "Read", data: { url: "https://example.org/a", text: "Read this" } }, "https://example.org/a"],
      [{ linkType: "donation", title: "Tip", url: "https://ko-fi.com/me", data: { message: "Thanks!" } }, "https://ko-fi.com/me"],
      [{ linkType: "lead_magnet", title: "Guide", data: { description: "Free guide", fileUrl: "https://example.com/g.pdf" } }, "#"],
      [{ linkType: "vcf", title: "Card", data: { name: "Ada Lovelace", phone: "+44 1", email: "ada@example.com", organization: "AE" } }, "#"],
    ];
    for (const [body, url] of cases) {
      const r = await add(owner, body);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.link.url).toBe(url);
    }
    const list = await (await owner.call("GET", "/api/links")).json();
    expect(list.links.map((l: any) => l.orderIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(list.links[5].linkSpecificData).toEqual({ name: "Ada Lovelace", phone: "+44 1", email: "ada@example.com", organization: "AE" });
  });

  it("answers each missing field with docs/product.md's message", async () => {
    const cases: [unknown, string, string][] = [
      [{ linkType: "standard_url", title: "  ", url: "https://a.com" }, "title", "Title is required"],
      [{ linkType: "standard_url", title: "A" }, "url", "URL is required"],
      [{ linkType: "donation", title: "A" }, "url", "URL is required"],
      [{ linkType: "text_link", title: "A", data: { url: "https://a.com" } }, "data.text", "Link Text is required"],
      [{ linkType: "lead_magnet", title: "A" }, "data.description", "Description is required"],
      [{ linkType: "vcf", title: "A" }, "data.name", "Full Name is required"],
      [{ linkType: "vcf", title: "A", data: { name: "N", email: "nope" } }, "data.email", "Please enter a valid email address"],
    ];
    for (const [body, field, message] of cases) {
      const r = await add(owner, body);
      expect(r.status).toBe(400);
      expect(r.body.error.fields[field]).toBe(message);
    }
    expect(rows(owner.userId)).toHaveLength(0);
  });

  it("refuses hostile and malformed input with a 4xx", async () => {
    const hostile = [
      { linkType: "standard_url", title: "x", url: "javascript:alert(1)" },
      { linkType: "standard_url", title: "x", url: "data:text/html,<script>alert(1)</script>" },
      { linkType: "text_link", title: "x", data: { url: "javascript:alert(1)", text: "t" } },
      { linkType: "standard_url", title: "x".repeat(101), url: "https://a.com" },
      { linkType: "nope", title: "x", url: "https://a.com" },
      { linkType: "standard_url", title: "x", url: "https://a.com", thumbnailUrl: "javascript:alert(1)" },
      { linkType: "standard_url", title: "x", url: "https://a.com", scheduleStartTime: "2030-01-02T00:00:00Z", scheduleEndTime: "2030-01-01T00:00:00Z" },
      [],
      "null",
    ];
    for (const body of hostile) expect((await add(owner, body)).status).toBe(400);
    expect((await owner.call("POST", "/api/links", "{not json")).status).toBe(400);
    const big = await owner.call("POST", "/api/links", { linkType: "standard_url", title: "x", url: "https://a.com/" + "a".repeat(70_000) });
    expect(big.status).toBe(413);
    expect(rows(owner.userId)).toHaveLength(0);
  });

  it("keeps a script in a title as plain text", async () => {
    const r = await add(owner, { linkType: "standard_url", title: "<script>alert(1)</script>", url: "https://a.com" });
    expect(r.status).toBe(201);
    expect(r.body.link.title).toBe("<script>alert(1)</script>");
  });

  it("refuses signed-out and cross-origin requests", async () => {
    const anon = await t.app.request("/api/links");
    expect(anon.status).toBe(401);
    const cross = await t.app.request("/api/links", {
      method: "POST",
      headers: { Cookie: owner.cookie, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json" },
      body: JSON.stringify({ linkType: "standard_url", title: "x", url: "https://a.com" }),
    });
    expect(cross.status).toBe(403);
    expect(rows(owner.userId)).toHaveLength(0);
  });
});

describe("plan limits, whatever the browser sends", () => {
  it("Lite: at most 7 links, Lite types only, no thumbnail, schedule or main button", async () => {
    const lite = createApiOwner(t, "lite");
    for (let i = 0; i < 7; i++) expect((await add(lite, { linkType: "standard_url", title: `L${i}`, url: "https://a.com" })).status).toBe(201);
    const eighth = await add(lite, { linkType: "label", title: "8" });
    expect(eighth.status).toBe(402);
    expect(eighth.body.error.details.feature).toBe("unlimited_links");
    expect(rows(lite.userId)).toHaveLength(7);

    const other = createApiOwner(t, "lite");
    const blocked: [unknown, string][] = [
      [{ linkType: "vcf", title: "c", data: { name: "n" } }, "vcf"],
      [{ linkType: "lead_magnet", title: "c", data: { description: "d" } }, "lead_magnet"],
      [{ linkType: "standard_url", title: "c", url: "https://a.com", thumbnailUrl: "https://a.com/t.png" }, "thumbnails"],
      [{ linkType: "standard_url", title: "c", url: "https://a.com", scheduleStartTime: "2030-01-01T00:00:00Z" }, "scheduling"],
      [{ linkType: "standard_url", title: "c", url: "https://a.com", isMainButton: true }, "main_button"],
      [{ linkType: "promote_plinth", title: "c" }, "promote_plinth"],
    ];
    for (const [body, feature] of blocked) {
      const r = await add(other, body);
      expect(r.status).toBe(402);
      expect(r.body.error.details.feature).toBe(feature);
    }
    expect(rows(other.userId)).toHaveLength(0);
  });

  it("trial: thumbnails, schedules and the main button are saved", async () => {
    const r = await add(owner, {
      linkType: "standard_url",
      title: "T",
      url: "https://a.com",
      thumbnailUrl: "https://a.com/t.png",
      scheduleStartTime: "2030-01-01T00:00:00.000Z",
      isMainButton: true,
    });
    expect(r.status).toBe(201);
    expect(r.body.link).toMatchObject({ thumbnailUrl: "https://a.com/t.png", scheduleStartTime: "2030-01-01T00:00:00.000Z", isMainButton: true, orderIndex: 0 });
  });

  it("trial: Plus features work but promote links need a paying Plus owner", async () => {
    const r = await add(owner, { linkType: "promote_plinth", title: "Earn" });
    expect(r.status).toBe(402);
    expect(r.body.error.details.feature).toBe("promote_plinth");
    for (let i = 0; i < 8; i++) expect((await add(owner, { linkType: "label", title: `L${i}` })).status).toBe(201);
    const plus = createApiOwner(t, "plus");
    const p = await add(plus, { linkType: "promote_plinth", title: "Earn" });
    expect(p.status).toBe(201);
    const referral = t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, plus.userId)).get()!.referralId;
    expect(p.body.link.url).toBe(`${TEST_ORIGIN}/?ref=${referral}`);
  });
});

describe("editing links", () => {
  it("edits, hides, schedules, makes a main button and deletes", async () => {
    const a = (await add(owner, { linkType: "standard_url", title: "A", url: "https://a.com" })).body.link;
    const b = (await add(owner, { linkType: "standard_url", title: "B", url: "https://b.com", isMainButton: true })).body.link;
    const c = (await add(owner, { linkType: "standard_url", title: "C", url: "https://c.com" })).body.link;
    expect(b.isMainButton).toBe(true);

    const edit = await owner.edit("PATCH", `/api/links/${a.id}`, {
      linkType: "standard_url",
      title: "A2",
      url: "https://a2.com",
      scheduleStartTime: "2030-01-01T10:00:00.000Z",
      scheduleEndTime: "2030-02-01T10:00:00.000Z",
    });
    expect(edit.status).toBe(200);
    const edited = (await edit.json()).link;
    expect(edited.title).toBe("A2");
    expect(edited.scheduleStartTime).toBe("2030-01-01T10:00:00.000Z");

    const main = await owner.edit("PUT", `/api/links/${c.id}/main`, { isMainButton: true });
    expect(main.status).toBe(200);
    const after = (await (await owner.call("GET", "/api/links")).json()).links;
    expect(after.map((l: any) => [l.title, l.orderIndex, l.isMainButton])).toEqual([
      ["C", 0, true],
      ["B", 1, false],
      ["A2", 2, false],
    ]);

    const hide = await owner.edit("PATCH", `/api/links/${a.id}/visibility`, { isActive: false });
    expect((await hide.json()).message).toBe("Link hidden");
    const show = await owner.edit("PATCH", `/api/links/${a.id}/visibility`, { isActive: true });
    expect((await show.json()).message).toBe("Link activated");

    const before = t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!.updatedAt;
    expect((await owner.edit("DELETE", `/api/links/${b.id}`)).status).toBe(200);
    const profileAfter = t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!.updatedAt;
    expect(profileAfter.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(rows(owner.userId).map((l) => l.title).sort()).toEqual(["A2", "C"]);
  });

  it("reorders the whole page and refuses a partial or foreign order", async () => {
    const ids: string[] = [];
    for (const title of ["1", "2", "3"]) ids.push((await add(owner, { linkType: "label", title })).body.link.id);
    const ok = await owner.edit("PUT", "/api/links/order", { items: [ids[2], ids[0], ids[1]].map((id) => ({ id, parentListId: null })) });
    expect(ok.status).toBe(200);
    expect((await ok.json()).links.map((l: any) => l.title)).toEqual(["3", "1", "2"]);
    const partial = await owner.edit("PUT", "/api/links/order", { items: [{ id: ids[0], parentListId: null }] });
    expect(partial.status).toBe(400);
    const dup = await owner.edit("PUT", "/api/links/order", { items: [ids[0], ids[0], ids[1]].map((id) => ({ id, parentListId: null })) });
    expect(dup.status).toBe(400);
  });

  it("another owner's ids are not found and nothing changes", async () => {
    const mine = (await add(owner, { linkType: "standard_url", title: "Mine", url: "https://a.com" })).body.link;
    const intruder = createApiOwner(t);
    const body = { linkType: "standard_url", title: "Hacked", url: "https://evil.com" };
    expect((await intruder.edit("PATCH", `/api/links/${mine.id}`, body)).status).toBe(404);
    expect((await intruder.edit("PATCH", `/api/links/${mine.id}/visibility`, { isActive: false })).status).toBe(404);
    expect((await intruder.edit("PUT", `/api/links/${mine.id}/main`, { isMainButton: true })).status).toBe(404);
    expect((await intruder.edit("DELETE", `/api/links/${mine.id}`)).status).toBe(404);
    expect((await intruder.edit("PUT", "/api/links/order", { items: [{ id: mine.id, parentListId: null }] })).status).toBe(400);
    const theirs = (await add(intruder, { linkType: "label", title: "T" })).body.link;
    expect((await intruder.edit("PUT", "/api/links/order", { items: [{ id: theirs.id, parentListId: "nope" }] })).status).toBe(404);
    const row = rows(owner.userId)[0]!;
    expect(row.title).toBe("Mine");
    expect(row.isActive).toBe(true);
    expect(row.isMainButton).toBe(false);
  });

  it("Lite cannot turn an existing link into a Plus one", async () => {
    const lite = createApiOwner(t, "lite");
    const l = (await add(lite, { linkType: "standard_url", title: "A", url: "https://a.com" })).body.link;
    const r = await lite.edit("PATCH", `/api/links/${l.id}`, { linkType: "vcf", title: "A", data: { name: "N" } });
    expect(r.status).toBe(402);
    expect((await lite.edit("PUT", `/api/links/${l.id}/main`, { isMainButton: true })).status).toBe(402);
    expect(rows(lite.userId)[0]!.linkType).toBe("standard_url");
  });
});
