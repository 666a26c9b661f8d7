/**
 * A Music link's services list (core/music.ts, ADR 211): the order kept, each service once, each
 * address the service's own, and a stored list read back without anything the rules refuse.
 */
import { describe, expect, it } from "vitest";
import { MUSIC_MESSAGES, MUSIC_SERVICES, MusicServicesSchema, isServiceUrl, musicService, musicServicesData, parseMusicServices } from "#core/schemas/music.ts";

const SPOTIFY = { service: "spotify", url: "https://open.spotify.com/album/4uLU6hMCjMI75M1A2tKUQC" };
const BANDCAMP = { service: "bandcamp", url: "https://artist.bandcamp.com/album/first" };
const APPLE = { service: "apple_music", url: "https://music.apple.com/us/album/first/1708308989" };

const issues = (v: unknown) => {
  const r = MusicServicesSchema.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("MusicServicesSchema", () => {
  it("keeps the owner's order", () => {
    expect(MusicServicesSchema.parse([BANDCAMP, SPOTIFY, APPLE]).map((e) => e.service)).toEqual(["bandcamp", "spotify", "apple_music"]);
  });

  it("offers the eight services of the issue, each with a label", () => {
    expect(MUSIC_SERVICES.map((s) => s.label)).toEqual(["Spotify", "Apple Music", "YouTube Music", "Bandcamp", "SoundCloud", "Deezer", "Tidal", "Amazon Music"]);
  });

  it("refuses an empty list, more than eight, an unknown or repeated service, with the field's message", () => {
    expect(issues([])).toEqual([`: ${MUSIC_MESSAGES.servicesRequired}`]);
    expect(issues("nope")).toEqual([`: ${MUSIC_MESSAGES.servicesRequired}`]);
    expect(issues(Array(9).fill(SPOTIFY))).toContain(`: ${MUSIC_MESSAGES.tooMany}`);
    expect(issues([{ service: "napster", url: "https://napster.com/x" }])).toEqual([`0.service: ${MUSIC_MESSAGES.unknownService}`]);
    expect(issues([SPOTIFY, SPOTIFY])).toEqual([`1.service: ${MUSIC_MESSAGES.duplicate}`]);
    expect(issues([{ service: "spotify" }])).toEqual([`0.url: ${MUSIC_MESSAGES.urlRequired}`]);
  });

  it("refuses an address that is not a web URL or not the service's own", () => {
    for (const url of ["javascript:alert(1)", "data:text/html,x", "https://open.spotify.com/\u0000x", "https://user@open.spotify.com/album/x", "open.spotify.com/album/x"]) {
      expect(issues([{ service: "spotify", url }]), url).toEqual([`0.url: ${MUSIC_MESSAGES.urlInvalid}`]);
    }
    for (const url of ["https://open.spotify.com.evil.example/album/x", "https://evilspotify.com/album/x", "https://example.com/"]) {
      expect(issues([{ service: "spotify", url }]), url).toEqual([`0.url: ${MUSIC_MESSAGES.notService("Spotify")}`]);
    }
  });

  it("takes a service's sub-hosts but not look-alikes", () => {
    expect(isServiceUrl(musicService("bandcamp")!, "https://artist.bandcamp.com/album/x")).toBe(true);
    expect(isServiceUrl(musicService("deezer")!, "https://www.deezer.com/album/1")).toBe(true);
    expect(isServiceUrl(musicService("tidal")!, "https://listen.tidal.com/album/1")).toBe(true);
    expect(isServiceUrl(musicService("amazon_music")!, "https://music.amazon.co.uk/albums/B0")).toBe(true);
    expect(isServiceUrl(musicService("youtube_music")!, "https://music.youtube.com/playlist?list=OLAK5uy_x")).toBe(true);
    expect(isServiceUrl(musicService("bandcamp")!, "https://bandcamp.com.evil.example/")).toBe(false);
    expect(isServiceUrl(musicService("bandcamp")!, "https://notbandcamp.com/")).toBe(false);
    expect(isServiceUrl(musicService("bandcamp")!, "https://artist.bandcamp.com:8080/")).toBe(false);
  });
});

describe("the stored list", () => {
  it("reads back what was stored, in order", () => {
    const list = MusicServicesSchema.parse([APPLE, SPOTIFY]);
    expect(parseMusicServices(musicServicesData(list))).toEqual(list);
  });

  it("leaves out what the rules refuse, and reads broken text as no list", () => {
    const stored = JSON.stringify([{ service: "spotify", url: "javascript:alert(1)" }, { service: "x", url: "https://x.example" }, APPLE, APPLE, 3, null]);
    expect(parseMusicServices(stored)).toEqual([APPLE]);
    expect(parseMusicServices("{")).toEqual([]);
    expect(parseMusicServices('{"a":1}')).toEqual([]);
    expect(parseMusicServices(undefined)).toEqual([]);
  });
});
