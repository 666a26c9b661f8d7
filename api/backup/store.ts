/**
 * Where scheduled backups are kept (ADR 160): a folder (BACKUP_DIR, best a mounted share off the
 * machine) or a bucket under a key prefix (BACKUP_TARGET=s3 with the S3_* values). Each archive is
 * named by the instant of its period, so the names sort by age, and a name is never reused.
 */
import { chmodSync, copyFileSync, createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import { fsyncDir } from "#renderer/atomic-write.ts";
import { listObjects, s3Sdk } from "#renderer/bucket-target.ts";

const require = createRequire(import.meta.url);

export interface BackupStore {
  /** Where it is, for the operator: the folder's path or s3://bucket/prefix. */
  readonly where: string;
  /** Stores the local file under `name` (a new name). */
  put(file: string, name: string): Promise<void>;
  /** The names stored (every name, the caller picks its own). */
  list(): Promise<string[]>;
  remove(name: string): Promise<void>;
}

/** A scheduled backup's name: `plinth-2026-11-28T06-00-00Z.tar.gz`, `.failed` before `.tar.gz` when its verification failed, `.age` after when encrypted. */
export function backupName(at: Date, opts: { failed?: boolean; encrypted?: boolean } = {}): string {
  const stamp = at.toISOString().replace(/\.\d{3}Z$/, "Z").replaceAll(":", "-");
  return `plinth-${stamp}${opts.failed ? ".failed" : ""}.tar.gz${opts.encrypted ? ".age" : ""}`;
}

const NAME = /^plinth-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ)(\.failed)?\.tar\.gz(\.age)?$/;

/** A stored name read back: its instant and whether it failed its verification; null for other files. */
export function parseBackupName(name: string): { at: Date; failed: boolean } | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [date, time] = m[1]!.split("T") as [string, string];
  const at = new Date(`${date}T${time.replaceAll("-", ":")}`);
  return Number.isNaN(at.getTime()) ? null : { at, failed: m[2] !== undefined };
}

export function folderStore(dir: string): BackupStore {
  return {
    where: dir,
    async put(file, name) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const target = join(dir, name);
      if (existsSync(target)) throw new Error(`${target} already exists`);
      // Copied under a dot name and renamed: a reader of the folder never sees half an archive.
      const partial = join(dir, `.${name}.partial`);
      try {
        copyFileSync(file, partial);
        chmodSync(partial, 0o600);
        renameSync(partial, target);
      } finally {
        rmSync(partial, { force: true });
      }
      fsyncDir(dir);
    },
    async list() {
      return existsSync(dir) ? readdirSync(dir).filter((n) => !n.startsWith(".")) : [];
    },
    async remove(name) {
      rmSync(join(dir, name), { force: true });
    },
  };
}

export function bucketStore(client: S3Client, bucket: string, prefix: string): BackupStore {
  return {
    where: `s3://${bucket}/${prefix}`,
    async put(file, name) {
      // In parts of 8 MB (a multipart upload for a large archive, one PUT for a small one): the
      // bucket shows the object only once every part has arrived, and an archive may be any size.
      // Loaded with the S3 SDK, on the first bucket backup (ADR 253).
      const { Upload } = require("@aws-sdk/lib-storage") as typeof import("@aws-sdk/lib-storage");
      await new Upload({ client, params: { Bucket: bucket, Key: prefix + name, Body: createReadStream(file), ContentType: "application/octet-stream" }, partSize: 8 * 1024 * 1024, queueSize: 2 }).done();
    },
    async list() {
      return (await listObjects(client, bucket, prefix)).map((o) => o.key.slice(prefix.length)).filter((n) => !n.includes("/"));
    },
    async remove(name) {
      await client.send(new (s3Sdk().DeleteObjectCommand)({ Bucket: bucket, Key: prefix + name }));
    },
  };
}
