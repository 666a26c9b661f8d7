/**
 * The backup archive (ADR 006): a gzip-compressed tar holding manifest.json first, then plinth.db
 * (an online snapshot taken with SQLite's backup API), every file of PUBLISHED_DIR/media and every
 * file sold as a paid download (DATA_DIR/downloads, as downloads/<name>, ADR 238). The
 * manifest describes the rest (format version, when, the Plinth version, the database migration,
 * each file's size and SHA-256), so an archive is checked completely before anything is restored.
 */
import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { Parser, type ReadEntry } from "tar";
import { z } from "zod";
import { isMediaKey } from "#api/storage/media.ts";
import { LEAD_FILE_MAX_BYTES } from "#core/link-files.ts";
import { LIMITS } from "#core/limits.ts";
import { PAYMENTS } from "#core/payments.ts";
import { MIGRATIONS_FOLDER } from "#db/client.ts";
import { OperatorError } from "./operator-error.ts";

export const FORMAT = "plinth-backup";
/** Raised when the archive layout or the manifest changes; restore refuses a newer one. 2: downloads/. */
export const FORMAT_VERSION = 2;
export const MANIFEST_FILE = "manifest.json";
export const DATABASE_FILE = "plinth.db";
/** The manifest of a backup with a million pictures is about 130 MB; anything larger is not ours. */
const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;
/** No upload is larger than the largest file an owner may upload (a lead magnet's download), so no media file of a backup is. */
export const MEDIA_FILE_MAX_BYTES = Math.max(LEAD_FILE_MAX_BYTES, LIMITS.IMAGE_MAX_BYTES);
/** A paid download's file, in the archive: downloads/<32 hex>.<ext>, as DATA_DIR/downloads names it. */
export const DOWNLOADS_FOLDER = "downloads";
export const isDownloadKey = (path: string) => /^downloads\/[0-9a-f]{32}\.[a-z0-9]{2,4}$/.test(path);
/** The largest file an archive may hold at a path: a paid download's limit, or an upload's. */
const maxBytesOf = (path: string) => (isDownloadKey(path) ? PAYMENTS.DOWNLOAD_MAX_BYTES : MEDIA_FILE_MAX_BYTES);

/** What a restore may write: the free space of DATA_DIR's and PUBLISHED_DIR's file systems. */
export interface ArchiveRoom {
  databaseBytes: number;
  mediaBytes: number;
  /** Both folders are on one file system: the database and the media share this room. */
  totalBytes: number;
}

