/**
 * Turning what an owner types into a social link's stored url (docs/product.md sections 3 and 5): the handle is
 * trimmed; a pasted full profile URL is reduced to its handle; WhatsApp keeps digits only. Without
 * zod, so the Social Links screen loads no validation library; schemas/social.ts holds the forms.
 */
import type { SocialPlatform } from "./platforms.ts";
import { isWebUrl } from "./url-rule.ts";

/** Our choice: long enough for any platform's handle. */
export const SOCIAL_HANDLE_MAX = 100;

/** The handle part of a stored url (the url with the platform's base prefix removed). */
export function handleOf(platform: SocialPlatform, url: string): string {
  return url.startsWith(platform.baseUrl) ? url.slice(platform.baseUrl.length) : url;
}

/** The handle from what was typed or pasted, or null when nothing usable remains. */
export function cleanHandle(platform: SocialPlatform, raw: string): string | null {
  let value = raw.trim();
  if (platform.id === "whatsapp") {
    const digits = value.replace(/\D/g, "");
    return digits.length ? digits : null;
  }
  // A pasted profile URL: keep what follows the platform's base URL (with or without www, http).
  const base = platform.baseUrl.replace(/^https:\/\/(www\.)?/, "");
  const stripped = value.replace(/^https?:\/\/(www\.)?/i, "");
  if (stripped.toLowerCase().startsWith(base.toLowerCase())) value = stripped.slice(base.length);
  value = value.replace(/^@/, "").split(/[?#]/)[0]!.replace(/\/+$/, "").trim();
  if (!value || value.length > SOCIAL_HANDLE_MAX || !/^[\p{L}\p{N}._\-/@~%+]+$/u.test(value)) return null;
  // The page links to the platform's base URL plus the handle: by the same rule as every link.
  return isWebUrl(platform.baseUrl + value) ? value : null;
}
