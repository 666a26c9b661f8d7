/**
 * Request bodies of the dashboard's editing routes that core/schemas does not cover: the Plus-only
 * link settings (thumbnail, schedule, main button), ordering, visibility, link lists, social order and
 * upgrade requests. The API validates with these and the dashboard builds its requests from them.
 */
import { z } from "zod";
import { LIMITS } from "./limits.ts";
import { LINK_MESSAGES, isMediaPath } from "./link-input.ts";
import { singleLine } from "./text-rule.ts";
import { completeUrl, isImageUrl } from "./url-rule.ts";

const id = z.string().trim().min(1).max(64);
const isoOrNull = z.iso.datetime({ offset: true }).nullable();

/** The Plus-only settings a link may carry besides its type's fields (spec section 6). */
export const LinkExtrasSchema = z
  .object({
    thumbnailUrl: z
      .string()
      .trim()
      // "cdn.example.com/p.jpg" gets https://, as the dialog shows on leaving the field (ADR 145).
      .overwrite((v) => completeUrl(v))
      .max(LIMITS.URL_MAX, LINK_MESSAGES.urlInvalid)
      .refine((v) => v === "" || isImageUrl(v) || (isMediaPath(v) && /\.(jpg|png|gif|webp)$/.test(v)), LINK_MESSAGES.urlInvalid)
      .nullable()
      .optional(),
    scheduleStartTime: isoOrNull.optional(),
    scheduleEndTime: isoOrNull.optional(),
    isMainButton: z.boolean().optional(),
    parentListId: id.nullable().optional(),
  })
  .refine(
    (v) => !v.scheduleStartTime || !v.scheduleEndTime || Date.parse(v.scheduleEndTime) > Date.parse(v.scheduleStartTime),
    { message: "End time must be after the start time", path: ["scheduleEndTime"] },
  );
export type LinkExtras = z.infer<typeof LinkExtrasSchema>;
export const LINK_EXTRA_KEYS = ["thumbnailUrl", "scheduleStartTime", "scheduleEndTime", "isMainButton", "parentListId"] as const;

export const LinkVisibilitySchema = z.object({ isActive: z.boolean() });
export const MainButtonSchema = z.object({ isMainButton: z.boolean() });

/** The whole page order: every one of the owner's links, top to bottom, each with its list (or none). */
export const LinkOrderSchema = z.object({
  items: z.array(z.object({ id, parentListId: id.nullable() })).max(1000),
  lists: z.array(id).max(200).optional(),
});

export const LinkListInputSchema = z.object({
  title: singleLine("List title is required").min(1, "List title is required").max(LIMITS.LIST_TITLE_MAX, `List title must be ${LIMITS.LIST_TITLE_MAX} characters or less`),
});

export const SocialVisibilitySchema = z.object({ isVisible: z.boolean() });
export const SocialOrderSchema = z.object({ ids: z.array(id).min(1).max(100) });
export const QrCodeVisibilitySchema = z.object({ visible: z.boolean() });

export const IdParamSchema = z.object({ id });
