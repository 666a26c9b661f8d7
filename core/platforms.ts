/**
 * The 18 social platforms of docs/product.md section 3, each with the fixed base URL that prefixes the handle.
 * The handle is the stored url with this prefix removed.
 */
export const SOCIAL_PLATFORMS = [
  { id: "tiktok", name: "TikTok", baseUrl: "https://www.tiktok.com/@", handleLabel: "Username" },
  { id: "instagram", name: "Instagram", baseUrl: "https://www.instagram.com/", handleLabel: "Username" },
  { id: "snapchat", name: "Snapchat", baseUrl: "https://www.snapchat.com/add/", handleLabel: "Username" },
  { id: "youtube", name: "YouTube", baseUrl: "https://www.youtube.com/@", handleLabel: "Channel handle" },
  { id: "x", name: "X", baseUrl: "https://x.com/", handleLabel: "Username" },
  { id: "spotify", name: "Spotify", baseUrl: "https://open.spotify.com/user/", handleLabel: "User id" },
  { id: "soundcloud", name: "SoundCloud", baseUrl: "https://soundcloud.com/", handleLabel: "Username" },
  { id: "facebook", name: "Facebook", baseUrl: "https://www.facebook.com/", handleLabel: "Username" },
  { id: "linkedin", name: "LinkedIn", baseUrl: "https://www.linkedin.com/in/", handleLabel: "Profile id" },
  { id: "reddit", name: "Reddit", baseUrl: "https://www.reddit.com/user/", handleLabel: "Username" },
  { id: "pinterest", name: "Pinterest", baseUrl: "https://www.pinterest.com/", handleLabel: "Username" },
  { id: "twitch", name: "Twitch", baseUrl: "https://www.twitch.tv/", handleLabel: "Username" },
  { id: "vimeo", name: "Vimeo", baseUrl: "https://vimeo.com/", handleLabel: "Username" },
  { id: "github", name: "GitHub", baseUrl: "https://github.com/", handleLabel: "Username" },
  { id: "strava", name: "Strava", baseUrl: "https://www.strava.com/athletes/", handleLabel: "Athlete id" },
  { id: "etsy", name: "Etsy", baseUrl: "https://www.etsy.com/shop/", handleLabel: "Shop name" },
  { id: "behance", name: "Behance", baseUrl: "https://www.behance.net/", handleLabel: "Username" },
  { id: "whatsapp", name: "WhatsApp", baseUrl: "https://wa.me/", handleLabel: "Country code and phone number" },
] as const;

export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];
export type PlatformId = SocialPlatform["id"];
export const PLATFORM_IDS = SOCIAL_PLATFORMS.map((p) => p.id) as [PlatformId, ...PlatformId[]];

export function getPlatform(id: string): SocialPlatform | undefined {
  return SOCIAL_PLATFORMS.find((p) => p.id === id);
}
