/**
 * Players, Music releases and Social buttons through the API (ADR 210-212): what is stored, the
 * field messages for each mistake, the plan rules, and hostile input refused with a 4xx and nothing
 * written.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LINK_MESSAGES } from "#core/link-input.ts";
import { MUSIC_MESSAGES } from "#core/music.ts";
import { links, uploads } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
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

const YT = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const SPOTIFY = { service: "spotify", url: "https://open.spotify.com/album/4uLU6hMCjMI75M1A2tKUQC" };
const APPLE = { service: "apple_music", url: "https://music.apple.com/us/album/first/1708308989" };
const BANDCAMP = { service: "bandcamp", url: "https://artist.bandcamp.com/album/first" };

describe("a link shown as a player", () => {
  it("stores the switch with a recognised address, and off as off", async () => {
    const on = await add(owner, { linkType: "standard_url", title: "New video", url: YT, data: { player: "on" } });
    expect(on.status).toBe(201);
    expect(on.body.link.linkSpecificData).toEqual({ player: "on" });
    const off = await add(owner, { linkType: "standard_url", title: "Old video", url: YT, data: { player: "off" } });
    expect(off.body.link.linkSpecificData).toEqual({ player: "off" });
  });

  it("refuses the switch on an address that is no player, or a value other than on and off", async () => {
    const r = await add(owner, { linkType: "standard_url", title: "Shop", url: "https://shop.example.com", data: { player: "on" } });
    expect(r.status).toBe(400);
    expect(r.body.error.fields["data.player"]).toBe(LINK_MESSAGES.notPlayer);
    for (const player of ["yes", true, 1, "ON", ["on"]]) {
      const bad = await add(owner, { linkType: "standard_url", title: "V", url: YT, data: { player } });
      expect(bad.status, String(player)).toBe(400);
      expect(bad.body.error.fields["data.player"]).toBe(LINK_MESSAGES.playerSwitch);
    }
    const look = await add(owner, { linkType: "standard_url", title: "V", url: "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ", data: { player: "on" } });
    expect(look.body.error.fields["data.player"]).toBe(LINK_MESSAGES.notPlayer);
    expect(rows(owner.userId)).toHaveLength(0);
  });

  it("drops the switch from the other types, and Lite owners may show players", async () => {
    const donation = await add(owner, { linkType: "donation", title: "Tip", url: "https://ko-fi.com/me", data: { player: "off" } });
    expect(donation.body.link.linkSpecificData).toEqual({});
    const lite = createApiOwner(t, "lite");
    expect((await add(lite, { linkType: "standard_url", title: "V", url: YT, data: { player: "on" } })).status).toBe(201);
  });

  it("turns the switch off on an edit, and refuses it when the address changes to one that is no player", async () => {
    const l = (await add(owner, { linkType: "standard_url", title: "V", url: YT, data: { player: "on" } })).body.link;
    const moved = await owner.edit("PATCH", `/api/links/${l.id}`, { linkType: "standard_url", title: "V", url: "https://example.com", data: { player: "on" } });
    expect(moved.status).toBe(400);
    expect(rows(owner.userId)[0]!.url).toBe(YT);
    const off = await owner.edit("PATCH", `/api/links/${l.id}`, { linkType: "standard_url", title: "V", url: "https://example.com", data: { player: "off" } });
    expect(off.status).toBe(200);
    expect(rows(owner.userId)[0]!.linkSpecificData).toEqual({ player: "off" });
  });
});

describe("a Music release", () => {
  it("stores the services in the owner's order as JSON text, and the first one's address as the url", async () => {
    const r = await add(owner, { linkType: "music", title: "First album", data: { services: [BANDCAMP, SPOTIFY, APPLE] } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.link.url).toBe(BANDCAMP.url);
    expect(JSON.parse(r.body.link.linkSpecificData.services)).toEqual([BANDCAMP, SPOTIFY, APPLE]);
    // The stored text, sent back as it was read, is the same list.
    const again = await add(owner, { linkType: "music", title: "Again", data: { services: r.body.link.linkSpecificData.services } });
    expect(JSON.parse(again.body.link.linkSpecificData.services)).toEqual([BANDCAMP, SPOTIFY, APPLE]);
  });

  it("answers each mistake with its field's message, and writes nothing", async () => {
    const cases: [unknown, string, string][] = [
      [{ linkType: "music", data: { services: [SPOTIFY] } }, "title", LINK_MESSAGES.titleRequired],
      [{ linkType: "music", title: "A" }, "data.services", MUSIC_MESSAGES.servicesRequired],
      [{ linkType: "music", title: "A", data: { services: [] } }, "data.services", MUSIC_MESSAGES.servicesRequired],
      [{ linkType: "music", title: "A", data: { services: "not json" } }, "data.services", MUSIC_MESSAGES.servicesRequired],
      [{ linkType: "music", title: "A", data: { services: Array(9).fill(SPOTIFY) } }, "data.services", MUSIC_MESSAGES.tooMany],
      [{ linkType: "music", title: "A", data: { services: [SPOTIFY, SPOTIFY] } }, "data.services.1.service", MUSIC_MESSAGES.duplicate],
      [{ linkType: "music", title: "A", data: { services: [{ service: "napster", url: "https://napster.com/a" }] } }, "data.services.0.service", MUSIC_MESSAGES.unknownService],
      [{ linkType: "music", title: "A", data: { services: [{ service: "spotify", url: "javascript:alert(1)" }] } }, "data.services.0.url", MUSIC_MESSAGES.urlInvalid],
      [{ linkType: "music", title: "A", data: { services: [{ service: "spotify", url: "https://open.spotify.com/a\u0007b" }] } }, "data.services.0.url", MUSIC_MESSAGES.urlInvalid],
      [{ linkType: "music", title: "A", data: { services: [{ service: "spotify", url: "https://evil.example/album/x" }] } }, "data.services.0.url", MUSIC_MESSAGES.notService("Spotify")],
      [{ linkType: "music", title: "A\u0000", data: { services: [SPOTIFY] } }, "title", "Please remove invisible characters"],
    ];
    for (const [body, field, message] of cases) {
      const r = await add(owner, body);
      expect(r.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(r.body.error.fields[field], field).toBe(message);
    }
    expect(rows(owner.userId)).toHaveLength(0);
  });

  it("refuses a huge or strange services value with a 4xx, never a 500", async () => {
    for (const services of [Array(5000).fill(SPOTIFY), { a: 1 }, 42, null, [null], [[1]], "x".repeat(100_000), [{ service: "spotify", url: "x".repeat(5000) }]]) {
      const r = await add(owner, { linkType: "music", title: "A", data: { services } });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    expect(rows(owner.userId)).toHaveLength(0);
  });

  it("takes the owner's own uploaded cover, and refuses another owner's", async () => {
    const other = createApiOwner(t);
    t.deps.db.insert(uploads).values({ id: "up-other", userId: other.userId, storageKey: "media/ab/0123456789abcdef0123456789abcdef.webp", kind: "thumbnail", contentType: "image/webp", bytes: 10, createdAt: new Date() } as any).run();
    const r = await add(owner, { linkType: "music", title: "A", data: { services: [SPOTIFY] }, thumbnailUrl: "/media/ab/0123456789abcdef0123456789abcdef.webp" });
    expect(r.status).toBe(400);
    expect(r.body.error.fields.thumbnailUrl).toBe("Please upload the file again");
    expect(rows(owner.userId)).toHaveLength(0);
    t.deps.db.insert(uploads).values({ id: "up-own", userId: owner.userId, storageKey: "media/cd/0123456789abcdef0123456789abcdef.webp", kind: "thumbnail", contentType: "image/webp", bytes: 10, createdAt: new Date() } as any).run();
    const own = await add(owner, { linkType: "music", title: "A", data: { services: [SPOTIFY] }, thumbnailUrl: "/media/cd/0123456789abcdef0123456789abcdef.webp" });
    expect(own.status).toBe(201);
    expect(own.body.link.thumbnailUrl).toBe("/media/cd/0123456789abcdef0123456789abcdef.webp");
  });

  it("is Plus: a Lite owner cannot add one, or turn a link into one", async () => {
    const lite = createApiOwner(t, "lite");
    const r = await add(lite, { linkType: "music", title: "A", data: { services: [SPOTIFY] } });
    expect(r.status).toBe(402);
    expect(r.body.error.details.feature).toBe("music");
    const l = (await add(lite, { linkType: "standard_url", title: "A", url: "https://a.com" })).body.link;
    const edit = await lite.edit("PATCH", `/api/links/${l.id}`, { linkType: "music", title: "A", data: { services: [SPOTIFY] } });
    expect(edit.status).toBe(402);
    expect(rows(lite.userId)[0]!.linkType).toBe("standard_url");
  });
});

describe("a Social button", () => {
  it("stores the platform and the cleaned handle, builds the profile address, and names it after the platform", async () => {
    const r = await add(owner, { linkType: "social", data: { platform: "instagram", handle: " https://www.instagram.com/@alice.b/?hl=en " } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.link).toMatchObject({ title: "Instagram", url: "https://www.instagram.com/alice.b", linkSpecificData: { platform: "instagram", handle: "alice.b" } });
    const titled = await add(owner, { linkType: "social", title: "My clips", url: "https://evil.example", data: { platform: "tiktok", handle: "@alice" } });
    expect(titled.body.link).toMatchObject({ title: "My clips", url: "https://www.tiktok.com/@alice" });
    const phone = await add(owner, { linkType: "social", data: { platform: "whatsapp", handle: "+44 20 7946 0958" } });
    expect(phone.body.link.url).toBe("https://wa.me/442079460958");
  });

  it("is on Lite", async () => {
    const lite = createApiOwner(t, "lite");
    expect((await add(lite, { linkType: "social", data: { platform: "github", handle: "alice" } })).status).toBe(201);
  });

  it("answers a missing or unusable platform or handle with its field's message", async () => {
    const cases: [unknown, string, string][] = [
      [{ linkType: "social", data: { handle: "alice" } }, "data.platform", LINK_MESSAGES.platformRequired],
      [{ linkType: "social", data: { platform: "myspace", handle: "alice" } }, "data.platform", LINK_MESSAGES.platformRequired],
      [{ linkType: "social", data: { platform: "x" } }, "data.handle", "Please enter a username or handle"],
      [{ linkType: "social", data: { platform: "x", handle: "   " } }, "data.handle", "Please enter a username or handle"],
      [{ linkType: "social", data: { platform: "x", handle: "<script>" } }, "data.handle", "Please enter a username or handle"],
      [{ linkType: "social", data: { platform: "x", handle: "a\u0000b" } }, "data.handle", "Please enter a username or handle"],
      [{ linkType: "social", data: { platform: "x", handle: "javascript:alert(1)" } }, "data.handle", "Please enter a username or handle"],
      [{ linkType: "social", data: { platform: "x", handle: "a".repeat(3000) } }, "data.handle", LINK_MESSAGES.tooLong],
      [{ linkType: "social", data: { platform: "whatsapp", handle: "call me" } }, "data.handle", "Please enter a valid phone number for WhatsApp"],
    ];
    for (const [body, field, message] of cases) {
      const r = await add(owner, body);
      expect(r.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(r.body.error.fields[field], field).toBe(message);
    }
    expect(rows(owner.userId)).toHaveLength(0);
  });
});
