/**
 * core/embeds.ts against a table of real address forms of every service, and hostile ones (ADR 210).
 */
import { describe, expect, it } from "vitest";
import { EMBED_FRAME_ORIGINS, recognizeEmbed, type EmbedAspect, type EmbedService } from "#core/embeds.ts";

const YT = "dQw4w9WgXcQ";
const NC = "https://www.youtube-nocookie.com/embed/";
const SP = "4uLU6hMCjMI75M1A2tKUQC";

/** [address, service, embed address, box] */
const RECOGNISED: [string, EmbedService, string, EmbedAspect][] = [
  [`https://www.youtube.com/watch?v=${YT}`, "youtube", `${NC}${YT}?autoplay=1`, "16/9"],
  [`https://youtube.com/watch?v=${YT}&t=42s`, "youtube", `${NC}${YT}?autoplay=1`, "16/9"],
  [`https://m.youtube.com/watch?v=${YT}&feature=share`, "youtube", `${NC}${YT}?autoplay=1`, "16/9"],
  [`https://music.youtube.com/watch?v=${YT}`, "youtube", `${NC}${YT}?autoplay=1`, "16/9"],
  [`http://www.youtube.com/watch?v=${YT}`, "youtube", `${NC}${YT}?autoplay=1`, "16/9"],
  [`https://youtu.be/${YT}`, "youtube", `${NC}${YT}?autoplay=1`, "16/9"],
  [`https://youtu.be/${YT}?si=abc123`, "youtube", `${NC}${YT}?autoplay=1`, "16/9"],
  [`https://www.youtube.com/embed/${YT}`, "youtube", `${NC}${YT}?autoplay=1`, "16/9"],
  [`https://www.youtube-nocookie.com/embed/${YT}`, "youtube", `${NC}${YT}?autoplay=1`, "16/9"],
  [`https://www.youtube.com/live/${YT}`, "youtube", `${NC}${YT}?autoplay=1`, "16/9"],
  [`https://www.youtube.com/shorts/${YT}`, "youtube", `${NC}${YT}?autoplay=1`, "9/16"],
  [`https://m.youtube.com/shorts/${YT}`, "youtube", `${NC}${YT}?autoplay=1`, "9/16"],
  ["https://www.youtube.com/playlist?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI", "youtube", `${NC}videoseries?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI&autoplay=1`, "16/9"],
  ["https://music.youtube.com/playlist?list=OLAK5uy_kxnzoN2yVvKXJmBSO2Ru4yYfWQYPdZrFM", "youtube", `${NC}videoseries?list=OLAK5uy_kxnzoN2yVvKXJmBSO2Ru4yYfWQYPdZrFM&autoplay=1`, "16/9"],
  ["https://vimeo.com/76979871", "vimeo", "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1", "16/9"],
  ["https://www.vimeo.com/76979871", "vimeo", "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1", "16/9"],
  ["https://vimeo.com/76979871/a1b2c3d4e5", "vimeo", "https://player.vimeo.com/video/76979871?h=a1b2c3d4e5&dnt=1&autoplay=1", "16/9"],
  ["https://player.vimeo.com/video/76979871", "vimeo", "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1", "16/9"],
  ["https://player.vimeo.com/video/76979871?h=a1b2c3d4e5", "vimeo", "https://player.vimeo.com/video/76979871?h=a1b2c3d4e5&dnt=1&autoplay=1", "16/9"],
  ["https://vimeo.com/channels/staffpicks/76979871", "vimeo", "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1", "16/9"],
  ["https://vimeo.com/groups/shortfilms/videos/76979871", "vimeo", "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1", "16/9"],
  [`https://open.spotify.com/track/${SP}`, "spotify", `https://open.spotify.com/embed/track/${SP}`, "wide-audio"],
  [`https://open.spotify.com/track/${SP}?si=x1y2`, "spotify", `https://open.spotify.com/embed/track/${SP}`, "wide-audio"],
  [`https://open.spotify.com/intl-de/track/${SP}`, "spotify", `https://open.spotify.com/embed/track/${SP}`, "wide-audio"],
  [`https://open.spotify.com/album/${SP}`, "spotify", `https://open.spotify.com/embed/album/${SP}`, "tall-audio"],
  [`https://open.spotify.com/playlist/${SP}`, "spotify", `https://open.spotify.com/embed/playlist/${SP}`, "tall-audio"],
  [`https://open.spotify.com/artist/${SP}`, "spotify", `https://open.spotify.com/embed/artist/${SP}`, "tall-audio"],
  [`https://open.spotify.com/episode/${SP}`, "spotify", `https://open.spotify.com/embed/episode/${SP}`, "wide-audio"],
  [`https://open.spotify.com/show/${SP}`, "spotify", `https://open.spotify.com/embed/show/${SP}`, "tall-audio"],
  [`https://open.spotify.com/embed/album/${SP}`, "spotify", `https://open.spotify.com/embed/album/${SP}`, "tall-audio"],
  ["https://soundcloud.com/forss/flickermood", "soundcloud", "https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fforss%2Fflickermood&auto_play=true&visual=false", "wide-audio"],
  ["https://m.soundcloud.com/forss/flickermood", "soundcloud", "https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fforss%2Fflickermood&auto_play=true&visual=false", "wide-audio"],
  ["https://www.soundcloud.com/forss/flickermood?in=x", "soundcloud", "https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fforss%2Fflickermood&auto_play=true&visual=false", "wide-audio"],
  ["https://soundcloud.com/forss/sets/soulhack", "soundcloud", "https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fforss%2Fsets%2Fsoulhack&auto_play=true&visual=false", "tall-audio"],
  ["https://soundcloud.com/forss", "soundcloud", "https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fforss&auto_play=true&visual=false", "tall-audio"],
  ["https://music.apple.com/us/album/1989-taylors-version/1708308989", "apple_music", "https://embed.music.apple.com/us/album/1989-taylors-version/1708308989", "tall-audio"],
  ["https://music.apple.com/us/album/1989-taylors-version/1708308989?i=1708309015", "apple_music", "https://embed.music.apple.com/us/album/1989-taylors-version/1708308989?i=1708309015", "wide-audio"],
  ["https://music.apple.com/gb/song/anti-hero/1645937265", "apple_music", "https://embed.music.apple.com/gb/song/anti-hero/1645937265", "wide-audio"],
  ["https://music.apple.com/us/playlist/todays-hits/pl.f4d106fed2bd41149aaacabb233eb5eb", "apple_music", "https://embed.music.apple.com/us/playlist/todays-hits/pl.f4d106fed2bd41149aaacabb233eb5eb", "tall-audio"],
  ["https://music.apple.com/us/artist/taylor-swift/159260351", "apple_music", "https://embed.music.apple.com/us/artist/taylor-swift/159260351", "tall-audio"],
  ["https://music.apple.com/jp/album/%E3%83%86%E3%82%B9%E3%83%88/1440857781", "apple_music", "https://embed.music.apple.com/jp/album/%E3%83%86%E3%82%B9%E3%83%88/1440857781", "tall-audio"],
  ["https://music.apple.com/us/music-video/anti-hero/1646209178", "apple_music", "https://embed.music.apple.com/us/music-video/anti-hero/1646209178", "16/9"],
  ["https://bandcamp.com/EmbeddedPlayer/album=1536701931/size=large/bgcol=ffffff/linkcol=0687f5/tracklist=false/transparent=true/", "bandcamp", "https://bandcamp.com/EmbeddedPlayer/album=1536701931/size=large/bgcol=ffffff/linkcol=0687f5/artwork=small/transparent=true/", "tall-audio"],
  ["https://bandcamp.com/EmbeddedPlayer/track=2270000000", "bandcamp", "https://bandcamp.com/EmbeddedPlayer/track=2270000000/size=large/bgcol=ffffff/linkcol=0687f5/tracklist=false/artwork=small/transparent=true/", "wide-audio"],
  ["https://www.tiktok.com/@scout2015/video/6718335390845095173", "tiktok", "https://www.tiktok.com/player/v1/6718335390845095173?autoplay=1&rel=0", "9/16"],
  ["https://tiktok.com/@scout2015/video/6718335390845095173?lang=en", "tiktok", "https://www.tiktok.com/player/v1/6718335390845095173?autoplay=1&rel=0", "9/16"],
  ["https://m.tiktok.com/v/6718335390845095173.html", "tiktok", "https://www.tiktok.com/player/v1/6718335390845095173?autoplay=1&rel=0", "9/16"],
  ["https://www.tiktok.com/embed/v2/6718335390845095173", "tiktok", "https://www.tiktok.com/player/v1/6718335390845095173?autoplay=1&rel=0", "9/16"],
];

