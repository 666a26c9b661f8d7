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

export const UsernameSchema = z
  .string("Username must be at least 3 characters")
  .trim()
  .min(LIMITS.USERNAME_MIN, "Username must be at least 3 characters")
  .max(LIMITS.USERNAME_MAX, "Username must be less than 30 characters")
  .regex(USERNAME_FORMAT, "Username can only contain letters, numbers, hyphens, and underscores");

export const UsernameQuerySchema = z.object({ username: z.string().max(200).default("") });
