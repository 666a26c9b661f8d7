/**
 * The profile's texts and rules (docs/product.md sections 3, 4 and 5): messages, picture shapes and files, free
 * themes, the search preview and the Plus-only features of an edit, without zod, so the dashboard's
 * screens can use them without loading the validation library; schemas/profile.ts holds the schemas
 * and re-exports these.
 */
import { LIMITS } from "./limits.ts";
import type { FeatureKey } from "./plans.ts";
import { FREE_THEME_IDS, type FullwidthSubtype } from "./themes.ts";
import type { ProfileEdit } from "./schemas/profile.ts";

/** How deep lists and quotes of long-form text may nest (ADR 148); the page draws 8 levels, deeper ones as text. */
export const LONG_FORM_NESTING_MAX = 30;
/** How many list items long-form text may hold in all (ADR 148): the parser's cost grows faster than their number. */
export const LONG_FORM_LIST_ITEMS_MAX = 200;

/** A list marker (or a quote's `>`) at the start of a line or after another one, with the spaces before it. */
const CONTAINER_MARKER = /[ \t]*(?:(>)|(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|$))/y;

/**
 * At least how many list items the text holds: every list marker that starts a line, or follows
 * another marker or a quote's `>` there. A marker the parser would read as something else (a
 * thematic break `* * *`) counts too, so this is an upper bound; one pass, no parse.
 */
export function longFormListItems(text: string): number {
  let items = 0;
  for (const line of text.split("\n")) {
    CONTAINER_MARKER.lastIndex = 0;
    for (let m = CONTAINER_MARKER.exec(line); m && m[0] !== ""; m = CONTAINER_MARKER.exec(line)) if (!m[1]) items++;
  }
  return items;
}

export const PROFILE_MESSAGES = {
  displayNameTooLong: `Display name must be ${LIMITS.DISPLAY_NAME_MAX} characters or less`,
  bioTooLong: `Bio must be ${LIMITS.BIO_MAX} characters or less`,
  seoTitleTooLong: `SEO title must be ${LIMITS.SEO_TITLE_MAX} characters or less`,
  seoDescriptionTooLong: `Meta description must be ${LIMITS.SEO_DESCRIPTION_MAX} characters or less`,
  longFormTextTooLong: `Text must be ${LIMITS.LONG_FORM_TEXT_MAX} characters or less`,
  longFormTooDeep: `Lists and quotes can be nested at most ${LONG_FORM_NESTING_MAX} levels deep`,
  longFormTooManyItems: `Lists can hold at most ${LONG_FORM_LIST_ITEMS_MAX} items in all`,
  initialsInvalid: `Initials can be at most ${LIMITS.INITIALS_MAX} letters`,
  colorInvalid: "Please enter a valid hex colour, like #3b82f6",
  themeInvalid: "Please choose a theme",
  fontInvalid: "Please choose a font pairing",
  /** Our choice: what the Bio & SEO and Theme screens say after a save or a failed one. */
  saved: "Saved to your draft",
  savedText: "Publish to make your changes live.",
  saveFailed: "Failed to save changes",
  loadFailed: "Failed to load your profile",
} as const;

/**
 * Decompression bombs: a 2 MB file can declare a 50,000 x 50,000 image that would need gigabytes to
 * decode. The crop dialog sends at most 800 x 450; 25 megapixels still admits any camera photo a
 * hand-made request could send, and costs at most about 100 MB to decode.
 */
export const PICTURE_MAX_PIXELS = 25_000_000;

/** docs/product.md sections 5 and 8, Profile picture: the title and description of each refusal. */
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
  /** Our choice: the upload's success toast. */
  uploaded: "Profile picture updated",
  /** Our choice: an image whose pixel count is over PICTURE_MAX_PIXELS (a decompression bomb). */
  tooManyPixels: "Image too large",
  tooManyPixelsText: `Please select an image of at most ${PICTURE_MAX_PIXELS / 1_000_000} megapixels`,
} as const;

/**
 * What the crop dialog produces: a square icon, or a full-width picture 800 px wide at its own
 * height's aspect (portrait 3:4, square, landscape 16:9). Each layout keeps its own crop.
 */
export const PICTURE_SHAPES = ["icon", "full_width"] as const;
export type PictureShape = (typeof PICTURE_SHAPES)[number];

