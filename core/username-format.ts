/**
 * Local username format check with docs/product.md's messages (section 2, Username), for instant feedback
 * before the server's availability check. Kept dependency-free so the landing page island stays small.
 */
import { LIMITS } from "./limits.ts";

export const USERNAME_FORMAT = /^[A-Za-z0-9_-]+$/;

/** The first format problem with a trimmed username, or null when the format is fine. */
export function usernameFormatError(name: string): string | null {
  if (name.length < LIMITS.USERNAME_MIN) return "Username must be at least 3 characters";
  if (name.length > LIMITS.USERNAME_MAX) return "Username must be less than 30 characters";
  if (!USERNAME_FORMAT.test(name)) return "Username can only contain letters, numbers, hyphens, and underscores";
  return null;
}
