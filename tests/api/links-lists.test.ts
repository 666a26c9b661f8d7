import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { linkLists, links } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "lite");
});
afterEach(() => t.close());

const json = async (r: Promise<Response>) => {
  const res = await r;
  return { status: res.status, body: (await res.json()) as any };
};

describe("link lists", () => {
  it("creates, renames, groups links, reorders and deletes a list", async () => {
    const list = (await json(owner.call("POST", "/api/link-lists", { title: "  Music  " }))).body.list;
    expect(list.title).toBe("Music");
    const a = (await json(owner.call("POST", "/api/links", { linkType: "label", title: "A" }))).body.link;
    const b = (await json(owner.call("POST", "/api/links", { linkType: "label", title: "B", parentListId: list.id }))).body.link;
    expect(b.parentListId).toBe(list.id);

    const moved = await json(owner.edit("PUT", "/api/links/order", { items: [{ id: b.id, parentListId: null }, { id: a.id, parentListId: list.id }], lists: [list.id] }));
    expect(moved.status).toBe(200);
    expect(moved.body.links.map((l: any) => [l.title, l.parentListId])).toEqual([
      ["B", null],
      ["A", list.id],
    ]);

    const renamed = await json(owner.edit("PATCH", `/api/link-lists/${list.id}`, { title: "Songs" }));
    expect(renamed.body.list.title).toBe("Songs");

    expect((await owner.edit("DELETE", `/api/link-lists/${list.id}`)).status).toBe(200);
    const rows = t.deps.db.select().from(links).where(eq(links.userId, owner.userId)).all();
    expect(rows.map((r) => r.parentListId)).toEqual([null, null]);
  });

  it("refuses bad titles and another owner's list", async () => {
    expect((await json(owner.call("POST", "/api/link-lists", { title: "  " }))).body.error.message).toBe("List title is required");
    expect((await owner.call("POST", "/api/link-lists", { title: "x".repeat(101) })).status).toBe(400);
    expect((await owner.call("POST", "/api/link-lists", { nope: 1 })).status).toBe(400);
    const list = (await json(owner.call("POST", "/api/link-lists", { title: "Mine" }))).body.list;
    const intruder = createApiOwner(t);
    expect((await intruder.edit("PATCH", `/api/link-lists/${list.id}`, { title: "Hacked" })).status).toBe(404);
    expect((await intruder.edit("DELETE", `/api/link-lists/${list.id}`)).status).toBe(404);
    expect((await intruder.call("POST", "/api/links", { linkType: "label", title: "x", parentListId: list.id })).status).toBe(404);
    const row = t.deps.db.select().from(linkLists).where(eq(linkLists.id, list.id)).get();
    expect(row?.title).toBe("Mine");
    expect((await t.app.request("/api/link-lists")).status).toBe(401);
  });
});
