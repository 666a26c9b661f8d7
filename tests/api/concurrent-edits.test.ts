/**
 * Two tabs editing the same thing (ADR 068): every write names the revision it was based on. A write
 * based on an older revision is refused with 409 and docs/product.md-style message and changes nothing; a
 * write based on the current one succeeds and answers the new revision; a write without a revision
 * (or with a malformed one) is a 400; another owner's ids stay 404. Discard and rollback give what
 * they restore new revisions, so a tab still showing the draft from before cannot overwrite it.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REVISION_REQUIRED, STALE_WRITE } from "#core/schemas/revision.ts";
import { linkLists, links, socialLinks, uploads, userProfiles } from "#db/schema.ts";
import { rerenderPublishedPage } from "#renderer/rerender.ts";
import { processPicture, saveProfilePicture } from "#api/services/uploads.ts";
import { mediaStorageFor } from "#api/storage/media.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import sharp from "sharp";

let t: TestApp;
let owner: ApiOwner;
beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
});
afterEach(() => t.close());

const json = async (r: Promise<Response>) => {
  const res = await r;
  return { status: res.status, body: (await res.json()) as any };
};
const profile = (o: ApiOwner = owner) => t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, o.userId)).get()!;
const link = (id: string) => t.deps.db.select().from(links).where(eq(links.id, id)).get();
const list = (id: string) => t.deps.db.select().from(linkLists).where(eq(linkLists.id, id)).get();
const social = (id: string) => t.deps.db.select().from(socialLinks).where(eq(socialLinks.id, id)).get();

async function expectStale(r: Promise<Response>) {
  const res = await json(r);
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expect(res.body.error.message).toBe(STALE_WRITE);
  expect(res.body.error.details).toEqual({ stale: true });
}

async function expectRevisionRequired(r: Promise<Response>) {
  const res = await json(r);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.message).toBe(REVISION_REQUIRED);
  expect(res.body.error.fields.revision).toBe(REVISION_REQUIRED);
}

/** Revisions a JSON body may not carry: missing, text, negative, fractional, null, past the safe integers. */
const BAD_REVISIONS: unknown[] = [undefined, "1", -1, 1.5, null, 2 ** 60, true, {}];
/** The same for a query string. */
const BAD_QUERIES = ["", "?revision=", "?revision=abc", "?revision=-1", "?revision=1.5", "?revision=1e3", "?revision=1&revision=2", `?revision=${"9".repeat(16)}`];

const addLink = async (o: ApiOwner = owner, title = "Original") =>
  (await json(o.call("POST", "/api/links", { linkType: "standard_url", title, url: "https://example.com" }))).body.link as { id: string; revision: number };
const editBody = (title: string, revision?: unknown) => ({ linkType: "standard_url", title, url: "https://example.com", ...(revision === undefined ? {} : { revision }) });

