/**
 * A link as the owner enters it (spec section 5, Links): the fields each type requires, safe URLs
 * only (http and https), and the url stored for each type.
 */
import { z } from "zod";
import { LIMITS } from "./limits.ts";
import { HASH_URL_LINK_TYPES, LINK_TYPES, PROMOTE_LINK_TYPE, URL_REQUIRED_LINK_TYPES, type LinkType } from "./link-types.ts";

export const LINK_MESSAGES = {
  titleRequired: "Title is required",
  titleTooLong: `Title must be ${LIMITS.LINK_TITLE_MAX} characters or less`,
  urlRequired: "URL is required",
  urlInvalid: "Please enter a valid URL",
  linkTextRequired: "Link Text is required",
  descriptionRequired: "Description is required",
  fullNameRequired: "Full Name is required",
  emailInvalid: "Please enter a valid email address",
  tooLong: "This field is too long",
} as const;

/** An absolute http(s) URL without credentials or control characters. */
export function isSafeUrl(value: string): boolean {
  if (value.length > LIMITS.URL_MAX || /[\s<>"'`\u0000-\u001f]/.test(value)) return false;
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && !!u.hostname && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** A file uploaded to Plinth's own media storage: "/media/ab/<32 hex>.<ext>", nothing a path could escape with. */
export function isMediaPath(value: string): boolean {
  return /^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.(jpg|png|gif|webp|pdf|epub|zip|mp3)$/.test(value);
}

const text = (max: number) => z.string().trim().max(max, LINK_MESSAGES.tooLong).optional().default("");

export const LinkInputSchema = z
  .object({
    linkType: z.enum(LINK_TYPES, "Please choose a link type"),
    title: z.string(LINK_MESSAGES.titleRequired).trim().min(1, LINK_MESSAGES.titleRequired).max(LIMITS.LINK_TITLE_MAX, LINK_MESSAGES.titleTooLong),
    url: z.string().trim().max(LIMITS.URL_MAX, LINK_MESSAGES.urlInvalid).optional().default(""),
    data: z
      .object({
        text: text(LIMITS.TEXT_LINK_TEXT_MAX),
        url: text(LIMITS.URL_MAX),
        message: text(LIMITS.DONATION_MESSAGE_MAX),
        description: text(LIMITS.LEAD_DESCRIPTION_MAX),
        fileUrl: text(LIMITS.URL_MAX),
        name: text(LIMITS.VCF_FIELD_MAX),
        phone: text(LIMITS.VCF_FIELD_MAX),
        email: text(LIMITS.VCF_FIELD_MAX),
        organization: text(LIMITS.VCF_FIELD_MAX),
      })
      .strip()
      .optional()
      .default({ text: "", url: "", message: "", description: "", fileUrl: "", name: "", phone: "", email: "", organization: "" }),
  })
  .superRefine((v, ctx) => {
    const d = v.data;
    const need = (ok: boolean, path: (string | number)[], message: string) => {
      if (!ok) ctx.addIssue({ code: "custom", path, message });
    };
    if (URL_REQUIRED_LINK_TYPES.includes(v.linkType)) {
      need(v.url !== "", ["url"], LINK_MESSAGES.urlRequired);
      if (v.url) need(isSafeUrl(v.url), ["url"], LINK_MESSAGES.urlInvalid);
    } else if (v.url && v.url !== "#") {
      need(isSafeUrl(v.url), ["url"], LINK_MESSAGES.urlInvalid);
    }
    if (v.linkType === "text_link") {
      need(d.url !== "" || v.url !== "", ["data", "url"], LINK_MESSAGES.urlRequired);
      if (d.url) need(isSafeUrl(d.url), ["data", "url"], LINK_MESSAGES.urlInvalid);
      need(d.text !== "", ["data", "text"], LINK_MESSAGES.linkTextRequired);
    }
    if (v.linkType === "lead_magnet") {
      need(d.description !== "", ["data", "description"], LINK_MESSAGES.descriptionRequired);
      if (d.fileUrl) need(isSafeUrl(d.fileUrl) || isMediaPath(d.fileUrl), ["data", "fileUrl"], LINK_MESSAGES.urlInvalid);
    }
    if (v.linkType === "vcf") {
      need(d.name !== "", ["data", "name"], LINK_MESSAGES.fullNameRequired);
      if (d.email) need(z.email().safeParse(d.email).success, ["data", "email"], LINK_MESSAGES.emailInvalid);
    }
  })
  .transform((v) => {
    // Keep only the fields of the link's own type.
    const keys: Partial<Record<LinkType, readonly (keyof typeof v.data)[]>> = {
      text_link: ["text", "url"],
      donation: ["message"],
      lead_magnet: ["description", "fileUrl"],
      vcf: ["name", "phone", "email", "organization"],
    };
    const data: Record<string, string> = {};
    for (const k of keys[v.linkType] ?? []) if (v.data[k]) data[k] = v.data[k];
    return { linkType: v.linkType, title: v.title, url: v.url, data };
  });
export type LinkInput = z.output<typeof LinkInputSchema>;

/** The url stored for a link (spec section 5). */
export function storedUrlFor(input: LinkInput, referralUrl: string): string {
  if (HASH_URL_LINK_TYPES.includes(input.linkType)) return "#";
  if (input.linkType === PROMOTE_LINK_TYPE) return referralUrl;
  if (input.linkType === "text_link") return input.data.url || input.url;
  if (input.linkType === "lead_magnet") return input.url || "#";
  return input.url;
}
