/**
 * What the publish target must drop when an account is deleted. The folder was emptied with the
 * rows; a bucket (ADR 129) drops the page's keys and the owner's uploads and takes the sitemap
 * without the page; either way the page's CDN purge follows (ADR 133). Queued in the transaction
 * that deletes the account and run at once; a bucket that refuses is retried by the queue's
 * backoff, so nothing of a deleted account stays readable for long. The files the owner sold
 * (DATA_DIR/downloads, never on the target) are removed first, by their checked names (ADR 238).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { userProfiles } from "#db/schema.ts";
import { throughTarget } from "#renderer/publish-target.ts";
import { seoFilesOnDisk, writeSeoFiles } from "#renderer/seo-files.ts";
import type { AppDeps } from "../context.ts";
import { pagesOrigin } from "../env.server.ts";
import { isMediaKey } from "../storage/media.ts";
import { downloadsDir } from "../services/download-files.ts";

export interface TargetCleanupJob {
  username: string;
  /** The owner's uploads, as media keys ("media/ab/….jpg"). */
  media: string[];
  /** The files the owner sold, as DATA_DIR/downloads names them (absent from jobs queued before paid downloads). */
  downloads?: string[];
}

/** Removes the sold files named (only names a download file can have: nothing outside the folder); gone already is fine. */
export function removeSoldFiles(dataDir: string, keys: readonly string[]): void {
  for (const key of keys) {
    if (!/^[0-9a-f]{32}\.[a-z0-9]{2,4}$/.test(key)) continue;
    rmSync(join(downloadsDir(dataDir), key), { force: true });
  }
}

export async function runTargetCleanup(deps: Pick<AppDeps, "db" | "env" | "target">, job: TargetCleanupJob): Promise<void> {
  removeSoldFiles(deps.env.DATA_DIR, job.downloads ?? []);
  const dir = deps.env.PUBLISHED_DIR;
  // A name claimed again since the deletion belongs to its new owner's page now.
  const claimed = deps.db.select({ userId: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.username, job.username)).get();
  await throughTarget(deps.target, (writer) => {
    if (!claimed) writer.removeAllOf(job.username);
    writer.removeFiles(job.media.filter(isMediaKey).map((key) => join(dir, key)));
    // Written again first: an attempt the bucket refused took them out of the folder too.
    writeSeoFiles(deps.db, dir, pagesOrigin(deps.env));
    writer.putFiles(seoFilesOnDisk(dir));
  });
}