describe("links", () => {
  it("two tabs editing one link: the later save based on the old version gets 409 and changes nothing", async () => {
    const l = await addLink();
    const first = await json(owner.call("PATCH", `/api/links/${l.id}`, editBody("From tab one", l.revision)));
    expect(first.status).toBe(200);
    expect(first.body.link.title).toBe("From tab one");
    expect(first.body.link.revision).toBeGreaterThan(l.revision);
    expect(link(l.id)!.revision).toBe(first.body.link.revision);

    const updatedAt = link(l.id)!.updatedAt.getTime();
    await expectStale(owner.call("PATCH", `/api/links/${l.id}`, editBody("From tab two", l.revision)));
    expect(link(l.id)!.title).toBe("From tab one");
    expect(link(l.id)!.revision).toBe(first.body.link.revision);
    expect(link(l.id)!.updatedAt.getTime()).toBe(updatedAt);

    // After a reload the second tab has the new revision, and its save goes through.
    const retry = await json(owner.call("PATCH", `/api/links/${l.id}`, editBody("From tab two", first.body.link.revision)));
    expect(retry.status).toBe(200);
    expect(retry.body.link.title).toBe("From tab two");
    expect(retry.body.link.revision).toBeGreaterThan(first.body.link.revision);
  });

  it("hiding, making main and deleting are refused on an old version too, and answer the new one when fresh", async () => {
    const l = await addLink();
    const edited = (await json(owner.call("PATCH", `/api/links/${l.id}`, editBody("Renamed", l.revision)))).body.link;

    await expectStale(owner.call("PATCH", `/api/links/${l.id}/visibility`, { isActive: false, revision: l.revision }));
    expect(link(l.id)!.isActive).toBe(true);
    await expectStale(owner.call("PUT", `/api/links/${l.id}/main`, { isMainButton: true, revision: l.revision }));
    expect(link(l.id)!.isMainButton).toBe(false);
    await expectStale(owner.call("DELETE", `/api/links/${l.id}?revision=${l.revision}`));
    expect(link(l.id)).toBeDefined();
    expect(link(l.id)!.revision).toBe(edited.revision);

    const hidden = await json(owner.call("PATCH", `/api/links/${l.id}/visibility`, { isActive: false, revision: edited.revision }));
    expect(hidden.status).toBe(200);
    expect(hidden.body.link.revision).toBeGreaterThan(edited.revision);
    const main = await json(owner.call("PUT", `/api/links/${l.id}/main`, { isMainButton: true, revision: hidden.body.link.revision }));
    expect(main.status).toBe(200);
    expect(main.body.link.isMainButton).toBe(true);
    expect(main.body.link.revision).toBeGreaterThan(hidden.body.link.revision);
    const gone = await json(owner.call("DELETE", `/api/links/${l.id}?revision=${main.body.link.revision}`));
    expect(gone.status).toBe(200);
    expect(link(l.id)).toBeUndefined();
    // A write to a link deleted meanwhile is a 404, not a 409.
    expect((await owner.call("PATCH", `/api/links/${l.id}`, editBody("Too late", main.body.link.revision))).status).toBe(404);
  });

  it("making one link the main button changes the link that lost the flag: a tab showing it gets 409", async () => {
    const a = await addLink(owner, "A");
    const b = await addLink(owner, "B");
    const aMain = (await json(owner.call("PUT", `/api/links/${a.id}/main`, { isMainButton: true, revision: a.revision }))).body.link;
    await json(owner.call("PUT", `/api/links/${b.id}/main`, { isMainButton: true, revision: b.revision }));
    expect(link(a.id)!.isMainButton).toBe(false);
    await expectStale(owner.call("PATCH", `/api/links/${a.id}`, { ...editBody("A"), isMainButton: true, revision: aMain.revision }));
    expect(link(b.id)!.isMainButton).toBe(true);
  });

  it("refuses a write without a revision, or with a malformed one, with 400, and changes nothing", async () => {
    const l = await addLink();
    for (const revision of BAD_REVISIONS) {
      const what = JSON.stringify(revision);
      const body = (extra: object) => (revision === undefined ? extra : { ...extra, revision });
      await expectRevisionRequired(owner.call("PATCH", `/api/links/${l.id}`, body(editBody("Changed"))));
      await expectRevisionRequired(owner.call("PATCH", `/api/links/${l.id}/visibility`, body({ isActive: false })));
      await expectRevisionRequired(owner.call("PUT", `/api/links/${l.id}/main`, body({ isMainButton: true })));
      await expectRevisionRequired(owner.call("PUT", "/api/links/order", body({ items: [{ id: l.id, parentListId: null }] })));
      expect(link(l.id), what).toMatchObject({ title: "Original", isActive: true, isMainButton: false, revision: l.revision });
    }
    for (const q of BAD_QUERIES) await expectRevisionRequired(owner.call("DELETE", `/api/links/${l.id}${q}`));
    expect(link(l.id)).toBeDefined();
  });

  it("another owner's link is not found, whatever revision is sent, and nothing changes", async () => {
    const mine = await addLink();
    const intruder = createApiOwner(t);
    expect((await intruder.call("PATCH", `/api/links/${mine.id}`, editBody("Hacked", mine.revision))).status).toBe(404);
    expect((await intruder.call("PATCH", `/api/links/${mine.id}/visibility`, { isActive: false, revision: mine.revision })).status).toBe(404);
    expect((await intruder.call("PUT", `/api/links/${mine.id}/main`, { isMainButton: true, revision: mine.revision })).status).toBe(404);
    expect((await intruder.call("DELETE", `/api/links/${mine.id}?revision=${mine.revision}`)).status).toBe(404);
    expect(link(mine.id)).toMatchObject({ title: "Original", isActive: true, isMainButton: false, revision: mine.revision });
    expect(profile(intruder).draftRevision).toBe(0);
  });
});

