/**
 * Publish: load the draft, check the plan gate, render, write the per-page files, swap the page's
 * index.html atomically, and record the version's snapshot. Also discard, rollback and draft state.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { PageSnapshotSchema, type PageSnapshot } from "#core/model.ts";
import { publishGate } from "#core/publish-gate.ts";
import type { FeatureKey } from "#core/plans.ts";
import { durably, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { pageVersions, userProfiles } from "#db/schema.ts";
import { writeFileAtomic } from "./atomic-write.ts";
import { loadDraft, restoreDraft } from "./draft.ts";
import { ensureSharedAssets } from "./assets.ts";
import { renderPage } from "./render.tsx";
import type { AssetManifest } from "./types.ts";
import { writeSeoFiles } from "./seo-files.ts";

export interface PublishOptions {
  publishedDir: string;
  origin: string;
  apiOrigin?: string;
  now: Date;
  /** Shared assets already ensured (bulk republish ensures them once per worker). */
  assets?: AssetManifest;
}

export type PublishResult =
  | { ok: true; version: number; changed: boolean }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "blocked"; features: FeatureKey[] };

export const MAX_VERSIONS_LISTED = 20;

export function snapshotHash(snapshot: unknown): string {
  return createHash("sha256").update(JSON.stringify(snapshot)).digest("hex");
}

/**
 * Per-user serialisation. Publishing is synchronous today, so the JavaScript thread already runs one
 * publish at a time; the lock keeps that true if any step becomes asynchronous.
 */
const locks = new Map<string, Promise<unknown>>();
export function withPageLock<T>(userId: string, fn: () => T | Promise<T>): Promise<T> {
  const prev = locks.get(userId) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.catch(() => undefined);
  locks.set(userId, tail);
  void tail.then(() => {
    if (locks.get(userId) === tail) locks.delete(userId);
  });
  return run;
}

type PublishListener = (userId: string) => void;
const listeners = new Set<PublishListener>();
/** Be told after each publish that changed a page (the scheduler re-arms its timer). */
export function onPublished(fn: PublishListener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function lastVersion(db: Db, userId: string) {
  return db.select().from(pageVersions).where(eq(pageVersions.userId, userId)).orderBy(desc(pageVersions.version)).limit(1).get();
}

/** Render a snapshot and swap it in: per-page files first, index.html last (atomic rename). */
export function writePage(snapshot: PageSnapshot, plan: Parameters<typeof renderPage>[0]["plan"], opts: PublishOptions): void {
  const username = snapshot.profile.username;
  const assets = opts.assets ?? ensureSharedAssets(opts.publishedDir);
  const page = renderPage({
    snapshot,
    plan,
    now: opts.now,
    origin: opts.origin,
    apiOrigin: opts.apiOrigin ?? opts.origin,
    mode: "published",
    assets,
  });
  for (const file of page.files) writeFileAtomic(join(opts.publishedDir, username, file.path), file.content);
  writeFileAtomic(join(opts.publishedDir, username, "index.html"), page.html);
}

export function publishPage(db: Db, userId: string, opts: PublishOptions): PublishResult {
  const draft = loadDraft(db, userId);
  if (!draft) return { ok: false, reason: "not_found" };
  const gate = publishGate(draft.snapshot, draft.plan, opts.now);
  if (!gate.ok) return { ok: false, reason: "blocked", features: gate.features };
  const hash = snapshotHash({ snapshot: draft.snapshot, plan: draft.plan });
  const last = lastVersion(db, userId);
  if (last && last.contentHash === hash) return { ok: true, version: last.version, changed: false };

  writePage(draft.snapshot, draft.plan, opts);
  const version = (last?.version ?? 0) + 1;
  durably(db, (tx) => {
    tx.insert(pageVersions)
      .values({
        id: newId(),
        userId,
        version,
        snapshot: draft.snapshot,
        contentHash: hash,
        htmlFile: `${draft.snapshot.profile.username}/index.html`,
        publishedAt: opts.now,
      })
      .run();
    tx.update(userProfiles).set({ hasPublishedPage: true, lastPublishedAt: opts.now }).where(eq(userProfiles.userId, userId)).run();
  });
  writeSeoFiles(db, opts.publishedDir, opts.origin);
  for (const fn of listeners) fn(userId);
  return { ok: true, version, changed: true };
}

export function lastPublishedSnapshot(db: Db, userId: string): { version: number; snapshot: PageSnapshot } | null {
  const last = lastVersion(db, userId);
  if (!last) return null;
  return { version: last.version, snapshot: PageSnapshotSchema.parse(last.snapshot) };
}

export interface DraftState {
  hasUnpublishedChanges: boolean;
  hasPublishedPage: boolean;
  lastPublishedAt: string | null;
  version: number | null;
  blockedFeatures: FeatureKey[];
}

export function draftState(db: Db, userId: string, now: Date): DraftState | null {
  const draft = loadDraft(db, userId);
  if (!draft) return null;
  const last = lastPublishedSnapshot(db, userId);
  const gate = publishGate(draft.snapshot, draft.plan, now);
  return {
    hasUnpublishedChanges: !last || JSON.stringify(last.snapshot) !== JSON.stringify(draft.snapshot),
    hasPublishedPage: draft.hasPublishedPage,
    lastPublishedAt: draft.lastPublishedAt ? draft.lastPublishedAt.toISOString() : null,
    version: last?.version ?? null,
    blockedFeatures: gate.ok ? [] : gate.features,
  };
}

/** Restore the draft to the last published snapshot. False when nothing was ever published. */
export function discardDraft(db: Db, userId: string): boolean {
  const last = lastPublishedSnapshot(db, userId);
  if (!last) return false;
  restoreDraft(db, userId, last.snapshot);
  return true;
}

export function listVersions(db: Db, userId: string) {
  return db
    .select({ version: pageVersions.version, publishedAt: pageVersions.publishedAt })
    .from(pageVersions)
    .where(eq(pageVersions.userId, userId))
    .orderBy(desc(pageVersions.version))
    .limit(MAX_VERSIONS_LISTED)
    .all()
    .map((v) => ({ version: v.version, publishedAt: v.publishedAt.toISOString() }));
}

/** Restore the draft to one of the owner's last 20 versions and publish it. */
export function rollbackTo(db: Db, userId: string, version: number, opts: PublishOptions): PublishResult | { ok: false; reason: "no_version" } {
  const allowed = listVersions(db, userId).some((v) => v.version === version);
  if (!allowed) return { ok: false, reason: "no_version" };
  const row = db
    .select()
    .from(pageVersions)
    .where(and(eq(pageVersions.userId, userId), eq(pageVersions.version, version)))
    .get();
  if (!row) return { ok: false, reason: "no_version" };
  restoreDraft(db, userId, PageSnapshotSchema.parse(row.snapshot));
  return publishPage(db, userId, opts);
}
