/**
 * Deleting an account: every row of the owner (the users row cascades to all of them) and every file
 * published for them (the page folder and their uploads), then the sitemap without their page.
 *
 * Order matters for privacy: the page folder is first renamed out of the way (one atomic step, so
 * the page is gone at once), then the rows are deleted; if that fails the folder is put back and
 * nothing is lost. Only then are the files removed.
 *
 * The files the owner sold as paid downloads (DATA_DIR/downloads, ADR 231) go with the target-cleanup
 * job queued in the same transaction: the queue runs it once whichever process claims it, again
 * after a crash, and removing a file already gone is no error (ADR 238).
 *
 * Invoices are records (ADR 082, 049): in the same transaction the buyer's details are copied onto
 * them, and the users row's deletion detaches them (user_id set null) instead of deleting them.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { eq } from "drizzle-orm";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { downloadFiles, invoices, uploads, userProfiles, users } from "#db/schema.ts";
import { enqueueJob } from "../jobs/queue.ts";
import type { TargetCleanupJob } from "../jobs/target-cleanup.ts";
import { writeSeoFiles } from "#renderer/seo-files.ts";

/** A path under root, or null when the key would leave it. */
function inside(root: string, key: string): string | null {
  const base = resolve(root);
  const full = resolve(base, key);
  return full.startsWith(base + sep) ? full : null;
}

export interface DeleteAccountOptions {
  publishedDir: string;
  /** Where visitors reach the pages, for the sitemap's addresses. */
  origin: string;
  /** When the deletion happens: its `target-cleanup` job is queued with it. */
  now: Date;
}

export function deleteAccount(db: Db, userId: string, opts: DeleteAccountOptions): void {
  const profile = db
    .select({ username: userProfiles.username, displayName: userProfiles.displayName, email: users.email })
    .from(userProfiles)
    .innerJoin(users, eq(users.id, userProfiles.userId))
    .where(eq(userProfiles.userId, userId))
    .get();
  const files = db.select({ key: uploads.storageKey }).from(uploads).where(eq(uploads.userId, userId)).all();

  const pageDir = profile ? inside(opts.publishedDir, profile.username) : null;
  const trash = join(opts.publishedDir, `.deleted-${newId()}`);
  const moved = !!pageDir && existsSync(pageDir);
  if (moved) renameSync(pageDir!, trash);
  try {
    durably(db, (tx) => {
      if (profile) {
        tx.update(invoices)
          .set({ billedEmail: profile.email, billedUsername: profile.username, billedName: profile.displayName })
          .where(eq(invoices.userId, userId))
          .run();
      }
      // Read inside the transaction: a file uploaded a moment ago is in the list its rows leave with.
      const sold = tx.select({ key: downloadFiles.storageKey }).from(downloadFiles).where(eq(downloadFiles.userId, userId)).all();
      tx.delete(users).where(eq(users.id, userId)).run();
      // A bucket's copies and the CDN's go through the jobs queue, retried until they are gone (ADR 129, 133).
      if (profile) {
        const job: TargetCleanupJob = { username: profile.username, media: files.map((f) => f.key), downloads: sold.map((f) => f.key) };
        enqueueJob(tx, { kind: "target-cleanup", payload: job }, opts.now);
      }
    });
  } catch (err) {
    if (moved) renameSync(trash, pageDir!);
    throw err;
  }

  if (moved) rmSync(trash, { recursive: true, force: true });
  for (const { key } of files) {
    const path = inside(opts.publishedDir, key);
    if (path) rmSync(path, { force: true });
  }
  writeSeoFiles(db, opts.publishedDir, opts.origin);
}
