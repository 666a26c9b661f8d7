/**
 * Files an owner uploads from the link dialog (ADR 067): kinds, sizes, types and their messages,
 * without zod, so the Links screen checks a chosen file without loading the validation library;
 * schemas/link-files.ts holds the upload form's schema and re-exports these.
 */
import { LIMITS } from "./limits.ts";
import { IMAGE_MIME_TYPES, sniffImageType } from "./profile.ts";

export const LINK_FILE_KINDS = ["lead_magnet", "thumbnail"] as const;
export type LinkFileKind = (typeof LINK_FILE_KINDS)[number];

/** The largest lead-magnet download: an e-book or a small bundle, not a video course. */
export const LEAD_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** Thumbnails are drawn at 32 px; 96 px covers a 3x screen. */
export const THUMBNAIL_PX = 96;

export const LINK_FILE_MESSAGES = {
  invalidType: "Invalid file type",
  leadInvalidTypeText: "Please select a PDF, EPUB, ZIP, MP3 or image file (JPG, PNG, GIF, WEBP)",
  thumbnailInvalidTypeText: "Please select a valid image file (JPG, PNG, GIF)",
  tooLarge: "File too large",
  leadTooLargeText: "Please select a file smaller than 10MB",
  thumbnailTooLargeText: "Please select an image smaller than 2MB",
  uploadFailed: "Failed to upload file",
  leadUploaded: "File uploaded",
  thumbnailUploaded: "Thumbnail uploaded",
} as const;

export function maxBytesFor(kind: LinkFileKind): number {
  return kind === "lead_magnet" ? LEAD_FILE_MAX_BYTES : LIMITS.IMAGE_MAX_BYTES;
}

export function invalidTypeFor(kind: LinkFileKind): { title: string; text: string } {
  return { title: LINK_FILE_MESSAGES.invalidType, text: kind === "lead_magnet" ? LINK_FILE_MESSAGES.leadInvalidTypeText : LINK_FILE_MESSAGES.thumbnailInvalidTypeText };
}

export function tooLargeFor(kind: LinkFileKind): { title: string; text: string } {
  return { title: LINK_FILE_MESSAGES.tooLarge, text: kind === "lead_magnet" ? LINK_FILE_MESSAGES.leadTooLargeText : LINK_FILE_MESSAGES.thumbnailTooLargeText };
}

/** The download types a lead magnet may be, by the extension it is stored under. */
export const LEAD_FILE_TYPES = {
  pdf: "application/pdf",
  epub: "application/epub+zip",
  zip: "application/zip",
  mp3: "audio/mpeg",
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
} as const;
export type LeadFileExt = keyof typeof LEAD_FILE_TYPES;

const IMAGE_EXT: Record<(typeof IMAGE_MIME_TYPES)[number], LeadFileExt> = { "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp" };

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, Math.min(to, b.length)));

/** Does the tail of a ZIP hold its end-of-central-directory record (so the archive is whole)? */
function zipIsComplete(b: Uint8Array): boolean {
  const from = Math.max(0, b.length - 65_557);
  for (let i = b.length - 22; i >= from; i--) {
    if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 0x05 && b[i + 3] === 0x06) return true;
  }
  return false;
}

/**
 * What a lead-magnet file is, from its bytes alone: the name and declared type a browser sends are
 * never trusted. Anything else (HTML, SVG, scripts, executables, a truncated archive) is null.
 */
export function sniffLeadFile(b: Uint8Array): LeadFileExt | null {
  const image = sniffImageType(b);
  if (image) return IMAGE_EXT[image];
  if (b.length >= 8 && ascii(b, 0, 5) === "%PDF-") {
    // A PDF ends with %%EOF (possibly followed by a line break or a little padding).
    return ascii(b, b.length - 1024, b.length).includes("%%EOF") ? "pdf" : null;
  }
  if (b.length >= 30 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) {
    if (!zipIsComplete(b)) return null;
    // An EPUB is a ZIP whose first entry is the uncompressed file "mimetype".
    return ascii(b, 30, 58) === "mimetypeapplication/epub+zip" ? "epub" : "zip";
  }
  if (b.length >= 4 && ascii(b, 0, 3) === "ID3") return "mp3";
  // A bare MPEG audio frame: 11 sync bits, MPEG-1/2 layer III.
  if (b.length >= 4 && b[0] === 0xff && ((b[1] ?? 0) & 0xe6) === 0xe2) return "mp3";
  return null;
}

/** The browser-side check before uploading; the server checks the bytes themselves. */
export function linkFileError(kind: LinkFileKind, file: { type: string; size: number }): { title: string; text: string } | null {
  const allowed: readonly string[] = kind === "lead_magnet" ? [...Object.values(LEAD_FILE_TYPES), "application/x-zip-compressed", "audio/mp3"] : IMAGE_MIME_TYPES;
  // Some systems send no type for .epub or .mp3; the server decides from the bytes then.
  if (file.type !== "" && !allowed.includes(file.type)) return invalidTypeFor(kind);
  if (kind === "thumbnail" && file.type === "") return invalidTypeFor(kind);
  if (file.size > maxBytesFor(kind)) return tooLargeFor(kind);
  return null;
}

/** The longest file name kept for naming an upload back to its owner. */
export const FILE_NAME_MAX = 120;

/**
 * The name an uploaded file had on the owner's device, fit to show back to them ("guide.pdf"), or
 * null when nothing usable is left. Only its last path segment is kept (browsers send no folders,
 * a forged request might); control, invisible and reordering characters go; spaces are collapsed;
 * leading dots go (no "..", no hidden names); it is cut to FILE_NAME_MAX characters, keeping a
 * short extension. It only ever names the file: the stored file's path is its content hash.
 */
export function cleanFileName(raw: string): string | null {
  const base = raw.split(/[/\\]/).pop() ?? "";
  const name = base
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .replace(/[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g, "")
    .trim()
    .replace(/^\.+/, "")
    .trim();
  if (!name) return null;
  const chars = [...name];
  if (chars.length <= FILE_NAME_MAX) return name;
  const ext = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? "";
  return chars.slice(0, FILE_NAME_MAX - ext.length - 1).join("").trimEnd() + "…" + ext;
}
