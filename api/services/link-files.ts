/**
 * Files uploaded from the link dialog (ADR 067). A thumbnail is decoded and re-encoded like a
 * profile picture, at the size the page draws it. A lead-magnet download keeps its bytes (an e-book
 * must stay the owner's e-book) but only after its bytes prove it is one of the allowed types; images
 * among them are re-encoded in their own format so camera metadata does not leak to every visitor.
 * Either way the file is stored under a random content-hashed name with the extension its bytes
 * earned, so a static host serves it with a harmless type.
 */
import type { Metadata } from "sharp";
import { LEAD_FILE_TYPES, THUMBNAIL_PX, cleanFileName, invalidTypeFor, maxBytesFor, sniffLeadFile, tooLargeFor, type LinkFileKind } from "#core/schemas/link-files.ts";
import { PICTURE_MAX_PIXELS, PICTURE_MESSAGES, sniffImageType } from "#core/schemas/profile.ts";
import { type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { uploads } from "#db/schema.ts";
import { ApiError } from "../errors.ts";
import type { MediaStorage } from "../storage/media.ts";
import { mediaKeyFor } from "./uploads.ts";

export const invalidLinkFile = (kind: LinkFileKind) => {
  const m = invalidTypeFor(kind);
  return new ApiError("unsupported_media_type", m.title, { details: { description: m.text } });
};
export const linkFileTooLarge = (kind: LinkFileKind) => {
  const m = tooLargeFor(kind);
  return new ApiError("payload_too_large", m.title, { details: { description: m.text } });
};

export interface ProcessedLinkFile {
  bytes: Uint8Array;
  ext: keyof typeof LEAD_FILE_TYPES;
  contentType: string;
}

/** Decode under the pixel cap and re-encode; a lie, a bomb or a broken image is a 4xx. */
async function reencodeImage(input: Uint8Array, kind: LinkFileKind, format: "jpeg" | "png" | "gif" | "webp", resize: boolean): Promise<Uint8Array> {
  const { default: sharp } = await import("sharp");
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false, animated: false }).metadata();
  } catch {
    throw invalidLinkFile(kind);
  }
  if (meta.format !== format || !meta.width || !meta.height) throw invalidLinkFile(kind);
  if (meta.width * meta.height > PICTURE_MAX_PIXELS) {
    throw new ApiError("unprocessable", PICTURE_MESSAGES.tooManyPixels, { details: { description: PICTURE_MESSAGES.tooManyPixelsText } });
  }
  try {
    let img = sharp(input, { limitInputPixels: PICTURE_MAX_PIXELS, failOn: "truncated", animated: !resize && format !== "jpeg" }).rotate();
    if (resize) return await img.resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: "cover" }).flatten({ background: "#ffffff" }).jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    img = format === "jpeg" ? img.jpeg({ quality: 92, mozjpeg: true }) : format === "png" ? img.png() : format === "gif" ? img.gif() : img.webp({ quality: 92 });
    return await img.toBuffer();
  } catch {
    throw invalidLinkFile(kind);
  }
}

export async function processLinkFile(input: Uint8Array, kind: LinkFileKind): Promise<ProcessedLinkFile> {
  if (input.byteLength > maxBytesFor(kind)) throw linkFileTooLarge(kind);
  if (kind === "thumbnail") {
    if (!sniffImageType(input)) throw invalidLinkFile(kind);
    const format = sharpFormatOf(sniffImageType(input)!);
    return { bytes: await reencodeImage(input, kind, format, true), ext: "jpg", contentType: "image/jpeg" };
  }
  const ext = sniffLeadFile(input);
  if (!ext) throw invalidLinkFile(kind);
  const image = sniffImageType(input);
  const bytes = image ? await reencodeImage(input, kind, sharpFormatOf(image), false) : input;
  return { bytes, ext, contentType: LEAD_FILE_TYPES[ext] };
}

function sharpFormatOf(mime: string): "jpeg" | "png" | "gif" | "webp" {
  return mime === "image/jpeg" ? "jpeg" : mime === "image/png" ? "png" : mime === "image/gif" ? "gif" : "webp";
}

/**
 * Store the file and record whose it is, with the name it had on the owner's device (cleaned, to name
 * it back to them; never a path); if the row fails, the file goes again. Returns its URL.
 */
export async function saveLinkFile(db: Db, storage: MediaStorage, userId: string, kind: LinkFileKind, file: ProcessedLinkFile, now: Date, name = ""): Promise<string> {
  const key = mediaKeyFor(file.bytes, file.ext);
  await storage.put(key, file.bytes, file.contentType);
  try {
    db.insert(uploads)
      .values({ id: newId(), userId, kind, storageKey: key, contentType: file.contentType, bytes: file.bytes.byteLength, originalName: cleanFileName(name), createdAt: now })
      .run();
  } catch (err) {
    await storage.remove(key).catch(() => undefined);
    throw err;
  }
  return storage.urlOf(key);
}
