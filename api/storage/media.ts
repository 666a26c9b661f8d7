/**
 * Where uploaded media lives. The embedded default is a folder inside PUBLISHED_DIR (media/…), so the
 * static host that serves the published pages serves the pictures too, with no extra configuration.
 * A bucket (S3-compatible) replaces it by implementing the same three calls.
 */
import { rm } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { writeFileAtomic } from "#renderer/atomic-write.ts";
import { throughTarget, type PublishTarget } from "#renderer/publish-target.ts";

export interface MediaStorage {
  /** Store the bytes under the key, all or nothing; the key is new (content-hashed and random). */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Remove the object; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** The URL pages use for the key: a root-relative path for the local folder, absolute for a bucket. */
  urlOf(key: string): string;
}

/** Keys look like "media/ab/abcdef….jpg": lowercase hex folders and names, nothing a path could escape with. */
const KEY = /^media\/[0-9a-f]{2}\/[0-9a-f]{32}\.(jpg|png|gif|webp|pdf|epub|zip|mp3)$/;

export function isMediaKey(key: string): boolean {
  return KEY.test(key);
}

export function localMediaStorage(rootDir: string): MediaStorage {
  const root = resolve(rootDir);
  const pathOf = (key: string) => {
    if (!isMediaKey(key)) throw new Error(`Not a media key: ${key}`);
    const path = resolve(join(root, key));
    if (!path.startsWith(root + sep)) throw new Error(`Media key escapes the folder: ${key}`);
    return path;
  };
  return {
    async put(key, bytes) {
      writeFileAtomic(pathOf(key), bytes);
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    urlOf(key) {
      pathOf(key);
      return `/${key}`;
    },
  };
}

/**
 * The storage the product uses: the folder, which the server reads for the dashboard, mirrored to
 * the publish target, so that with a bucket (ADR 129) visitors get every upload from there. An upload
 * the bucket refuses leaves the folder too (its writer removes it), so it is stored everywhere or
 * nowhere.
 */
export function mediaStorageFor(env: { PUBLISHED_DIR: string }, target: PublishTarget): MediaStorage {
  const local = localMediaStorage(env.PUBLISHED_DIR);
  const pathOf = (key: string) => join(resolve(env.PUBLISHED_DIR), key);
  return {
    async put(key, bytes, contentType) {
      await local.put(key, bytes, contentType);
      await throughTarget(target, (writer) => writer.putFiles([pathOf(key)]));
    },
    async remove(key) {
      await throughTarget(target, (writer) => writer.removeFiles([pathOf(key)]));
      await local.remove(key);
    },
    urlOf: local.urlOf,
  };
}