describe("the links order", () => {
  it("a reorder based on an old order gets 409 and changes nothing; a fresh one answers the new order revision", async () => {
    const a = await addLink(owner, "A");
    const b = await addLink(owner, "B");
    const seen = (await json(owner.call("GET", "/api/links"))).body.orderRevision as number;
    expect(seen).toBe(profile().linksOrderRevision);

    const moved = await json(owner.call("PUT", "/api/links/order", { items: [{ id: b.id, parentListId: null }, { id: a.id, parentListId: null }], revision: seen }));
    expect(moved.status).toBe(200);
    expect(moved.body.links.map((l: any) => l.title)).toEqual(["B", "A"]);
    expect(moved.body.orderRevision).toBeGreaterThan(seen);

    // The other tab still shows A, B and drags B down: refused, the first tab's order stays.
    await expectStale(owner.call("PUT", "/api/links/order", { items: [{ id: a.id, parentListId: null }, { id: b.id, parentListId: null }], revision: seen }));
    expect([link(b.id)!.orderIndex, link(a.id)!.orderIndex]).toEqual([0, 1]);
  });

  it("adding or deleting a link or a list in another tab makes an open order stale (409, not a 400 about the ids)", async () => {
    const a = await addLink(owner, "A");
    const seen = profile().linksOrderRevision;
    const b = await addLink(owner, "B");
    await expectStale(owner.call("PUT", "/api/links/order", { items: [{ id: a.id, parentListId: null }], revision: seen }));

    const before = profile().linksOrderRevision;
    const l = (await json(owner.call("POST", "/api/link-lists", { title: "Music" }))).body;
    expect(l.orderRevision).toBeGreaterThan(before);
    await expectStale(owner.call("PUT", "/api/links/order", { items: [{ id: a.id, parentListId: null }, { id: b.id, parentListId: null }], revision: before }));

    const deleted = await json(owner.call("DELETE", `/api/links/${b.id}?revision=${b.revision}`));
    expect(deleted.body.orderRevision).toBeGreaterThan(l.orderRevision);
    await expectStale(owner.call("PUT", "/api/links/order", { items: [{ id: a.id, parentListId: null }], revision: l.orderRevision }));
    expect((await owner.call("PUT", "/api/links/order", { items: [{ id: a.id, parentListId: l.list.id }], lists: [l.list.id], revision: deleted.body.orderRevision })).status).toBe(200);
  });

  it("a position belongs to the order, a list to the link: moving a link within its group leaves its edit dialog valid, moving it to a list does not", async () => {
    const a = await addLink(owner, "A");
    const b = await addLink(owner, "B");
    const music = (await json(owner.call("POST", "/api/link-lists", { title: "Music" }))).body.list;
    let order = profile().linksOrderRevision;
    const swapped = await json(owner.call("PUT", "/api/links/order", { items: [{ id: b.id, parentListId: null }, { id: a.id, parentListId: null }], lists: [music.id], revision: order }));
    expect(swapped.status).toBe(200);
    expect(link(a.id)!.revision).toBe(a.revision);
    order = swapped.body.orderRevision;

    const grouped = await json(owner.call("PUT", "/api/links/order", { items: [{ id: b.id, parentListId: null }, { id: a.id, parentListId: music.id }], lists: [music.id], revision: order }));
    expect(grouped.status).toBe(200);
    expect(link(a.id)!.revision).toBeGreaterThan(a.revision);
    expect(link(b.id)!.revision).toBe(b.revision);
    // The dialog opened before the move would take the link out of its list again: refused.
    await expectStale(owner.call("PATCH", `/api/links/${a.id}`, { ...editBody("A"), parentListId: null, revision: a.revision }));
    expect(link(a.id)!.parentListId).toBe(music.id);
    expect((await owner.call("PATCH", `/api/links/${b.id}`, editBody("B2", b.revision))).status).toBe(200);
  });
});

