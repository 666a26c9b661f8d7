/**
 * The public contact form (/contact). Plain text only; the mail is sent as text, never HTML.
 */
import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { multiLine, singleLine } from "../text-rule.ts";

export const CONTACT_NAME_MAX = 100;
export const CONTACT_MESSAGE_MAX = 5000;

export const ContactMessageSchema = z.object({
  // A name is one line: it also ends up in a mail header.
  name: singleLine("Name is required").min(1, "Name is required").max(CONTACT_NAME_MAX, `Name must be at most ${CONTACT_NAME_MAX} characters`),
  email: z
    .string("Email is required")
    .trim()
    .min(1, "Email is required")
    .max(LIMITS.EMAIL_MAX, "Please enter a valid email address")
    .pipe(z.email("Please enter a valid email address")),
  message: multiLine("Message is required")
    .min(1, "Message is required")
    .max(CONTACT_MESSAGE_MAX, `Message must be at most ${CONTACT_MESSAGE_MAX} characters`),
});
