/**
 * Which service's player a link address is, and the address of that service's official embed (ADR 210).
 * Pure: it reads the address and never fetches anything. An address is recognised only when it passes
 * the one URL rule (core/url-rule.ts), carries no user name, password or port, its host is exactly one
 * of the service's hosts, and the ids it names have the service's shape; the embed address is built
 * from those ids alone, never from what else the address holds. Anything else is not a player (null).
 */
import { isWebUrl, parsedUrl } from "./url-rule.ts";

export const EMBED_SERVICES = ["youtube", "vimeo", "spotify", "soundcloud", "apple_music", "bandcamp", "tiktok"] as const;
export type EmbedService = (typeof EMBED_SERVICES)[number];

/** The services' display names, as the link dialog's "Recognised: …" and the player's label show them. */
export const EMBED_LABELS: Record<EmbedService, string> = {
  youtube: "YouTube",
  vimeo: "Vimeo",
  spotify: "Spotify",
  soundcloud: "SoundCloud",
  apple_music: "Apple Music",
  bandcamp: "Bandcamp",
  tiktok: "TikTok",
};

/**
 * The player's fixed box, so nothing moves when the embed loads: a video frame (landscape or
 * portrait) keeps its aspect ratio; an audio player has the fixed height its service draws, a single
 * track ("wide-audio") or a list of tracks ("tall-audio").
 */
export type EmbedAspect = "16/9" | "9/16" | "wide-audio" | "tall-audio";

export interface RecognizedEmbed {
  service: EmbedService;
  label: string;
  /** The official embed address, https, with the service's privacy option and autoplay where it has them. */
  embedUrl: string;
  aspect: EmbedAspect;
}

/** The host each service's embed frames come from: what a page's Content-Security-Policy frame-src names. */
export const EMBED_FRAME_ORIGINS: Record<EmbedService, string> = {
  youtube: "https://www.youtube-nocookie.com",
  vimeo: "https://player.vimeo.com",
  spotify: "https://open.spotify.com",
  soundcloud: "https://w.soundcloud.com",
  apple_music: "https://embed.music.apple.com",
  bandcamp: "https://bandcamp.com",
  tiktok: "https://www.tiktok.com",
};

const YOUTUBE_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com", "youtube-nocookie.com", "www.youtube-nocookie.com"]);
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_LIST = /^[A-Za-z0-9_-]{10,64}$/;
const VIMEO_HOSTS = new Set(["vimeo.com", "www.vimeo.com", "player.vimeo.com"]);
const VIMEO_ID = /^\d{1,12}$/;
const VIMEO_HASH = /^[0-9a-f]{6,20}$/;
const SPOTIFY_KINDS = new Set(["track", "album", "playlist", "artist", "episode", "show"]);
const SPOTIFY_ID = /^[A-Za-z0-9]{22}$/;
const SOUNDCLOUD_HOSTS = new Set(["soundcloud.com", "www.soundcloud.com", "m.soundcloud.com"]);
/** SoundCloud's own pages, which are not an artist, a track or a set. */
const SOUNDCLOUD_RESERVED = new Set(["discover", "search", "stream", "you", "upload", "settings", "pages", "terms-of-use", "charts", "people", "messages", "notifications", "signin", "logout", "mobile", "jobs", "imprint", "popular", "tags", "feed"]);
/** A path segment: letters, digits, "-", "_", "." (never "." or ".." alone). */
const SLUG = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;
const APPLE_KINDS = new Set(["album", "playlist", "song", "artist", "music-video", "station"]);
const APPLE_COUNTRY = /^[a-z]{2}$/;
/** Apple's slugs are words of any script, which the address carries percent-encoded. */
const APPLE_SLUG = /^(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2}){1,300}$/;
const APPLE_ID = /^(?:\d{1,15}|pl\.[A-Za-z0-9-]{1,64}|ra\.[A-Za-z0-9-]{1,64})$/;
const BANDCAMP_HOSTS = new Set(["bandcamp.com", "www.bandcamp.com"]);
const TIKTOK_HOSTS = new Set(["tiktok.com", "www.tiktok.com", "m.tiktok.com"]);
const TIKTOK_ID = /^\d{8,25}$/;

