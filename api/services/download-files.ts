/**
 * The files Paid download links sell (ADR 231): checked by their bytes like a lead magnet's (a PDF,
 * a ZIP, an MP3 or an image; the declared type and name are never trusted), kept byte for byte (the
 * buyer pays for the creator's file), and stored in DATA_DIR/downloads under a random name with the
 * extension the bytes earned: never under published/, never in the bucket, never at a public URL.
 * Only the download route (a buyer's signed link) reads them.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync, createReadStream, statSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { cleanFileName, sniffLeadFile } from "#core/link-files.ts";
import { DOWNLOAD_FILE_TYPES, PAYMENT_MESSAGES, PAYMENTS, type DownloadFileExt } from "#core/payments.ts";
import type { Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { downloadFiles } from "#db/schema.ts";
import { ApiError } from "../errors.ts";

export type DownloadFileRow = typeof downloadFiles.$inferSelect;

export const downloadsDir = (dataDir: string) => join(dataDir, "downloads");

export const invalidDownload = () => new ApiError("unsupported_media_type", "Invalid file type", { details: { description: PAYMENT_MESSAGES.downloadInvalidType } });
export const downloadTooLarge = () => new ApiError("payload_too_large", "File too large", { details: { description: PAYMENT_MESSAGES.downloadTooLarge } });

/** What the bytes are, or a 4xx: an EPUB is not sold (it is a lead magnet's format only). */
export function checkDownload(bytes: Uint8Array): DownloadFileExt {
  if (bytes.byteLength > PAYMENTS.DOWNLOAD_MAX_BYTES) throw downloadTooLarge();
  const ext = sniffLeadFile(bytes);
  if (!ext || ext === "epub") throw invalidDownload();
  return ext;
}

/** Writes the file (whole, then renamed into place) and its row; if the row fails, the file goes again. */
export function saveDownloadFile(db: Db, dataDir: string, userId: string, bytes: Uint8Array, name: string, now: Date): DownloadFileRow {
  const ext = checkDownload(bytes);
  const dir = downloadsDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = `${randomBytes(16).toString("hex")}.${ext}`;
  const path = join(dir, key);
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, bytes, { mode: 0o600 });
  renameSync(tmp, path);
  const row: DownloadFileRow = { id: newId(), userId, storageKey: key, contentType: DOWNLOAD_FILE_TYPES[ext], bytes: bytes.byteLength, originalName: cleanFileName(name), createdAt: now };
  try {
    db.insert(downloadFiles).values(row).run();
  } catch (err) {
    rmSync(path, { force: true });
    throw err;
  }
  return row;
}

/** The owner's own download file, or undefined (another owner's id is as unknown as a made-up one). */
export function ownDownloadFile(db: Db, userId: string, id: string): DownloadFileRow | undefined {
  return db.select().from(downloadFiles).where(and(eq(downloadFiles.id, id), eq(downloadFiles.userId, userId))).get();
}

/** The stored file's bytes as a stream and its size, or null when it is gone from the disk. */
export function openDownloadFile(dataDir: string, row: DownloadFileRow): { stream: ReturnType<typeof createReadStream>; size: number } | null {
  if (!/^[0-9a-f]{32}\.[a-z0-9]{2,4}$/.test(row.storageKey)) return null;
  const path = join(downloadsDir(dataDir), row.storageKey);
  try {
    const size = statSync(path).size;
    return { stream: createReadStream(path), size };
  } catch {
    return null;
  }
}

/** The name the buyer's download is saved under: the owner's file name, else the link's title with the extension. */
export function downloadName(row: DownloadFileRow, title: string): string {
  const ext = row.storageKey.split(".").pop()!;
  const base = row.originalName ?? (cleanFileName(title) ?? "download");
  return base.toLowerCase().endsWith(`.${ext}`) ? base : `${base}.${ext}`;
}
