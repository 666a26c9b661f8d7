/**
 * The owner's profile as edited on the Profile Picture, Bio & SEO and Theme screens (spec sections 3,
 * 5 and 9), with the spec's messages. The editor guides with these; the API enforces them.
 */
import { z } from "zod";
import { LIMITS } from "../limits.ts";
import {
  BUTTON_STYLES,
  FONT_PAIRING_IDS,
  FULLWIDTH_SUBTYPES,
  ICON_SUBTYPES,
  PICTURE_STYLES,
  SOCIAL_POSITIONS,
  THEME_IDS,
} from "../themes.ts";

export const PROFILE_MESSAGES = {
  displayNameTooLong: `Display name must be ${LIMITS.DISPLAY_NAME_MAX} characters or less`,
  bioTooLong: `Bio must be ${LIMITS.BIO_MAX} characters or less`,
  seoTitleTooLong: `SEO title must be ${LIMITS.SEO_TITLE_MAX} characters or less`,
  seoDescriptionTooLong: `Meta description must be ${LIMITS.SEO_DESCRIPTION_MAX} characters or less`,
  longFormTextTooLong: `Text must be ${LIMITS.LONG_FORM_TEXT_MAX} characters or less`,
  initialsInvalid: `Initials can be at most ${LIMITS.INITIALS_MAX} letters`,
  colorInvalid: "Please enter a valid hex colour, like #3b82f6",
  themeInvalid: "Please choose a theme",
  fontInvalid: "Please choose a font pairing",
} as const;

/** Spec sections 5 and 8, Profile picture: the title and description of each refusal. */
export const PICTURE_MESSAGES = {
  invalidType: "Invalid file type",
  invalidTypeText: "Please select a valid image file (JPG, PNG, GIF)",
  tooLarge: "File too large",
  tooLargeText: "Please select an image smaller than 2MB",
  notSignedIn: "You must be logged in to upload a profile picture",
  uploadFailed: "Failed to upload profile picture",
  styleUpdated: "Profile picture style updated",
  styleFailed: "Failed to update profile picture style",
  removed: "Profile picture removed",
  removeFailed: "Failed to remove profile picture",
} as const;

/** The image types an owner may upload (SVG never: it can carry script). */
export const IMAGE_MIME_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;

/** The browser-side check before cropping; the server checks the bytes themselves. */
export function pictureFileError(file: { type: string; size: number }): { title: string; text: string } | null {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
    return { title: PICTURE_MESSAGES.invalidType, text: PICTURE_MESSAGES.invalidTypeText };
  }
  if (file.size > LIMITS.IMAGE_MAX_BYTES) return { title: PICTURE_MESSAGES.tooLarge, text: PICTURE_MESSAGES.tooLargeText };
  return null;
}

export const HexColorSchema = z
  .string(PROFILE_MESSAGES.colorInvalid)
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, PROFILE_MESSAGES.colorInvalid)
  .transform((v) => v.toLowerCase());

/** Initials: letters only, at most two, stored uppercase (spec section 5, Profile text). */
export const InitialsSchema = z
  .string()
  .trim()
  .max(LIMITS.INITIALS_MAX, PROFILE_MESSAGES.initialsInvalid)
  .regex(/^\p{L}*$/u, PROFILE_MESSAGES.initialsInvalid)
  .transform((v) => v.toUpperCase());

/** Bio & SEO screen. Every field optional: the screen saves what changed. */
export const ProfileTextSchema = z
  .object({
    displayName: z.string().trim().max(LIMITS.DISPLAY_NAME_MAX, PROFILE_MESSAGES.displayNameTooLong),
    bio: z.string().trim().max(LIMITS.BIO_MAX, PROFILE_MESSAGES.bioTooLong),
    seoTitle: z.string().trim().max(LIMITS.SEO_TITLE_MAX, PROFILE_MESSAGES.seoTitleTooLong),
    seoDescription: z.string().trim().max(LIMITS.SEO_DESCRIPTION_MAX, PROFILE_MESSAGES.seoDescriptionTooLong),
    longFormText: z.string().trim().max(LIMITS.LONG_FORM_TEXT_MAX, PROFILE_MESSAGES.longFormTextTooLong),
  })
  .partial()
  .strict();
export type ProfileTextInput = z.output<typeof ProfileTextSchema>;

/** Profile Picture screen: style, shape and initials. */
export const PictureSettingsSchema = z
  .object({
    profilePictureStyle: z.enum(PICTURE_STYLES),
    profilePictureIconSubtype: z.enum(ICON_SUBTYPES),
    profilePictureFullwidthSubtype: z.enum(FULLWIDTH_SUBTYPES),
    initialsText: InitialsSchema,
    initialsBgColor: HexColorSchema,
  })
  .partial()
  .strict();
export type PictureSettingsInput = z.output<typeof PictureSettingsSchema>;

/** Theme screen. A null colour means "the theme's own". */
export const AppearanceSchema = z
  .object({
    selectedThemeName: z.enum(THEME_IDS, PROFILE_MESSAGES.themeInvalid),
    customPageBackgroundColor: HexColorSchema.nullable(),
    customButtonBackgroundColor: HexColorSchema.nullable(),
    customButtonBorderColor: HexColorSchema.nullable(),
    buttonShapeStyle: z.enum(BUTTON_STYLES),
    socialLinksPosition: z.enum(SOCIAL_POSITIONS),
    customFontPairingName: z.enum(FONT_PAIRING_IDS, PROFILE_MESSAGES.fontInvalid).nullable(),
    removeBranding: z.boolean(),
    hidePlatformBranding: z.boolean(),
  })
  .partial()
  .strict();
export type AppearanceInput = z.output<typeof AppearanceSchema>;