/** The address's non-empty path segments, or null when one hides a slash, backslash or dot segment. */
function segmentsOf(u: URL): string[] | null {
  if (/%(?:2f|5c|2e)/i.test(u.pathname)) return null;
  return u.pathname.split("/").filter(Boolean);
}

const make = (service: EmbedService, embedUrl: string, aspect: EmbedAspect): RecognizedEmbed => ({ service, label: EMBED_LABELS[service], embedUrl, aspect });

function youtube(u: URL, s: string[]): RecognizedEmbed | null {
  const list = u.searchParams.get("list");
  const nocookie = "https://www.youtube-nocookie.com/embed/";
  const video = (id: string | null | undefined, aspect: EmbedAspect = "16/9") => (id && YOUTUBE_ID.test(id) ? make("youtube", `${nocookie}${id}?autoplay=1`, aspect) : null);
  if (u.hostname === "youtu.be") return s.length === 1 ? video(s[0]) : null;
  if (s.length === 1 && s[0] === "watch") return video(u.searchParams.get("v"));
  const series = (s.length === 1 && s[0] === "playlist") || (s.length === 2 && s[0] === "embed" && s[1] === "videoseries");
  if (series) return list && YOUTUBE_LIST.test(list) ? make("youtube", `${nocookie}videoseries?list=${list}&autoplay=1`, "16/9") : null;
  if (s.length === 2 && (s[0] === "embed" || s[0] === "live" || s[0] === "v")) return video(s[1]);
  if (s.length === 2 && s[0] === "shorts") return video(s[1], "9/16");
  return null;
}

function vimeo(u: URL, s: string[]): RecognizedEmbed | null {
  let id: string | undefined;
  let hash: string | null = null;
  if (u.hostname === "player.vimeo.com") {
    if (s.length !== 2 || s[0] !== "video") return null;
    id = s[1];
    hash = u.searchParams.get("h");
  } else if (s.length === 1 || (s.length === 2 && VIMEO_HASH.test(s[1]!))) {
    id = s[0];
    hash = s[1] ?? null;
  } else if (s.length === 3 && s[0] === "channels") {
    id = s[2];
  } else if (s.length === 4 && s[0] === "groups" && s[2] === "videos") {
    id = s[3];
  } else if (s.length === 2 && s[0] === "video") {
    id = s[1];
  }
  if (!id || !VIMEO_ID.test(id) || (hash !== null && !VIMEO_HASH.test(hash))) return null;
  return make("vimeo", `https://player.vimeo.com/video/${id}?${hash ? `h=${hash}&` : ""}dnt=1&autoplay=1`, "16/9");
}

function spotify(s: string[]): RecognizedEmbed | null {
  // open.spotify.com/intl-de/track/… and /embed/track/… name the same item.
  const rest = s.filter((x, i) => !(i === 0 && (/^intl-[a-z]{2}(?:-[A-Za-z]{2})?$/.test(x) || x === "embed")));
  if (rest.length !== 2 || !SPOTIFY_KINDS.has(rest[0]!) || !SPOTIFY_ID.test(rest[1]!)) return null;
  const aspect = rest[0] === "track" || rest[0] === "episode" ? "wide-audio" : "tall-audio";
  return make("spotify", `https://open.spotify.com/embed/${rest[0]}/${rest[1]}`, aspect);
}

function soundcloud(s: string[]): RecognizedEmbed | null {
  const ok = s.length >= 1 && s.length <= 3 && s.every((x) => SLUG.test(x)) && !SOUNDCLOUD_RESERVED.has(s[0]!.toLowerCase());
  if (!ok) return null;
  // An artist, a track, or a set (artist/sets/name); other artist pages (/likes, /albums) are not players.
  const kind = s.length === 1 ? "artist" : s.length === 3 ? (s[1] === "sets" ? "set" : null) : ["sets", "likes", "tracks", "albums", "reposts", "followers", "following", "popular-tracks", "comments"].includes(s[1]!) ? null : "track";
  if (!kind) return null;
  const page = `https://soundcloud.com/${s.join("/")}`;
  return make("soundcloud", `https://w.soundcloud.com/player/?url=${encodeURIComponent(page)}&auto_play=true&visual=false`, kind === "track" ? "wide-audio" : "tall-audio");
}