describe("link lists", () => {
  it("renaming and deleting a list are refused on an old version, succeed on the current one", async () => {
    const created = (await json(owner.call("POST", "/api/link-lists", { title: "Music" }))).body.list;
    const a = (await json(owner.call("POST", "/api/links", { linkType: "label", title: "A", parentListId: created.id }))).body.link;
    const renamed = await json(owner.call("PATCH", `/api/link-lists/${created.id}`, { title: "Songs", revision: created.revision }));
    expect(renamed.status).toBe(200);
    expect(renamed.body.list.revision).toBeGreaterThan(created.revision);

    await expectStale(owner.call("PATCH", `/api/link-lists/${created.id}`, { title: "Tunes", revision: created.revision }));
    await expectStale(owner.call("DELETE", `/api/link-lists/${created.id}?revision=${created.revision}`));
    expect(list(created.id)).toMatchObject({ title: "Songs", revision: renamed.body.list.revision });
    expect(link(a.id)!.parentListId).toBe(created.id);

    const deleted = await json(owner.call("DELETE", `/api/link-lists/${created.id}?revision=${renamed.body.list.revision}`));
    expect(deleted.status).toBe(200);
    expect(list(created.id)).toBeUndefined();
    // Its links are ungrouped: a change of each, which a tab still showing them in the list must not undo.
    expect(link(a.id)!.parentListId).toBeNull();
    await expectStale(owner.call("PATCH", `/api/links/${a.id}`, { linkType: "label", title: "A", parentListId: created.id, revision: a.revision }));
  });

  it("refuses a missing or malformed revision (400) and another owner's list (404)", async () => {
    const created = (await json(owner.call("POST", "/api/link-lists", { title: "Music" }))).body.list;
    for (const revision of BAD_REVISIONS) {
      await expectRevisionRequired(owner.call("PATCH", `/api/link-lists/${created.id}`, revision === undefined ? { title: "X" } : { title: "X", revision }));
    }
    for (const q of BAD_QUERIES) await expectRevisionRequired(owner.call("DELETE", `/api/link-lists/${created.id}${q}`));
    const intruder = createApiOwner(t);
    expect((await intruder.call("PATCH", `/api/link-lists/${created.id}`, { title: "Hacked", revision: created.revision })).status).toBe(404);
    expect((await intruder.call("DELETE", `/api/link-lists/${created.id}?revision=${created.revision}`)).status).toBe(404);
    expect(list(created.id)).toMatchObject({ title: "Music", revision: created.revision });
  });
});

