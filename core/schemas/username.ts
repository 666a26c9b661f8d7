/**
 * The username rule (spec section 5, Username) as a zod schema: trimmed, 3 to 30 characters, letters,
 * digits, hyphen and underscore, with the spec's messages. Availability (taken or reserved) is the
 * server's answer, not a format rule.
 */
import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { USERNAME_FORMAT } from "../username-format.ts";

export const USERNAME_TAKEN_MESSAGE = "Username is already taken";
export const USERNAME_CHECK_FAILED_MESSAGE = "Error checking availability";

const minutes = (n: number) => (n === 1 ? "1 minute" : `${n} minutes`);
/**
 * Not in the spec (ADR 141): a name a signup in progress holds, as the claim check tells it. The check
 * does not know who asks yet, so it says how the holder goes on, and when the name frees up.
 */
export const usernameHeldMessage = (freesInMinutes: number) =>
  `Username is held by a signup in progress. It frees up in ${minutes(freesInMinutes)} unless that signup goes on. If it's yours, continue with the same email address.`;
/** Not in the spec (ADR 141): the same name, asked for with another e-mail address. */
export const usernameHeldByOtherMessage = (freesInMinutes: number) =>
  `Username is held by another signup in progress. It frees up in ${minutes(freesInMinutes)} unless that signup goes on.`;

export const UsernameSchema = z
  .string("Username must be at least 3 characters")
  .trim()
  .min(LIMITS.USERNAME_MIN, "Username must be at least 3 characters")
  .max(LIMITS.USERNAME_MAX, "Username must be less than 30 characters")
  .regex(USERNAME_FORMAT, "Username can only contain letters, numbers, hyphens, and underscores");

export const UsernameQuerySchema = z.object({ username: z.string().max(200).default("") });
