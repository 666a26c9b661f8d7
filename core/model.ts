/**
 * The page model: what an owner edits (the draft) and what a published version freezes (the
 * snapshot). The renderer draws a PageSnapshot; page_versions stores one as JSON, checked with this
 * schema when it is read back. Field names follow docs/product.md section 3 in
 * camelCase; times are ISO strings so a snapshot survives JSON unchanged.
 */
import { z } from "zod";
import { LINK_TYPES } from "./link-types.ts";
import { PLAN_TYPES, SUBSCRIPTION_STATUSES } from "./plans.ts";
import { PLATFORM_IDS } from "./platforms.ts";
import { BUTTON_STYLES, FONT_PAIRING_IDS, FULLWIDTH_SUBTYPES, ICON_SUBTYPES, PICTURE_STYLES, SOCIAL_POSITIONS, THEME_IDS } from "./themes.ts";

const isoTime = z.iso.datetime({ offset: true });

/** link_specific_data by type (docs/product.md section 3). Unknown keys are dropped. */
export const LinkSpecificDataSchema = z
  .object({
    /** text_link */
    text: z.string().optional(),
    url: z.string().optional(),
    /** donation */
    message: z.string().optional(),
    /** lead_magnet */
    description: z.string().optional(),
    fileUrl: z.string().optional(),
    /** vcf */
    name: z.string().optional(),
    phone: z.string().optional(),
    email: z.string().optional(),
    organization: z.string().optional(),
    /** standard_url shown as a player: "on" or "off" (ADR 212) */
    player: z.string().optional(),
    /** music: the JSON text of its ordered services (core/music.ts) */
    services: z.string().optional(),
    /** social: the platform id and the cleaned handle */
    platform: z.string().optional(),
    handle: z.string().optional(),
    /** tip and paid_download (ADR 231): amounts in the smallest unit, as digits */
    currency: z.string().optional(),
    amounts: z.string().optional(),
    custom: z.string().optional(),
    min: z.string().optional(),
    max: z.string().optional(),
    price: z.string().optional(),
    cover: z.string().optional(),
    /** paid_download: the private file's id and its name (never drawn on the page) */
    file: z.string().optional(),
    fileName: z.string().optional(),
  })
  .strip();

export const PageLinkSchema = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  linkType: z.enum(LINK_TYPES),
  data: LinkSpecificDataSchema,
  isMainButton: z.boolean(),
  isActive: z.boolean(),
  orderIndex: z.number().int(),
  thumbnailUrl: z.string().nullable(),
  scheduleStartTime: isoTime.nullable(),
  scheduleEndTime: isoTime.nullable(),
  parentListId: z.string().nullable(),
});
export type PageLink = z.infer<typeof PageLinkSchema>;

export const PageLinkListSchema = z.object({
  id: z.string(),
  title: z.string(),
  orderIndex: z.number().int(),
});
export type PageLinkList = z.infer<typeof PageLinkListSchema>;

export const PageSocialLinkSchema = z.object({
  id: z.string(),
  platform: z.enum(PLATFORM_IDS),
  url: z.string(),
  displayOrder: z.number().int(),
  isVisible: z.boolean(),
});
export type PageSocialLink = z.infer<typeof PageSocialLinkSchema>;

export const PageProfileFieldsSchema = z.object({
  username: z.string(),
  displayName: z.string(),
  bio: z.string(),
  seoTitle: z.string(),
  seoDescription: z.string(),
  longFormText: z.string(),
  /** The long-form text's own switch (ADR 136): off keeps the text and leaves it off the page. */
  longFormTextVisible: z.boolean(),
  profilePictureUrl: z.string().nullable(),
  profilePictureStyle: z.enum(PICTURE_STYLES),
  profilePictureIconSubtype: z.enum(ICON_SUBTYPES),
  profilePictureFullwidthSubtype: z.enum(FULLWIDTH_SUBTYPES),
  initialsText: z.string(),
  initialsBgColor: z.string(),
  selectedThemeName: z.enum(THEME_IDS),
  customPageBackgroundColor: z.string().nullable(),
  customButtonBackgroundColor: z.string().nullable(),
  customButtonBorderColor: z.string().nullable(),
  buttonShapeStyle: z.enum(BUTTON_STYLES),
  socialLinksPosition: z.enum(SOCIAL_POSITIONS),
  customFontPairingName: z.enum(FONT_PAIRING_IDS).nullable(),
  hidePlatformBranding: z.boolean(),
  removeBranding: z.boolean(),
  qrCodeVisible: z.boolean(),
  referralId: z.string(),
  /** The full-width layout's own crop; profilePictureUrl is the icon's. */
  profilePictureFullwidthUrl: z.string().nullable(),
});
/**
 * A snapshot stored before full-width pictures had their own crop held one picture, cut for the
 * layout it was uploaded in: a full-width page's picture is its full-width crop. One stored before the
 * long-form text had its switch showed the text (ADR 136).
 */
export const PageProfileSchema = z.preprocess((v) => {
  if (!v || typeof v !== "object") return v;
  let out = v as Record<string, unknown>;
  if (!("profilePictureFullwidthUrl" in out)) {
    out = { ...out, profilePictureFullwidthUrl: out.profilePictureStyle === "full_width" ? (out.profilePictureUrl ?? null) : null };
  }
  if (!("longFormTextVisible" in out)) out = { ...out, longFormTextVisible: true };
  return out;
}, PageProfileFieldsSchema);
export type PageProfile = z.infer<typeof PageProfileFieldsSchema>;

/** Plan state as it matters to a page: whether Plus rules apply is decided at render time. */
export const PagePlanSchema = z.object({
  planType: z.enum(PLAN_TYPES),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES).nullable(),
  currentPeriodEndDate: isoTime.nullable(),
  trialEndsAt: isoTime.nullable(),
});
export type PagePlan = z.infer<typeof PagePlanSchema>;

/** Everything the owner edits. Discard restores exactly this from the last published version. */
export const PageSnapshotSchema = z.object({
  profile: PageProfileSchema,
  links: z.array(PageLinkSchema),
  lists: z.array(PageLinkListSchema),
  socialLinks: z.array(PageSocialLinkSchema),
});
export type PageSnapshot = z.infer<typeof PageSnapshotSchema>;