describe("social links", () => {
  const addSocial = async (platform = "github") => (await json(owner.call("POST", "/api/social-links", { platform, handle: "ada" }))).body.socialLink as { id: string; revision: number };

  it("editing, hiding and deleting are refused on an old version, succeed on the current one", async () => {
    const s = await addSocial();
    const first = await json(owner.call("PATCH", `/api/social-links/${s.id}`, { handle: "lovelace", revision: s.revision }));
    expect(first.status).toBe(200);
    expect(first.body.socialLink.revision).toBeGreaterThan(s.revision);

    await expectStale(owner.call("PATCH", `/api/social-links/${s.id}`, { handle: "byron", revision: s.revision }));
    await expectStale(owner.call("PATCH", `/api/social-links/${s.id}/visibility`, { isVisible: false, revision: s.revision }));
    await expectStale(owner.call("DELETE", `/api/social-links/${s.id}?revision=${s.revision}`));
    expect(social(s.id)).toMatchObject({ url: "https://github.com/lovelace", isVisible: true, revision: first.body.socialLink.revision });

    const hidden = await json(owner.call("PATCH", `/api/social-links/${s.id}/visibility`, { isVisible: false, revision: first.body.socialLink.revision }));
    expect(hidden.status).toBe(200);
    expect(hidden.body.socialLink.revision).toBeGreaterThan(first.body.socialLink.revision);
    expect((await owner.call("DELETE", `/api/social-links/${s.id}?revision=${hidden.body.socialLink.revision}`)).status).toBe(200);
    expect(social(s.id)).toBeUndefined();
  });

  it("the order and the QR entry share the list's revision: an old one gets 409 and changes nothing", async () => {
    const a = await addSocial("github");
    const b = await addSocial("x");
    const seen = (await json(owner.call("GET", "/api/social-links"))).body.orderRevision as number;
    expect(seen).toBe(profile().socialOrderRevision);
    const moved = await json(owner.call("PUT", "/api/social-links/order", { ids: [b.id, a.id], revision: seen }));
    expect(moved.status).toBe(200);
    expect(moved.body.orderRevision).toBeGreaterThan(seen);

    await expectStale(owner.call("PUT", "/api/social-links/order", { ids: [a.id, b.id], revision: seen }));
    expect([social(b.id)!.displayOrder, social(a.id)!.displayOrder]).toEqual([1, 2]);
    await expectStale(owner.call("PUT", "/api/social-links/qr-code", { visible: false, revision: seen }));
    expect(profile().qrCodeVisible).toBe(true);

    const qr = await json(owner.call("PUT", "/api/social-links/qr-code", { visible: false, revision: moved.body.orderRevision }));
    expect(qr.status).toBe(200);
    expect(qr.body.orderRevision).toBeGreaterThan(moved.body.orderRevision);
    expect(profile().qrCodeVisible).toBe(false);
    // Adding a platform in another tab makes the open order stale.
    await addSocial("vimeo");
    await expectStale(owner.call("PUT", "/api/social-links/order", { ids: [a.id, b.id], revision: qr.body.orderRevision }));
  });

  it("refuses a missing or malformed revision (400) and another owner's ids (404)", async () => {
    const s = await addSocial();
    for (const revision of BAD_REVISIONS) {
      const body = (extra: object) => (revision === undefined ? extra : { ...extra, revision });
      await expectRevisionRequired(owner.call("PATCH", `/api/social-links/${s.id}`, body({ handle: "x" })));
      await expectRevisionRequired(owner.call("PATCH", `/api/social-links/${s.id}/visibility`, body({ isVisible: false })));
      await expectRevisionRequired(owner.call("PUT", "/api/social-links/order", body({ ids: [s.id] })));
      await expectRevisionRequired(owner.call("PUT", "/api/social-links/qr-code", body({ visible: false })));
    }
    for (const q of BAD_QUERIES) await expectRevisionRequired(owner.call("DELETE", `/api/social-links/${s.id}${q}`));
    const intruder = createApiOwner(t);
    expect((await intruder.call("PATCH", `/api/social-links/${s.id}`, { handle: "evil", revision: s.revision })).status).toBe(404);
    expect((await intruder.call("PATCH", `/api/social-links/${s.id}/visibility`, { isVisible: false, revision: s.revision })).status).toBe(404);
    expect((await intruder.call("DELETE", `/api/social-links/${s.id}?revision=${s.revision}`)).status).toBe(404);
    expect(social(s.id)).toMatchObject({ url: "https://github.com/ada", isVisible: true, revision: s.revision });
    expect(profile().qrCodeVisible).toBe(true);
  });
});