const NOT_PLAYERS = [
  // Look-alike and neighbouring hosts.
  `https://youtube.com.evil.example/watch?v=${YT}`,
  `https://evil-youtube.com/watch?v=${YT}`,
  `https://www.youtube.com.:443/watch?v=${YT}`,
  `https://youtube.com./watch?v=${YT}`,
  `https://notyoutu.be/${YT}`,
  `https://xn--youtube-7ya.com/watch?v=${YT}`,
  `https://open.spotify.com.evil.example/track/${SP}`,
  "https://evilvimeo.com/76979871",
  "https://soundcloud.com.evil.example/forss/flickermood",
  "https://music.apple.com.evil.example/us/album/x/1708308989",
  "https://evil.bandcamp.com/EmbeddedPlayer/album=1536701931",
  // User info, ports.
  `https://evil.example@www.youtube.com/watch?v=${YT}`,
  `https://www.youtube.com@evil.example/watch?v=${YT}`,
  `https://user:pass@youtu.be/${YT}`,
  `https://www.youtube.com:8443/watch?v=${YT}`,
  // Encoded slashes and dots, backslashes.
  `https://youtu.be/%2F${YT}`,
  "https://soundcloud.com/forss%2Fflickermood",
  "https://soundcloud.com/forss/%2E%2E",
  "https://soundcloud.com/forss/..%2F..%2Fevil",
  "https://music.apple.com/us/album/a%2Fb/1708308989",
  `https://www.youtube.com\\@evil.example/watch?v=${YT}`,
  // Other schemes and broken addresses.
  `javascript:alert(1)//youtube.com/watch?v=${YT}`,
  `JaVaScRiPt:alert(1)//https://youtu.be/${YT}`,
  "data:text/html,<script>alert(1)</script>",
  `ftp://www.youtube.com/watch?v=${YT}`,
  `//www.youtube.com/watch?v=${YT}`,
  `www.youtube.com/watch?v=${YT}`,
  `https:www.youtube.com/watch?v=${YT}`,
  `https://www.youtube.com/watch?v=${YT}\u0000`,
  `https://www.you\ttube.com/watch?v=${YT}`,
  "",
  // Wrong id shapes, or ids with something after them.
  "https://www.youtube.com/watch?v=short",
  `https://www.youtube.com/watch?v=${YT}"onload="x`,
  `https://www.youtube.com/embed/${YT}/extra`,
  "https://www.youtube.com/playlist?list=<script>",
  "https://www.youtube.com/@somechannel",
  "https://www.youtube.com/",
  "https://vimeo.com/staff",
  "https://vimeo.com/76979871/not-a-hash!",
  "https://player.vimeo.com/video/76979871?h=<x>",
  "https://open.spotify.com/track/short",
  `https://open.spotify.com/user/${SP}`,
  "https://soundcloud.com/discover",
  "https://soundcloud.com/forss/likes",
  "https://soundcloud.com/a/b/c/d",
  "https://music.apple.com/us/album/x/notanid",
  "https://music.apple.com/usa/album/x/1708308989",
  "https://music.apple.com/us/album/x/1708308989?i=abc",
  "https://artist.bandcamp.com/album/some-album",
  "https://bandcamp.com/EmbeddedPlayer/album=1/track=2",
  "https://bandcamp.com/EmbeddedPlayer/size=large",
  "https://bandcamp.com/EmbeddedPlayer/album=1536701931/x=<y>",
  "https://www.tiktok.com/@scout2015",
  "https://www.tiktok.com/@scout2015/video/abc",
  // Short links that only the service can resolve.
  "https://vm.tiktok.com/ZMabcdef/",
  "https://on.soundcloud.com/abcdef",
  "https://spotify.link/abcdef",
  // Not a player service at all.
  "https://example.com/watch?v=dQw4w9WgXcQ",
];

