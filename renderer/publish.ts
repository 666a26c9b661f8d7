/**
 * Publish: load the draft, render it, write the files, swap the page's index.html atomically, and
 * record the version's snapshot.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { desc, eq } from "drizzle-orm";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { pageVersions, userProfiles } from "#db/schema.ts";
import { writeFileAtomic } from "./atomic-write.ts";
import { loadDraft } from "./draft.ts";
import { ensureSharedAssets } from "./assets.ts";
import { renderPage } from "./render.tsx";

export interface PublishOptions {
  publishedDir: string;
  origin: string;
  now: Date;
}

export type PublishResult = { ok: true; version: number; changed: boolean } | { ok: false; reason: "not_found" };

export function snapshotHash(snapshot: unknown): string {
  return createHash("sha256").update(JSON.stringify(snapshot)).digest("hex");
}

export function publishPage(db: Db, userId: string, opts: PublishOptions): PublishResult {
  const draft = loadDraft(db, userId);
  if (!draft) return { ok: false, reason: "not_found" };
  const hash = snapshotHash(draft.snapshot);
  const last = db.select().from(pageVersions).where(eq(pageVersions.userId, userId)).orderBy(desc(pageVersions.version)).limit(1).get();
  if (last && last.contentHash === hash) return { ok: true, version: last.version, changed: false };

  const username = draft.snapshot.profile.username;
  const assets = ensureSharedAssets(opts.publishedDir);
  const page = renderPage({
    snapshot: draft.snapshot,
    plan: draft.plan,
    now: opts.now,
    origin: opts.origin,
    apiOrigin: opts.origin,
    mode: "published",
    assets,
  });
  for (const file of page.files) writeFileAtomic(join(opts.publishedDir, username, file.path), file.content);
  writeFileAtomic(join(opts.publishedDir, username, "index.html"), page.html);

  const version = (last?.version ?? 0) + 1;
  durably(db, (tx) => {
    tx.insert(pageVersions)
      .values({
        id: newId(),
        userId,
        version,
        snapshot: draft.snapshot,
        contentHash: hash,
        htmlFile: `${username}/index.html`,
        publishedAt: opts.now,
      })
      .run();
    tx.update(userProfiles).set({ hasPublishedPage: true, lastPublishedAt: opts.now }).where(eq(userProfiles.userId, userId)).run();
  });
  return { ok: true, version, changed: true };
}