describe("profile: Bio & SEO, Theme and the picture", () => {
  it("GET /api/profile answers each section's revision", async () => {
    const r = await json(owner.call("GET", "/api/profile"));
    expect(r.body.revisions).toEqual({ text: 0, picture: 0, appearance: 0 });
  });

  it("Bio & SEO: a save based on an old version gets 409 and changes nothing; a fresh one answers the new revision", async () => {
    const first = await json(owner.call("PATCH", "/api/profile/text", { bio: "From tab one", revision: 0 }));
    expect(first.status).toBe(200);
    expect(first.body.profile.bio).toBe("From tab one");
    expect(first.body.revision).toBeGreaterThan(0);
    const updatedAt = profile().updatedAt.getTime();

    await expectStale(owner.call("PATCH", "/api/profile/text", { bio: "From tab two", displayName: "Two", revision: 0 }));
    expect(profile()).toMatchObject({ bio: "From tab one", displayName: owner.username, textRevision: first.body.revision });
    expect(profile().updatedAt.getTime()).toBe(updatedAt);

    const second = await json(owner.call("PATCH", "/api/profile/text", { bio: "From tab two", revision: first.body.revision }));
    expect(second.status).toBe(200);
    expect(second.body.revision).toBeGreaterThan(first.body.revision);
  });

  it("Theme and picture settings: the same, each with its own revision", async () => {
    const theme = await json(owner.call("PATCH", "/api/profile/appearance", { selectedThemeName: "minimalist-dark", revision: 0 }));
    expect(theme.status).toBe(200);
    expect(theme.body.revision).toBeGreaterThan(0);
    await expectStale(owner.call("PATCH", "/api/profile/appearance", { buttonShapeStyle: "pill", revision: 0 }));
    expect(profile()).toMatchObject({ selectedThemeName: "minimalist-dark", buttonShapeStyle: "rounded", appearanceRevision: theme.body.revision });

    const style = await json(owner.call("PATCH", "/api/profile/picture-settings", { profilePictureStyle: "initials", revision: 0 }));
    expect(style.status).toBe(200);
    expect(style.body.revision).toBeGreaterThan(theme.body.revision);
    expect(style.body.message).toBe("Profile picture style updated");
    await expectStale(owner.call("PATCH", "/api/profile/picture-settings", { initialsText: "ZZ", revision: 0 }));
    expect(profile()).toMatchObject({ profilePictureStyle: "initials", initialsText: "", pictureRevision: style.body.revision });
  });

  it("two tabs editing different screens do not conflict: Bio in one and Theme in the other both save", async () => {
    const seen = (await json(owner.call("GET", "/api/profile"))).body.revisions;
    expect((await owner.call("PATCH", "/api/profile/text", { bio: "Tab one's bio", revision: seen.text })).status).toBe(200);
    expect((await owner.call("PATCH", "/api/profile/appearance", { selectedThemeName: "pastel-soft", revision: seen.appearance })).status).toBe(200);
    expect((await owner.call("PATCH", "/api/profile/picture-settings", { profilePictureIconSubtype: "square", revision: seen.picture })).status).toBe(200);
    expect(profile()).toMatchObject({ bio: "Tab one's bio", selectedThemeName: "pastel-soft", profilePictureIconSubtype: "square" });
  });

  it("an edit that changes nothing keeps its revision; a stale one is still refused", async () => {
    const same = await json(owner.call("PATCH", "/api/profile/text", { displayName: owner.username, revision: 0 }));
    expect(same.status).toBe(200);
    expect(same.body.revision).toBe(0);
    expect(profile().draftRevision).toBe(0);
    await json(owner.call("PATCH", "/api/profile/text", { bio: "x", revision: 0 }));
    await expectStale(owner.call("PATCH", "/api/profile/text", { displayName: owner.username, revision: 0 }));
  });

  it("refuses a missing or malformed revision with 400 and changes nothing", async () => {
    for (const revision of BAD_REVISIONS) {
      const body = (extra: object) => (revision === undefined ? extra : { ...extra, revision });
      await expectRevisionRequired(owner.call("PATCH", "/api/profile/text", body({ bio: "Changed" })));
      await expectRevisionRequired(owner.call("PATCH", "/api/profile/appearance", body({ selectedThemeName: "minimalist-dark" })));
      await expectRevisionRequired(owner.call("PATCH", "/api/profile/picture-settings", body({ profilePictureStyle: "hidden" })));
    }
    for (const q of BAD_QUERIES) await expectRevisionRequired(owner.call("DELETE", `/api/profile/picture${q}`));
    expect(profile()).toMatchObject({ bio: "", selectedThemeName: "minimalist-light", profilePictureStyle: "icon", draftRevision: 0 });
  });

  it("a picture upload or removal based on an old picture revision gets 409 and stores nothing", async () => {
    const jpeg = await sharp({ create: { width: 600, height: 600, channels: 3, background: "#0ea5e9" } }).jpeg().toBuffer();
    const upload = (revision: string | null) => {
      const form = new FormData();
      form.append("file", new Blob([jpeg as BlobPart], { type: "image/jpeg" }), "me.jpg");
      if (revision !== null) form.append("revision", revision);
      return Promise.resolve(t.app.request("/api/profile/picture", { method: "POST", headers: { Cookie: owner.cookie, "Sec-Fetch-Site": "same-origin", Origin: TEST_ORIGIN }, body: form }));
    };
    const first = await json(upload("0"));
    expect(first.status).toBe(201);
    expect(first.body.revision).toBeGreaterThan(0);
    const url = profile().profilePictureUrl;

    const mediaDir = join(t.deps.env.PUBLISHED_DIR, "media");
    const mediaFiles = () => (existsSync(mediaDir) ? readdirSync(mediaDir, { recursive: true }).map(String).filter((f) => /\.\w+$/.test(f)) : []);
    expect(mediaFiles()).toHaveLength(1);

    await expectStale(upload("0"));
    await expectRevisionRequired(upload(null));
    await expectRevisionRequired(upload("one"));
    expect(profile().profilePictureUrl).toBe(url);
    expect(t.deps.db.select().from(uploads).where(eq(uploads.userId, owner.userId)).all()).toHaveLength(1);
    expect(mediaFiles()).toHaveLength(1);

    // Overtaken between the route's early check and the write: the file just stored is removed again.
    const picture = await processPicture(new Uint8Array(jpeg), "icon");
    await expect(saveProfilePicture(t.deps.db, mediaStorageFor(t.deps.env, t.deps.target), owner.userId, picture, "icon", new Date(), 0)).rejects.toMatchObject({ status: 409, message: STALE_WRITE });
    expect(mediaFiles()).toHaveLength(1);
    expect(t.deps.db.select().from(uploads).where(eq(uploads.userId, owner.userId)).all()).toHaveLength(1);

    await expectStale(owner.call("DELETE", "/api/profile/picture?revision=0"));
    expect(profile().profilePictureUrl).toBe(url);
    const removed = await json(owner.call("DELETE", `/api/profile/picture?revision=${first.body.revision}`));
    expect(removed.status).toBe(200);
    expect(removed.body.revision).toBeGreaterThan(first.body.revision);
    expect(profile().profilePictureUrl).toBeNull();
  });
});

