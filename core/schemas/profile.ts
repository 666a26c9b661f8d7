/**
 * The owner's profile as edited on the Profile Picture, Bio & SEO and Theme screens (spec sections 3,
 * 5 and 9), with the spec's messages. The editor guides with these; the API enforces them.
 */
import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { multiLine, singleLine } from "../text-rule.ts";
import { BUTTON_STYLES, FONT_PAIRING_IDS, FULLWIDTH_SUBTYPES, ICON_SUBTYPES, PICTURE_STYLES, SOCIAL_POSITIONS, THEME_IDS } from "../themes.ts";
import { PICTURE_SHAPES, PROFILE_MESSAGES } from "../profile.ts";

export * from "../profile.ts";

export const PictureUploadFieldsSchema = z.object({
  shape: z.enum(PICTURE_SHAPES).default("icon"),
  /** The full-width height the picture was cropped for (ignored for an icon). */
  height: z.enum(FULLWIDTH_SUBTYPES).default("landscape"),
});

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
    displayName: singleLine().max(LIMITS.DISPLAY_NAME_MAX, PROFILE_MESSAGES.displayNameTooLong),
    bio: multiLine().max(LIMITS.BIO_MAX, PROFILE_MESSAGES.bioTooLong),
    seoTitle: singleLine().max(LIMITS.SEO_TITLE_MAX, PROFILE_MESSAGES.seoTitleTooLong),
    // A text area on the Bio & SEO screen; a line break in a meta description is harmless.
    seoDescription: multiLine().max(LIMITS.SEO_DESCRIPTION_MAX, PROFILE_MESSAGES.seoDescriptionTooLong),
    longFormText: multiLine().max(LIMITS.LONG_FORM_TEXT_MAX, PROFILE_MESSAGES.longFormTextTooLong),
    /** The long-form text's switch (ADR 136): off keeps the text and leaves it off the page. */
    longFormTextVisible: z.boolean(),
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

/** Every field the three screens edit, as one partial update (the API applies them together). */
export type ProfileEdit = ProfileTextInput & PictureSettingsInput & AppearanceInput;
