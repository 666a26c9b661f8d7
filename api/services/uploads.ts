/**
 * Profile pictures: the server trusts neither the file's name nor its declared type. It reads the
 * first bytes, decodes the whole image with sharp under a pixel cap, and re-encodes it (which drops
 * EXIF, GPS and anything appended to the file) under a random, content-hashed name. Old pictures are
 * removed once neither the draft nor a version the owner can roll back to uses them (ADR 063).
 */
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Metadata } from "sharp";
import { LIMITS } from "#core/limits.ts";
import { PageSnapshotSchema } from "#core/model.ts";
import {
  cropOutputSize,
  INVALID_PICTURE,
  PICTURE_MAX_PIXELS,
  PICTURE_MESSAGES,
  PICTURE_TOO_LARGE,
  sniffImageType,
  type PictureShape,
} from "#core/schemas/profile.ts";
import type { FullwidthSubtype } from "#core/themes.ts";
import { transaction, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { links, pageVersions, uploads, userProfiles } from "#db/schema.ts";
import { MAX_VERSIONS_LISTED } from "#renderer/publish.ts";
import { ApiError } from "../errors.ts";
import type { MediaStorage } from "../storage/media.ts";
import { claimSection } from "./revisions.ts";
import { log } from "../log.ts";

/** sharp's names for the formats an owner may upload (SVG, TIFF, HEIF and the rest are refused). */
const DECODABLE = new Set(["jpeg", "png", "gif", "webp"]);
const OUTPUT_QUALITY = 90;

export const invalidPicture = () => new ApiError("unsupported_media_type", INVALID_PICTURE.title, { details: { description: INVALID_PICTURE.text } });
export const pictureTooLarge = () => new ApiError("payload_too_large", PICTURE_TOO_LARGE.title, { details: { description: PICTURE_TOO_LARGE.text } });

export interface ProcessedPicture {
  bytes: Buffer;
  contentType: "image/jpeg";
  width: number;
  height: number;
}

/** Check and re-encode an uploaded picture to the crop dialog's output size, or throw a 4xx. */
export async function processPicture(input: Uint8Array, shape: PictureShape, fullwidthHeight: FullwidthSubtype = "landscape"): Promise<ProcessedPicture> {
  if (input.byteLength > LIMITS.IMAGE_MAX_BYTES) throw pictureTooLarge();
  const sniffed = sniffImageType(input);
  if (!sniffed) throw invalidPicture();
  const { default: sharp } = await import("sharp");
  const open = () => sharp(input, { limitInputPixels: PICTURE_MAX_PIXELS, failOn: "truncated", animated: false });
  let meta: Metadata;
  try {
    // Only the header is read here, so the pixel limit is lifted to tell a bomb from a broken file;
    // decoding below runs under the limit.
    meta = await sharp(input, { limitInputPixels: false, animated: false }).metadata();
  } catch {
    throw invalidPicture();
  }
  // The bytes must be the format their signature claims: a PNG signature on a JPEG body is a lie.
  if (!meta.format || !DECODABLE.has(meta.format) || `image/${meta.format}` !== sniffed) throw invalidPicture();
  if (!meta.width || !meta.height) throw invalidPicture();
  if (meta.width * meta.height > PICTURE_MAX_PIXELS) {
    throw new ApiError("unprocessable", PICTURE_MESSAGES.tooManyPixels, { details: { description: PICTURE_MESSAGES.tooManyPixelsText } });
  }
  const { width, height } = cropOutputSize(shape, fullwidthHeight);
  try {
    const bytes = await open()
      // Apply the camera's orientation before its metadata is dropped.
      .rotate()
      .resize(width, height, { fit: "cover", position: "centre" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: OUTPUT_QUALITY, mozjpeg: true })
      .toBuffer();
    return { bytes, contentType: "image/jpeg", width, height };
  } catch {
    // Decoding the whole image failed (corrupt or truncated data behind a valid header).
    throw invalidPicture();
  }
}

/** A name nobody can guess and no two uploads share: SHA-256 over random bytes and the content. */
export function mediaKeyFor(bytes: Uint8Array, ext = "jpg"): string {
  const hash = createHash("sha256").update(randomBytes(16)).update(bytes).digest("hex").slice(0, 32);
  return `media/${hash.slice(0, 2)}/${hash}.${ext}`;
}

/**
 * Store the picture and make it the draft's, all or nothing: the file is written first, the rows
 * second; if the rows fail (or the picture section moved on from `base`: 409), the file is removed
 * again. Answers the picture section's new revision.
 */
export async function saveProfilePicture(
  db: Db,
  storage: MediaStorage,
  userId: string,
  picture: ProcessedPicture,
  shape: PictureShape,
  now: Date,
  base: number,
  fullwidthHeight: FullwidthSubtype = "landscape",
): Promise<number> {
  const key = mediaKeyFor(picture.bytes);
  await storage.put(key, picture.bytes, picture.contentType);
  try {
    return transaction(db, (tx) => {
      const revision = claimSection(tx, userId, "picture", base);
      tx.insert(uploads)
        .values({ id: newId(), userId, kind: "profile_picture", storageKey: key, contentType: picture.contentType, bytes: picture.bytes.byteLength, createdAt: now })
        .run();
      tx.update(userProfiles)
        // Each layout keeps its own crop: a full-width picture never replaces the icon, nor the other way.
        .set(
          shape === "full_width"
            ? { profilePictureFullwidthUrl: storage.urlOf(key), profilePictureFullwidthSubtype: fullwidthHeight, profilePictureStyle: shape, updatedAt: now }
            : { profilePictureUrl: storage.urlOf(key), profilePictureStyle: shape, updatedAt: now },
        )
        .where(eq(userProfiles.userId, userId))
        .run();
      return revision;
    });
  } catch (err) {
    await storage.remove(key).catch(() => undefined);
    throw err;
  }
}

/**
 * docs/product.md section 7: on removal the url is cleared, the style goes back to icon, the shape to rounded.
 * Based on the picture revision `base` (409 when it moved on); answers the new one.
 */
export function clearProfilePicture(db: Db, userId: string, now: Date, base: number): number {
  return transaction(db, (tx) => {
    const revision = claimSection(tx, userId, "picture", base);
    tx.update(userProfiles)
      .set({ profilePictureUrl: null, profilePictureFullwidthUrl: null, profilePictureStyle: "icon", profilePictureIconSubtype: "rounded", updatedAt: now })
      .where(eq(userProfiles.userId, userId))
      .run();
    return revision;
  });
}

/** The media URLs one page snapshot shows: its picture, its links' thumbnails, lead-magnet files and download covers. */
function mediaOf(
  snapshot: { profile: { profilePictureUrl: string | null; profilePictureFullwidthUrl: string | null }; links: { thumbnailUrl: string | null; data: { fileUrl?: string | undefined; cover?: string | undefined } }[] },
  into: Set<string>,
): void {
  if (snapshot.profile.profilePictureUrl) into.add(snapshot.profile.profilePictureUrl);
  if (snapshot.profile.profilePictureFullwidthUrl) into.add(snapshot.profile.profilePictureFullwidthUrl);
  for (const l of snapshot.links) {
    if (l.thumbnailUrl) into.add(l.thumbnailUrl);
    if (l.data.fileUrl) into.add(l.data.fileUrl);
    // A Paid download's cover (ADR 231).
    if (l.data.cover) into.add(l.data.cover);
  }
}

/** Media URLs the owner's page may still show: the draft, and every version they can roll back to. */
function mediaInUse(db: Db, userId: string): Set<string> {
  const inUse = new Set<string>();
  const draft = db
    .select({ url: userProfiles.profilePictureUrl, fullwidthUrl: userProfiles.profilePictureFullwidthUrl })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .get();
  const draftLinks = db.select({ thumbnailUrl: links.thumbnailUrl, data: links.linkSpecificData }).from(links).where(eq(links.userId, userId)).all();
  mediaOf({ profile: { profilePictureUrl: draft?.url ?? null, profilePictureFullwidthUrl: draft?.fullwidthUrl ?? null }, links: draftLinks }, inUse);
  const versions = db
    .select({ snapshot: pageVersions.snapshot })
    .from(pageVersions)
    .where(eq(pageVersions.userId, userId))
    .orderBy(desc(pageVersions.version))
    .limit(MAX_VERSIONS_LISTED)
    .all();
  for (const v of versions) {
    const parsed = PageSnapshotSchema.safeParse(v.snapshot);
    if (parsed.success) mediaOf(parsed.data, inUse);
  }
  return inUse;
}

/**
 * A link's file is uploaded before the link is saved (the dialog is still open), so a fresh one that
 * nothing uses yet is kept for a day; after that an abandoned upload goes with the next sweep.
 */
export const UNSAVED_UPLOAD_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Remove the owner's media nothing uses any more. The rows go in one transaction (so the decision
 * is made against one consistent state), then the files; a failed file removal is only logged
 * (docs/product.md section 8) and leaves an unreachable file, never a broken page.
 */
export async function sweepUnusedMedia(db: Db, storage: MediaStorage, userId: string, now: Date): Promise<number> {
  const unused = transaction(db, (tx) => {
    const inUse = mediaInUse(tx, userId);
    const rows = tx
      .select({ id: uploads.id, key: uploads.storageKey, kind: uploads.kind, createdAt: uploads.createdAt })
      .from(uploads)
      .where(eq(uploads.userId, userId))
      .all()
      .filter((r) => !inUse.has(storage.urlOf(r.key)))
      .filter((r) => r.kind === "profile_picture" || now.getTime() - r.createdAt.getTime() >= UNSAVED_UPLOAD_GRACE_MS);
    if (rows.length) tx.delete(uploads).where(and(eq(uploads.userId, userId), inArray(uploads.id, rows.map((r) => r.id)))).run();
    return rows;
  });
  for (const r of unused) {
    try {
      await storage.remove(r.key);
    } catch (err) {
      log().warn({ err, key: r.key }, "Could not remove unused media");
    }
  }
  return unused.length;
}