function appleMusic(u: URL, s: string[]): RecognizedEmbed | null {
  // music.apple.com/{country}/{kind}/{slug}/{id}, the slug optional.
  if (s.length < 3 || s.length > 4 || !APPLE_COUNTRY.test(s[0]!) || !APPLE_KINDS.has(s[1]!)) return null;
  const id = s[s.length - 1]!;
  if (!APPLE_ID.test(id) || (s.length === 4 && !APPLE_SLUG.test(s[2]!))) return null;
  const track = u.searchParams.get("i");
  if (track !== null && !/^\d{1,15}$/.test(track)) return null;
  const path = s.join("/");
  const single = s[1] === "song" || track !== null;
  const aspect: EmbedAspect = s[1] === "music-video" ? "16/9" : single ? "wide-audio" : "tall-audio";
  return make("apple_music", `https://embed.music.apple.com/${path}${track ? `?i=${track}` : ""}`, aspect);
}

function bandcamp(s: string[]): RecognizedEmbed | null {
  // Bandcamp's player takes the numeric id its Share / Embed address names (bandcamp.com/EmbeddedPlayer/album=…/size=…);
  // an album page's address does not hold it, and finding it would mean fetching the page.
  if (s[0] !== "EmbeddedPlayer" && s[0] !== "EmbeddedPlayer.html") return null;
  let item: string | null = null;
  for (const part of s.slice(1)) {
    const m = /^(album|track)=(\d{1,15})$/.exec(part);
    if (m) {
      if (item) return null;
      item = `${m[1]}=${m[2]}`;
    } else if (!/^[a-z_]{1,20}=[A-Za-z0-9]{0,20}$/.test(part)) {
      return null;
    }
  }
  if (!item) return null;
  const single = item.startsWith("track");
  return make("bandcamp", `https://bandcamp.com/EmbeddedPlayer/${item}/size=large/bgcol=ffffff/linkcol=0687f5/${single ? "tracklist=false/" : ""}artwork=small/transparent=true/`, single ? "wide-audio" : "tall-audio");
}

function tiktok(s: string[]): RecognizedEmbed | null {
  let id: string | undefined;
  if (s.length === 3 && /^@[A-Za-z0-9._]{1,40}$/.test(s[0]!) && s[1] === "video") id = s[2];
  else if (s.length === 3 && s[0] === "embed" && s[1] === "v2") id = s[2];
  else if (s.length === 2 && s[0] === "embed") id = s[1];
  else if (s.length === 3 && s[0] === "player" && s[1] === "v1") id = s[2];
  else if (s.length === 2 && s[0] === "v") id = s[1]!.replace(/\.html$/, "");
  if (!id || !TIKTOK_ID.test(id)) return null;
  return make("tiktok", `https://www.tiktok.com/player/v1/${id}?autoplay=1&rel=0`, "9/16");
}

/** The service and embed address of a player link's address, or null when it is not one. */
export function recognizeEmbed(url: string): RecognizedEmbed | null {
  if (typeof url !== "string" || !isWebUrl(url)) return null;
  const u = parsedUrl(url);
  if (!u || u.username || u.password || u.port || (u.protocol !== "https:" && u.protocol !== "http:")) return null;
  const s = segmentsOf(u);
  if (!s) return null;
  const host = u.hostname;
  if (host === "youtu.be" || YOUTUBE_HOSTS.has(host)) return youtube(u, s);
  if (VIMEO_HOSTS.has(host)) return vimeo(u, s);
  if (host === "open.spotify.com") return spotify(s);
  if (SOUNDCLOUD_HOSTS.has(host)) return soundcloud(s);
  if (host === "music.apple.com") return appleMusic(u, s);
  if (BANDCAMP_HOSTS.has(host)) return bandcamp(s);
  if (TIKTOK_HOSTS.has(host)) return tiktok(s);
  return null;
}

/**
 * The player a page draws for a link, or null for a plain link: a standard link switched on as a
 * player (link_specific_data.player = "on") whose address is recognised. The page derives the
 * service from the address each time it draws it; nothing else is stored.
 */
export function playerOf(link: { linkType: string; url: string; data: { player?: string } }): RecognizedEmbed | null {
  return link.linkType === "standard_url" && link.data.player === "on" ? recognizeEmbed(link.url.trim()) : null;
}