describe("discard and rollback restore the draft under new revisions", () => {
  it("after a discard, a tab still showing the draft from before gets 409 for a link, a list, a social link, the order and each screen", async () => {
    const l = await addLink();
    const music = (await json(owner.call("POST", "/api/link-lists", { title: "Music" }))).body.list;
    const s = (await json(owner.call("POST", "/api/social-links", { platform: "github", handle: "ada" }))).body.socialLink;
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);

    // The first tab edits after the publish; the second tab loads that draft.
    const edited = (await json(owner.call("PATCH", `/api/links/${l.id}`, editBody("Draft title", l.revision)))).body.link;
    const doomed = await addLink(owner, "Added after the publish");
    const seen = { ...(await json(owner.call("GET", "/api/profile"))).body.revisions, order: profile().linksOrderRevision, social: profile().socialOrderRevision };

    // The first tab discards: the link is back to its published title, the added link is gone.
    expect((await owner.call("POST", "/api/publish/discard")).status).toBe(200);
    expect(link(l.id)!.title).toBe("Original");
    expect(link(doomed.id)).toBeUndefined();

    // The second tab saves what it shows: every write is refused and the restored draft stays.
    await expectStale(owner.call("PATCH", `/api/links/${l.id}`, editBody("Draft title, edited again", edited.revision)));
    await expectStale(owner.call("PATCH", `/api/links/${l.id}/visibility`, { isActive: false, revision: edited.revision }));
    await expectStale(owner.call("PATCH", `/api/link-lists/${music.id}`, { title: "Songs", revision: music.revision }));
    await expectStale(owner.call("PATCH", `/api/social-links/${s.id}`, { handle: "byron", revision: s.revision }));
    await expectStale(owner.call("PUT", "/api/links/order", { items: [{ id: l.id, parentListId: null }], lists: [music.id], revision: seen.order }));
    await expectStale(owner.call("PUT", "/api/social-links/order", { ids: [s.id], revision: seen.social }));
    await expectStale(owner.call("PATCH", "/api/profile/text", { bio: "Old tab", revision: seen.text }));
    await expectStale(owner.call("PATCH", "/api/profile/appearance", { selectedThemeName: "minimalist-dark", revision: seen.appearance }));
    await expectStale(owner.call("PATCH", "/api/profile/picture-settings", { profilePictureStyle: "hidden", revision: seen.picture }));
    expect(link(l.id)).toMatchObject({ title: "Original", isActive: true });
    expect(list(music.id)!.title).toBe("Music");
    expect(social(s.id)!.url).toBe("https://github.com/ada");
    expect(profile()).toMatchObject({ bio: "", selectedThemeName: "minimalist-light", profilePictureStyle: "icon" });

    // A link deleted and restored by the discard comes back with a revision no tab has seen.
    const restoredRevisions = [link(l.id)!.revision, list(music.id)!.revision, social(s.id)!.revision];
    for (const r of restoredRevisions) expect(r).toBeGreaterThan(edited.revision);
  });

  it("a link deleted after the publish comes back from a discard with a new revision", async () => {
    const l = await addLink();
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    expect((await owner.call("DELETE", `/api/links/${l.id}?revision=${l.revision}`)).status).toBe(200);
    expect((await owner.call("POST", "/api/publish/discard")).status).toBe(200);
    expect(link(l.id)!.revision).toBeGreaterThan(l.revision);
    await expectStale(owner.call("PATCH", `/api/links/${l.id}`, editBody("Old tab", l.revision)));
    expect(link(l.id)!.title).toBe("Original");
  });

  it("after a rollback, a tab still showing the draft from before gets 409", async () => {
    const l = await addLink();
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    const edited = (await json(owner.call("PATCH", `/api/links/${l.id}`, editBody("Second version", l.revision)))).body.link;
    const bio = (await json(owner.call("PATCH", "/api/profile/text", { bio: "Second", revision: 0 }))).body.revision;
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    expect((await owner.call("POST", "/api/publish/rollback", { version: 1 })).status).toBe(200);
    await expectStale(owner.call("PATCH", `/api/links/${l.id}`, editBody("Old tab", edited.revision)));
    await expectStale(owner.call("PATCH", "/api/profile/text", { bio: "Old tab", revision: bio }));
    expect(link(l.id)!.title).toBe("Original");
    expect(profile().bio).toBe("");
  });

  it("a scheduled re-render of the published page leaves the draft and its revisions alone", async () => {
    const l = await addLink();
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    const before = { profile: profile(), link: link(l.id) };
    expect(await rerenderPublishedPage(t.deps.db, owner.userId, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: TEST_ORIGIN, now: new Date() })).toBe(true);
    expect(profile()).toEqual(before.profile);
    expect(link(l.id)).toEqual(before.link);
    expect((await owner.call("PATCH", `/api/links/${l.id}`, editBody("Still fresh", l.revision))).status).toBe(200);
  });
});