/** Width over height of a full-width picture of each height (portrait tall, square medium, landscape short). */
export const FULLWIDTH_ASPECTS: Record<FullwidthSubtype, number> = { portrait: 3 / 4, square: 1, landscape: 16 / 9 };

/** The crop's size in pixels; a full-width crop without a height is docs/product.md's 16:9. */
export function cropOutputSize(shape: PictureShape, height: FullwidthSubtype = "landscape"): { width: number; height: number } {
  if (shape === "full_width") return { width: LIMITS.CROP_OUTPUT_WIDE_PX, height: Math.round(LIMITS.CROP_OUTPUT_WIDE_PX / FULLWIDTH_ASPECTS[height]) };
  return { width: LIMITS.CROP_OUTPUT_PROFILE_PX, height: LIMITS.CROP_OUTPUT_PROFILE_PX };
}

/** The image types an owner may upload (SVG never: it can carry script). */
export const IMAGE_MIME_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;

/**
 * The image type the first bytes say, whatever the file's name or declared type claim. The browser
 * checks this before cropping; the server checks it again and then decodes the whole file.
 */
export function sniffImageType(b: Uint8Array): (typeof IMAGE_MIME_TYPES)[number] | null {
  const at = (i: number, ...bytes: number[]) => bytes.every((v, k) => b[i + k] === v);
  if (b.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (b.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (b.length >= 6 && (at(0, 0x47, 0x49, 0x46, 0x38, 0x37, 0x61) || at(0, 0x47, 0x49, 0x46, 0x38, 0x39, 0x61))) return "image/gif";
  if (b.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return null;
}

export const INVALID_PICTURE = { title: PICTURE_MESSAGES.invalidType, text: PICTURE_MESSAGES.invalidTypeText } as const;
export const PICTURE_TOO_LARGE = { title: PICTURE_MESSAGES.tooLarge, text: PICTURE_MESSAGES.tooLargeText } as const;

/** The browser-side check before cropping; the server checks the bytes themselves. */
export function pictureFileError(file: { type: string; size: number }): { title: string; text: string } | null {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
    return INVALID_PICTURE;
  }
  if (file.size > LIMITS.IMAGE_MAX_BYTES) return PICTURE_TOO_LARGE;
  return null;
}

type ProfileValues = { [K in keyof Required<ProfileEdit>]: Exclude<ProfileEdit[K], undefined> };

/**
 * The Plus-only feature an edit would newly use, or null. A value already stored stays allowed (an
 * owner whose trial ended can still edit around it; publishing is where it is blocked), and clearing
 * a Plus-only value is always allowed. The API refuses the edit for a Lite owner with 402 and this
 * key; the editor uses it to show the choice in the preview with the upgrade note instead.
 */
export function plusOnlyFeatureOf(edit: ProfileEdit, current: Pick<ProfileValues, "seoTitle" | "seoDescription" | "longFormText" | "selectedThemeName" | "customFontPairingName" | "removeBranding" | "hidePlatformBranding">): FeatureKey | null {
  const newText = (v: string | undefined, was: string) => v !== undefined && v.trim() !== "" && v !== was;
  if (newText(edit.seoTitle, current.seoTitle) || newText(edit.seoDescription, current.seoDescription)) return "seo_settings";
  if (newText(edit.longFormText, current.longFormText)) return "long_form_text";
  if (edit.selectedThemeName && edit.selectedThemeName !== current.selectedThemeName && !isFreeTheme(edit.selectedThemeName)) return "premium_themes";
  if (edit.customFontPairingName && edit.customFontPairingName !== current.customFontPairingName) return "custom_fonts";
  if ((edit.removeBranding && !current.removeBranding) || (edit.hidePlatformBranding && !current.hidePlatformBranding)) return "remove_branding";
  return null;
}

export function isFreeTheme(id: string): boolean {
  return (FREE_THEME_IDS as readonly string[]).includes(id);
}

/** What a search result shows for a page: the same rule renders the page's <title> and description. */
export function searchResultOf(p: { username: string; displayName: string; bio: string; seoTitle: string; seoDescription: string }, plus: boolean): { title: string; description: string } {
  const name = p.displayName || p.username;
  return {
    title: (plus && p.seoTitle) || name,
    description: (plus && p.seoDescription) || p.bio || `${name} on Plinth`,
  };
}
