/**
 * Brand marks of the public page: path data of Simple Icons 16.37.0 (simpleicons.org, CC0 1.0), one
 * module per platform. Simple Icons no longer carries LinkedIn, so that mark is a plain "in" in a
 * rounded square drawn for Plinth. The server's renderer uses this whole table, and the dashboard
 * loads it in one request when a screen first draws a mark (editor/app/components/brand-icons.ts).
 */
import type { PlatformId } from "#core/platforms.ts";
import tiktok from "./brand-icons/tiktok.ts";
import instagram from "./brand-icons/instagram.ts";
import snapchat from "./brand-icons/snapchat.ts";
import youtube from "./brand-icons/youtube.ts";
import x from "./brand-icons/x.ts";
import spotify from "./brand-icons/spotify.ts";
import soundcloud from "./brand-icons/soundcloud.ts";
import facebook from "./brand-icons/facebook.ts";
import linkedin from "./brand-icons/linkedin.ts";
import reddit from "./brand-icons/reddit.ts";
import pinterest from "./brand-icons/pinterest.ts";
import twitch from "./brand-icons/twitch.ts";
import vimeo from "./brand-icons/vimeo.ts";
import github from "./brand-icons/github.ts";
import strava from "./brand-icons/strava.ts";
import etsy from "./brand-icons/etsy.ts";
import behance from "./brand-icons/behance.ts";
import whatsapp from "./brand-icons/whatsapp.ts";

/** Path data of some brand marks, by platform: what a caller has loaded. */
export type BrandIconPaths = Partial<Record<PlatformId, string>>;

export const BRAND_ICONS: Record<PlatformId, string> = { tiktok, instagram, snapchat, youtube, x, spotify, soundcloud, facebook, linkedin, reddit, pinterest, twitch, vimeo, github, strava, etsy, behance, whatsapp };
