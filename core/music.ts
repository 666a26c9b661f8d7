/**
 * A Music link (ADR 211): one release, its cover, and its addresses on the streaming services, in
 * the owner's order. Stored in link_specific_data.services as the JSON text of
 * [{ service, url }, …]; the link's url is the first service's address. The link dialog and the API
 * check the list with the same schema and messages (core/schemas/music.ts). This module is
 * zod-free: the renderer, and with it the dashboard's live preview, reads stored lists with it alone.
 */
import { isWebUrl, parsedUrl } from "./url-rule.ts";

export interface MusicServiceInfo {
  id: string;
  label: string;
  /** The service's domains: an address is the service's when its host is one of them or below one. */
  domains: readonly string[];
  /** An example address, for the dialog's placeholder. */
  example: string;
}

export const MUSIC_SERVICES = [
  { id: "spotify", label: "Spotify", domains: ["open.spotify.com", "spotify.link"], example: "https://open.spotify.com/album/…" },
  { id: "apple_music", label: "Apple Music", domains: ["music.apple.com"], example: "https://music.apple.com/…" },
  { id: "youtube_music", label: "YouTube Music", domains: ["music.youtube.com", "youtube.com", "youtu.be"], example: "https://music.youtube.com/…" },
  { id: "bandcamp", label: "Bandcamp", domains: ["bandcamp.com"], example: "https://artist.bandcamp.com/album/…" },
  { id: "soundcloud", label: "SoundCloud", domains: ["soundcloud.com"], example: "https://soundcloud.com/…" },
  { id: "deezer", label: "Deezer", domains: ["deezer.com", "deezer.page.link"], example: "https://www.deezer.com/album/…" },
  { id: "tidal", label: "Tidal", domains: ["tidal.com"], example: "https://tidal.com/browse/album/…" },
  { id: "amazon_music", label: "Amazon Music", domains: ["music.amazon.com", "music.amazon.co.uk", "music.amazon.de", "music.amazon.fr", "music.amazon.it", "music.amazon.es", "music.amazon.ca", "music.amazon.com.au", "music.amazon.co.jp", "music.amazon.com.br", "music.amazon.in", "music.amazon.com.mx", "amazon.com"], example: "https://music.amazon.com/albums/…" },
] as const satisfies readonly MusicServiceInfo[];

export type MusicServiceId = (typeof MUSIC_SERVICES)[number]["id"];
export const MUSIC_SERVICE_IDS = MUSIC_SERVICES.map((s) => s.id) as [MusicServiceId, ...MusicServiceId[]];
export const MUSIC_SERVICES_MAX = MUSIC_SERVICES.length;

export const musicService = (id: string): MusicServiceInfo | undefined => MUSIC_SERVICES.find((s) => s.id === id);

export interface MusicServiceLink {
  service: MusicServiceId;
  url: string;
}

export const MUSIC_MESSAGES = {
  servicesRequired: "Add the release's address on at least one service",
  tooMany: `Add up to ${MUSIC_SERVICES_MAX} services`,
  unknownService: "Please choose a service from the list",
  duplicate: "Each service can be added once",
  urlRequired: "URL is required",
  urlInvalid: "Please enter a valid URL",
  notService: (label: string) => `This is not a ${label} address`,
} as const;

/** Whether `url` is an address on the service: https or http, its host one of the service's domains or below one. */
export function isServiceUrl(service: MusicServiceInfo, url: string): boolean {
  if (!isWebUrl(url)) return false;
  const u = parsedUrl(url);
  if (!u || u.username || u.password || u.port) return false;
  const host = u.hostname;
  return service.domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** The stored form of a services list (link_specific_data.services). */
export const musicServicesData = (list: readonly MusicServiceLink[]): string => JSON.stringify(list.map((e) => ({ service: e.service, url: e.url })));

/**
 * The services list of a stored Music link, in the owner's order; entries the rules would refuse now
 * (an unknown service, an address that is not the service's) are left out, so the page links to
 * nothing it would not accept.
 */
export function parseMusicServices(data: string | undefined | null): MusicServiceLink[] {
  if (!data) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const out: MusicServiceLink[] = [];
  for (const e of raw.slice(0, MUSIC_SERVICES_MAX)) {
    if (!e || typeof e !== "object") continue;
    const { service, url } = e as Record<string, unknown>;
    const info = typeof service === "string" ? musicService(service) : undefined;
    if (!info || typeof url !== "string" || !isServiceUrl(info, url) || out.some((o) => o.service === info.id)) continue;
    out.push({ service: info.id as MusicServiceId, url });
  }
  return out;
}