const megabytes = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${bytes} bytes`);

/**
 * The sizes the manifest lists, checked before a byte is written: no media file is larger than an
 * upload can be, and what the archive would write fits where it goes. The bytes of each file are
 * then held to its listed size as they are read (readArchive), so a small archive that unpacks to
 * gigabytes is refused before it fills a disk.
 */
function checkSizes(manifest: Manifest, archive: string, room?: ArchiveRoom): void {
  const oversized = manifest.files.find((f) => f.path !== DATABASE_FILE && f.bytes > maxBytesOf(f.path));
  if (oversized) {
    throw new OperatorError(
      `${archive} lists ${oversized.path} at ${megabytes(oversized.bytes)}, larger than any upload can be (${megabytes(maxBytesOf(oversized.path))}): it is not a backup Plinth wrote. Nothing was restored.`,
    );
  }
  if (!room) return;
  // The database and the sold files go to DATA_DIR, the media to PUBLISHED_DIR.
  const toData = (path: string) => path === DATABASE_FILE || isDownloadKey(path);
  const database = manifest.files.reduce((sum, f) => sum + (toData(f.path) ? f.bytes : 0), 0);
  const media = manifest.files.reduce((sum, f) => sum + (toData(f.path) ? 0 : f.bytes), 0);
  const over =
    database > room.databaseBytes ? `the database needs ${megabytes(database)} and DATA_DIR has ${megabytes(room.databaseBytes)} free`
    : media > room.mediaBytes ? `the media need ${megabytes(media)} and PUBLISHED_DIR has ${megabytes(room.mediaBytes)} free`
    : database + media > room.totalBytes ? `it needs ${megabytes(database + media)} and the disk has ${megabytes(room.totalBytes)} free`
    : null;
  if (over) throw new OperatorError(`${archive} does not fit: ${over}. Free some space, then restore. Nothing was restored.`);
}

const FileSchema = z.object({
  path: z.string().refine((p) => p === DATABASE_FILE || isMediaKey(p) || isDownloadKey(p), "is neither the database, a media file nor a sold file"),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const ManifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.union([z.literal(1), z.literal(FORMAT_VERSION)]),
  createdAt: z.iso.datetime(),
  plinthVersion: z.string().min(1),
  /** The last database migration applied to the snapshot (a tag of db/migrations/meta/_journal.json). */
  migration: z.string().min(1),
  /** `downloads` since format 2: a format-1 archive holds none. */
  counts: z.object({ media: z.number().int().nonnegative(), downloads: z.number().int().nonnegative().default(0) }),
  files: z
    .array(FileSchema)
    .refine((files) => files.filter((f) => f.path === DATABASE_FILE).length === 1, `must hold ${DATABASE_FILE} once`)
    .refine((files) => new Set(files.map((f) => f.path)).size === files.length, "names a file twice"),
});

export type Manifest = z.output<typeof ManifestSchema>;
export type ManifestFile = z.output<typeof FileSchema>;

/** The migrations this Plinth knows, oldest first: tag and the timestamp drizzle records for it. */
export function knownMigrations(): { tag: string; when: number }[] {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: { tag: string; when: number }[] };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function parseManifest(text: string, archive: string): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new OperatorError(`${archive} is not a Plinth backup: its manifest is not JSON.`);
  }
  const head = z.object({ format: z.literal(FORMAT), version: z.number().int() }).safeParse(raw);
  if (!head.success) throw new OperatorError(`${archive} is not a Plinth backup: its manifest names no backup format.`);
  if (head.data.version > FORMAT_VERSION) {
    throw new OperatorError(`${archive} was written by a newer Plinth (backup format ${head.data.version}; this one reads ${FORMAT_VERSION}). Upgrade Plinth to restore it.`);
  }
  const full = ManifestSchema.safeParse(raw);
  if (!full.success) {
    const issue = full.error.issues[0]!;
    throw new OperatorError(`${archive} has a damaged manifest (${issue.path.join(".") || "manifest"}: ${issue.message}).`);
  }
  return full.data;
}

/**
 * Reads the whole archive and checks it against its manifest: the manifest comes first, every file
 * it lists is there once with its size and SHA-256, and nothing else is (no links, folders or other
 * names). With `open`, each file's bytes are also written where it says, as they are checked; the
 * promise settles once every one of those is closed. Rejects with an OperatorError naming the
 * first problem, and the archive as `archive` (the file the operator named, when `path` is its
 * decrypted copy).
 */
export function readArchive(path: string, open?: (file: ManifestFile) => Writable, room?: ArchiveRoom, archive: string = path): Promise<Manifest> {
  return new Promise((resolve, reject) => {
    let manifest: Manifest | undefined;
    let listed = new Map<string, ManifestFile>();
    let failure: OperatorError | undefined;
    let settled = false;
    const seen = new Set<string>();
    const outs: Writable[] = [];
    const writes: Promise<void>[] = [];
    const input = createReadStream(path);
    const parser = new Parser({ strict: true, onReadEntry: (entry) => onEntry(entry) });

    const fail = (message: string) => {
      failure ??= new OperatorError(message);
      parser.abort(failure);
    };
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      input.destroy();
      if (failure || err) {
        const error = failure ?? damaged(err);
        // Files being written stop where they are; the caller removes them.
        for (const out of outs) out.destroy();
        void Promise.allSettled(writes).then(() => reject(error));
        return;
      }
      const read = manifest;
      if (!read) return reject(new OperatorError(`${archive} is not a Plinth backup: it holds no manifest.`));
      const missing = read.files.find((f) => !seen.has(f.path));
      if (missing) return reject(new OperatorError(`${archive} is incomplete: ${missing.path} is missing. Nothing was restored.`));
      Promise.all(writes).then(() => resolve(read), reject);
    };
    const damaged = (err: unknown) => {
      const code = err instanceof Error && "code" in err ? String(err.code) : "";
      const reason = err instanceof Error ? err.message.replace(/^(TAR_\w+: |zlib: )/, "") : String(err);
      if (code === "ENOENT" || code === "EISDIR" || code === "EACCES") return new OperatorError(`Cannot read ${archive}: ${reason}`);
      // A compressed stream that breaks off or fails its check is an archive cut short or altered;
      // anything that is no tar before a manifest was read is not a backup at all.
      if (!manifest && !code.startsWith("Z_")) return new OperatorError(`${archive} is not a Plinth backup (not a tar archive: ${reason}).`);
      return new OperatorError(`${archive} is damaged or incomplete (${reason}). Nothing was restored.`);
    };

    function onEntry(entry: ReadEntry): void {
      if (failure) return void entry.resume();
      if (!manifest) {
        if (entry.path !== MANIFEST_FILE || entry.type !== "File") return fail(`${archive} is not a Plinth backup: it does not start with ${MANIFEST_FILE}.`);
        if (entry.size > MANIFEST_MAX_BYTES) return fail(`${archive} is not a Plinth backup: its manifest is too large.`);
        const chunks: Buffer[] = [];
        entry.on("data", (c: Buffer) => chunks.push(c));
        entry.on("end", () => {
          try {
            manifest = parseManifest(Buffer.concat(chunks).toString("utf8"), archive);
            checkSizes(manifest, archive, room);
            listed = new Map(manifest.files.map((f) => [f.path, f]));
          } catch (err) {
            fail((err as Error).message);
          }
        });
        return;
      }
      const file = listed.get(entry.path);
      if (entry.type !== "File") return fail(`${archive} holds ${entry.path}, which is not a plain file (${entry.type}).`);
      if (!file) return fail(`${archive} holds ${entry.path}, which its manifest does not list.`);
      if (seen.has(file.path)) return fail(`${archive} holds ${file.path} twice.`);
      seen.add(file.path);
      // The tar header says how many bytes follow: more (or fewer) than listed is refused before any is written.
      if (entry.size !== file.bytes) return fail(`${archive} is damaged: ${file.path} holds ${entry.size} bytes where its manifest lists ${file.bytes}. Nothing was restored.`);
      const hash = createHash("sha256");
      let bytes = 0;
      const out = open?.(file);
      if (out) {
        outs.push(out);
        writes.push(new Promise((done, failed) => out.on("close", done).on("error", failed)));
        out.on("error", (err) => fail(`Could not write ${file.path}: ${err.message}`));
      }
      entry.on("data", (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
        if (out && !out.write(chunk)) {
          entry.pause();
          out.once("drain", () => entry.resume());
        }
      });
      entry.on("end", () => {
        out?.end();
        if (bytes !== file.bytes || hash.digest("hex") !== file.sha256) fail(`${archive} is damaged: ${file.path} does not match its checksum. Nothing was restored.`);
      });
    }

    input.on("error", (err) => settle(err));
    parser.on("error", (err: Error) => settle(err));
    parser.on("end", () => settle());
    input.pipe(parser);
  });
}