describe("recognizeEmbed", () => {
  it.each(RECOGNISED)("recognises %s", (url, service, embedUrl, aspect) => {
    const r = recognizeEmbed(url);
    expect(r).toEqual({ service, label: expect.any(String), embedUrl, aspect });
    // The embed address is https, on the service's frame host, and parses to itself.
    expect(new URL(r!.embedUrl).origin).toBe(EMBED_FRAME_ORIGINS[service]);
    expect(new URL(r!.embedUrl).href).toBe(r!.embedUrl);
  });

  it.each(NOT_PLAYERS)("is not a player: %j", (url) => {
    expect(recognizeEmbed(url)).toBeNull();
  });

  it("names each service as the dialog shows it, and uses the privacy options", () => {
    expect(recognizeEmbed(`https://youtu.be/${YT}`)!.label).toBe("YouTube");
    expect(recognizeEmbed("https://music.apple.com/gb/song/anti-hero/1645937265")!.label).toBe("Apple Music");
    expect(recognizeEmbed("https://soundcloud.com/forss")!.label).toBe("SoundCloud");
    expect(recognizeEmbed("https://www.tiktok.com/@a/video/6718335390845095173")!.label).toBe("TikTok");
    for (const [url, service] of RECOGNISED) {
      const e = recognizeEmbed(url)!.embedUrl;
      if (service === "youtube") expect(e.startsWith("https://www.youtube-nocookie.com/")).toBe(true);
      if (service === "vimeo") expect(new URL(e).searchParams.get("dnt")).toBe("1");
    }
  });

  it("does not throw on values that are not strings or are huge", () => {
    expect(recognizeEmbed(undefined as unknown as string)).toBeNull();
    expect(recognizeEmbed(`https://www.youtube.com/watch?v=${YT}&x=${"a".repeat(5000)}`)).toBeNull();
  });
});
