/**
 * Publish: load the draft, check the plan gate, render, write the per-page files, swap the page's
 * index.html atomically, and record the version's snapshot. Also discard, rollback, restoring a
 * version into the draft, the version history and draft state.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { and, desc, eq, isNotNull, lt, notInArray } from "drizzle-orm";
import { LIMITS } from "#core/limits.ts";
import { PagePlanSchema, PageSnapshotSchema, type PagePlan, type PageSnapshot } from "#core/model.ts";
import { planHiddenItems, rendersPlusItems, plusItemsStateAfter, withheldItems, type PlanFeature, type PlanHiddenItem, type PlanItemKey } from "#core/plan-hides.ts";
import { publishGate } from "#core/publish-gate.ts";
import { withholdItems } from "#core/withhold-items.ts";
import { ALWAYS_PLUS, effectivePlan, planStateOf } from "#core/plans.ts";
import { versionPlanHides, versionSummary } from "#core/history.ts";
import { durably, transaction, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { pageReports, pageVersions, userProfiles } from "#db/schema.ts";
import { loadDraft, restoreDraft, type Draft } from "./draft.ts";
import { withheldOf } from "./withheld.ts";
import { ensureSharedAssets } from "./assets.ts";
import { pageWrites, type PageWriteOptions } from "./page-writes.ts";
import { folderTarget, type TargetWriter } from "./publish-target.ts";
import type { AssetManifest } from "./types.ts";
import { writeSeoFiles } from "./seo-files.ts";
import { templateFingerprint } from "./template-fingerprint.ts";
import { isPageSuspended } from "./suspension.ts";

/** The page's files' options (the steps here read the custom domain with the draft), and: */
export interface PublishOptions extends Omit<PageWriteOptions, "assets"> {
  /** Shared assets already ensured (bulk republish ensures them once per worker). */
  assets?: AssetManifest;
  /**
   * Called inside the transaction that records a new version, so work that follows a publish (the
   * API queues the page's scheduled re-renders) commits with it or not at all.
   */
  onPublished?: (tx: Db, page: PublishedEvent) => void;
  /** Where the page goes (ADR 129): PUBLISHED_DIR itself unless a target's writer is given. */
  writer?: TargetWriter;
}

const writerOf = (opts: PublishOptions): TargetWriter => opts.writer ?? folderTarget(opts.publishedDir).writer();

export type PublishResult =
  | { ok: true; version: number; changed: boolean }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "suspended" }
  | { ok: false; reason: "blocked"; features: PlanFeature[] }
  /** "Hide Plus items and publish" was agreed to fewer hides than the draft now needs (ADR 136). */
  | { ok: false; reason: "consent_outdated"; features: PlanFeature[] };

export const MAX_VERSIONS_LISTED = LIMITS.ROLLBACK_VERSIONS;

/**
 * A snapshot in a canonical form: rows in display order with ties broken by id, so two snapshots
 * with the same content compare equal however their rows were read.
 */
export function canonicalSnapshot(s: PageSnapshot): PageSnapshot {
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    profile: s.profile,
    links: [...s.links].sort((a, b) => a.orderIndex - b.orderIndex || byId(a, b)),
    lists: [...s.lists].sort((a, b) => a.orderIndex - b.orderIndex || byId(a, b)),
    socialLinks: [...s.socialLinks].sort((a, b) => a.displayOrder - b.displayOrder || byId(a, b)),
  };
}

export function snapshotHash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

const versionHash = (snapshot: PageSnapshot, plan: PagePlan) => snapshotHash({ snapshot: canonicalSnapshot(snapshot), plan });

/**
 * Per-user serialisation of publish, discard and rollback. Each is synchronous today, so the
 * JavaScript thread already runs one at a time; the queue keeps that true if a step becomes
 * asynchronous, and orders a scheduled rebuild after a publish in flight.
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

export interface PublishedEvent {
  userId: string;
  snapshot: PageSnapshot;
  plan: PagePlan;
}

function lastVersion(db: Db, userId: string) {
  return db.select().from(pageVersions).where(eq(pageVersions.userId, userId)).orderBy(desc(pageVersions.version)).limit(1).get();
}

/**
 * Keep only the versions the owner can roll back to (ADR 093): the newest of them is the live page
 * and what discard restores. A version a report pinned is kept as long as the report (ADR 108): the
 * console shows the page as the reporter saw it.
 */
function pruneVersions(db: Db, userId: string): void {
  const oldestKept = db
    .select({ version: pageVersions.version })
    .from(pageVersions)
    .where(eq(pageVersions.userId, userId))
    .orderBy(desc(pageVersions.version))
    .limit(1)
    .offset(MAX_VERSIONS_LISTED - 1)
    .get();
  if (!oldestKept) return;
  const pinned = db
    .select({ version: pageReports.pinnedVersion })
    .from(pageReports)
    .where(and(eq(pageReports.reportedUserId, userId), isNotNull(pageReports.pinnedVersion)));
  db.delete(pageVersions)
    .where(and(eq(pageVersions.userId, userId), lt(pageVersions.version, oldestKept.version), notInArray(pageVersions.version, pinned)))
    .run();
}

/**
 * Render a snapshot and swap it in: each file atomically and durably, index.html last. A page has no
 * compressed copies (ADR 121); copies an older version left are removed before the swap, so a static
 * host that sends them without comparing times (nginx's gzip_static) never sends an older page.
 */
export function writePage(snapshot: PageSnapshot, plan: PagePlan, opts: PublishOptions): void {
  const assets = opts.assets ?? ensureSharedAssets(opts.publishedDir);
  writerOf(opts).writePage(snapshot.profile.username, pageWrites(snapshot, plan, { ...opts, assets }));
}

/**
 * Publish the owner's draft as it is. When the plan gate refuses it, `consent` (the features the owner
 * agreed the plan hides, from "Hide Plus items and publish") lets it through if it covers every
 * refused feature: the page is rendered under the plan, which hides those items, the draft keeps
 * them, and the version records the consent (ADR 136).
 */
export function publishPage(db: Db, userId: string, opts: PublishOptions, consent?: readonly PlanFeature[]): PublishResult {
  const draft = loadDraft(db, userId);
  if (!draft) return { ok: false, reason: "not_found" };
  const gate = publishGate(draft.snapshot, draft.plan, opts.now);
  let hiddenByPlan: PlanFeature[] | null = null;
  if (!gate.ok) {
    if (!consent) return { ok: false, reason: "blocked", features: gate.features };
    if (gate.features.some((f) => !consent.includes(f))) return { ok: false, reason: "consent_outdated", features: gate.features };
    hiddenByPlan = gate.features;
  }
  const hash = versionHash(draft.snapshot, draft.plan);
  const writer = writerOf(opts);
  const assets = opts.assets ?? ensureSharedAssets(opts.publishedDir);
  // The page lock (ADR 097): the swap and the version it records are one step under the database's
  // write lock, which every writer of a page takes, in this process or another (a republish).
  const outcome = durably(db, (tx) => {
    // A suspended page stays the unavailable page until an admin restores it (ADR 108).
    if (isPageSuspended(tx, userId)) return null;
    const last = lastVersion(tx, userId);
    // Unchanged, and the page is on disk as the draft shows it: nothing to do (a page folder lost or
    // moved is rewritten, and so is a page that withholds items, ADR 259).
    if (last && last.contentHash === hash && withheldOf(last.withheldItems).length === 0 && writer.hasPage(draft.snapshot.profile.username)) return { version: last.version, changed: false, first: false };
    writePage(draft.snapshot, draft.plan, { ...opts, assets, writer, customDomain: draft.customDomain });
    notePlusItems(tx, userId, draft.snapshot, draft.plan, opts.now);
    if (last && last.contentHash === hash) {
      markRendered(tx, userId, last.version, assets);
      return { version: last.version, changed: false, first: false };
    }
    const version = (last?.version ?? 0) + 1;
    tx.insert(pageVersions)
      .values({
        id: newId(),
        userId,
        version,
        snapshot: draft.snapshot,
        contentHash: hash,
        htmlFile: `${draft.snapshot.profile.username}/index.html`,
        templateFingerprint: templateFingerprint(assets),
        publishedAt: opts.now,
        plan: draft.plan,
        hiddenByPlan,
      })
      .run();
    tx.update(userProfiles).set({ hasPublishedPage: true, lastPublishedAt: opts.now }).where(eq(userProfiles.userId, userId)).run();
    pruneVersions(tx, userId);
    opts.onPublished?.(tx, { userId, snapshot: draft.snapshot, plan: draft.plan });
    return { version, changed: true, first: !last };
  });
  if (!outcome) return { ok: false, reason: "suspended" };
  // The sitemap lists published pages: it changes when a page is published for the first time. It
  // is missing when it was never written, or when a bucket refused it (the folder keeps only what the
  // bucket took), so a publish, changed or not, writes it then.
  if (outcome.first || !existsSync(join(opts.publishedDir, "sitemap.xml"))) writer.putFiles(writeSeoFiles(db, opts.publishedDir, opts.pagesOrigin ?? opts.origin));
  return { ok: true, version: outcome.version, changed: outcome.changed };
}

/**
 * Record, with a render of `snapshot` under `plan`, whether the live page hides Plus items (ADR 136):
 * the one rule of core/plan-hides.ts, which bulk re-renders follow too (published-pages.ts, ADR 201).
 * `shown` is the snapshot a render under Plus drew, when it withholds items (ADR 259): only what it
 * shows again is back, so a render that withholds every item the plan hid brings nothing back.
 */
function notePlusItems(tx: Db, userId: string, snapshot: PageSnapshot, plan: PagePlan, now: Date, shown: PageSnapshot = snapshot): void {
  const row = tx.select({ state: userProfiles.plusItemsState }).from(userProfiles).where(eq(userProfiles.userId, userId)).get();
  if (!row) return;
  const lite = effectivePlan(planStateOf(plan), now) === "lite";
  const next = plusItemsStateAfter(row.state, lite, rendersPlusItems(snapshot, shown, lite, now));
  if (next !== row.state) tx.update(userProfiles).set({ plusItemsState: next }).where(eq(userProfiles.userId, userId)).run();
}

/** The dashboard has told the owner their Plus items are back: it says so once. */
export function acknowledgePlusItemsBack(db: Db, userId: string): void {
  db.update(userProfiles)
    .set({ plusItemsState: "none" })
    .where(and(eq(userProfiles.userId, userId), eq(userProfiles.plusItemsState, "back")))
    .run();
}

/**
 * Re-render the owner's last published version under the plan as it is now, reading the version and
 * swapping the file under the page lock, so a newer publish in another process is never replaced by
 * an older render (ADR 097). False when the owner has never published or the page is suspended.
 */
export function rerenderLastVersion(db: Db, userId: string, opts: PublishOptions): boolean {
  return transaction(db, (tx) => {
    if (isPageSuspended(tx, userId)) return false;
    const draft = loadDraft(tx, userId);
    const last = draft ? versionToShow(tx, userId, draft, opts.now) : null;
    if (!last || !draft) return false;
    const assets = opts.assets ?? ensureSharedAssets(opts.publishedDir);
    writePage(last.shown, draft.plan, { ...opts, assets, customDomain: draft.customDomain });
    noteRendered(tx, userId, last, draft.plan, opts.now, assets);
    return true;
  });
}

/** The owner's last published version as it is stored: its snapshot exactly as published, and what it withholds (ADR 259). */
interface LastVersion {
  version: number;
  snapshot: PageSnapshot;
  withheld: PlanItemKey[];
}

/** A render of the last published version: the version, and the snapshot visitors are shown (`shown`). */
interface VersionToShow extends LastVersion {
  shown: PageSnapshot;
}

/**
 * What a render of the owner's last published version under their plan at `now` draws (ADR 259).
 * When it brings back under Plus what a Lite render hid (plus_items_state "hidden"), the items the
 * plan hid that the owner has removed or changed in `draft` since are withheld (core/plan-hides.ts
 * withheldItems): they stay as the Lite page showed them until the next publish. Any other render
 * withholds what the version already withholds. Null when the owner has never published.
 */
export function versionToShow(tx: Db, userId: string, draft: Draft, now: Date): VersionToShow | null {
  const last = lastPublishedVersion(tx, userId);
  if (!last) return null;
  let withheld = last.withheld;
  if (effectivePlan(planStateOf(draft.plan), now) !== "lite") {
    const row = tx.select({ state: userProfiles.plusItemsState }).from(userProfiles).where(eq(userProfiles.userId, userId)).get();
    if (row?.state === "hidden") withheld = withheldItems(last.snapshot, draft.snapshot, now);
  }
  return { ...last, withheld, shown: withholdItems(last.snapshot, withheld) };
}

/**
 * Record a render of `v` under `plan`, in the transaction that holds the page lock: the version follows
 * the template, keeps what the render withheld (ADR 259), and the owner's Plus items state follows
 * (ADR 136, 201).
 */
export function noteRendered(tx: Db, userId: string, v: VersionToShow, plan: PagePlan, now: Date, assets: AssetManifest): void {
  tx.update(pageVersions)
    .set({ templateFingerprint: templateFingerprint(assets), withheldItems: v.withheld.length > 0 ? v.withheld : null })
    .where(and(eq(pageVersions.userId, userId), eq(pageVersions.version, v.version)))
    .run();
  notePlusItems(tx, userId, v.snapshot, plan, now, v.shown);
}

/**
 * Record that a version's page on disk was rendered, as published, with the current template (ADR
 * 097): it withholds nothing (ADR 259).
 */
function markRendered(db: Db, userId: string, version: number, assets: AssetManifest): void {
  db.update(pageVersions)
    .set({ templateFingerprint: templateFingerprint(assets), withheldItems: null })
    .where(and(eq(pageVersions.userId, userId), eq(pageVersions.version, version)))
    .run();
}

/** The owner's last published version as stored, or null: History, Discard and the draft's comparison read this. */
export function lastPublishedVersion(db: Db, userId: string): LastVersion | null {
  const last = lastVersion(db, userId);
  if (!last) return null;
  return { version: last.version, snapshot: PageSnapshotSchema.parse(last.snapshot), withheld: withheldOf(last.withheldItems) };
}

/**
 * The last published version as visitors are shown it: what it withholds as the Lite page shows it
 * (ADR 259). Everything that shows or acts on the live page reads this (a re-render into a bucket,
 * lead magnets, payments, click beacons), so they all agree with the page.
 */
export function lastPublishedSnapshot(db: Db, userId: string): { version: number; snapshot: PageSnapshot } | null {
  const last = lastPublishedVersion(db, userId);
  if (!last) return null;
  return { version: last.version, snapshot: withholdItems(last.snapshot, last.withheld) };
}

export interface DraftState {
  hasUnpublishedChanges: boolean;
  hasPublishedPage: boolean;
  lastPublishedAt: string | null;
  version: number | null;
  blockedFeatures: PlanFeature[];
  /** What the plan would hide, item by item, if the draft were published now; empty when nothing blocks (ADR 136). */
  plusChanges: PlanHiddenItem[];
  /** A render under Plus has shown the page's Plus items again, and the dashboard has not said so yet. */
  plusItemsBack: boolean;
}

/**
 * docs/product.md section 4 (Draft versus published) made exact: the page has unpublished changes when it was
 * never published or when the draft differs from the last published snapshot. Timestamps are not
 * compared, so an edit that is undone by hand, or a discard, leaves no false "Draft Changes".
 */
export function draftState(db: Db, userId: string, now: Date): DraftState | null {
  const draft = loadDraft(db, userId);
  if (!draft) return null;
  const last = lastPublishedVersion(db, userId);
  const gate = publishGate(draft.snapshot, draft.plan, now);
  const state = db.select({ plusItemsState: userProfiles.plusItemsState }).from(userProfiles).where(eq(userProfiles.userId, userId)).get();
  // A live page that withholds items (ADR 259) is not the draft yet, whatever the version holds.
  const same = last !== null && last.withheld.length === 0 && JSON.stringify(canonicalSnapshot(last.snapshot)) === JSON.stringify(canonicalSnapshot(draft.snapshot));
  return {
    hasUnpublishedChanges: !same,
    hasPublishedPage: draft.hasPublishedPage,
    lastPublishedAt: draft.lastPublishedAt ? draft.lastPublishedAt.toISOString() : null,
    version: last?.version ?? null,
    blockedFeatures: gate.ok ? [] : gate.features,
    plusChanges: gate.ok ? [] : planHiddenItems(draft.snapshot, now),
    plusItemsBack: state?.plusItemsState === "back",
  };
}

/** Restore the draft to the last published snapshot. False when nothing was ever published. */
export function discardDraft(db: Db, userId: string, now: Date = new Date()): boolean {
  const last = lastPublishedVersion(db, userId);
  if (!last) return false;
  restoreDraft(db, userId, last.snapshot, now);
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

export interface VersionEntry {
  version: number;
  publishedAt: string;
  /** What changed since the version before, in one line (core/history.ts). */
  summary: string;
  /** The version visitors see now. */
  live: boolean;
  /** The features the owner agreed the plan hides with this publish (ADR 136); empty for an ordinary one. */
  hiddenByPlan: string[];
  /** What the owner's plan would hide, item by item, if this version were put live now (ADR 200). */
  planHides: PlanHiddenItem[];
}

/**
 * The History view's list (ADR 137): the versions the owner can bring back, newest first, each with a
 * summary of what changed since the one before it (one more row is read for the oldest's summary).
 */
export function versionHistory(db: Db, userId: string, now: Date): VersionEntry[] {
  const plan = loadDraft(db, userId)?.plan ?? null;
  const rows = db
    .select({ version: pageVersions.version, publishedAt: pageVersions.publishedAt, snapshot: pageVersions.snapshot, hiddenByPlan: pageVersions.hiddenByPlan })
    .from(pageVersions)
    .where(eq(pageVersions.userId, userId))
    .orderBy(desc(pageVersions.version))
    .limit(MAX_VERSIONS_LISTED + 1)
    .all();
  const snapshots = rows.map((r) => PageSnapshotSchema.parse(r.snapshot));
  return rows.slice(0, MAX_VERSIONS_LISTED).map((r, i) => {
    const before = rows[i + 1]?.version === r.version - 1 ? snapshots[i + 1]! : r.version === 1 ? null : "pruned";
    return {
      version: r.version,
      publishedAt: r.publishedAt.toISOString(),
      summary: versionSummary(before, snapshots[i]!),
      live: i === 0,
      hiddenByPlan: r.hiddenByPlan ?? [],
      planHides: plan ? versionPlanHides(snapshots[i]!, plan, now) : [],
    };
  });
}

/** One of the versions the owner can bring back (the last 20), or null. */
function keptVersion(db: Db, userId: string, version: number) {
  if (!listVersions(db, userId).some((v) => v.version === version)) return null;
  return db
    .select()
    .from(pageVersions)
    .where(and(eq(pageVersions.userId, userId), eq(pageVersions.version, version)))
    .get() ?? null;
}

export interface VersionPreview {
  snapshot: PageSnapshot;
  /** The plan the version was rendered under when it was published. */
  plan: PagePlan;
  /** The instant it was published: schedules are judged then, as they were. */
  publishedAt: Date;
}

/**
 * What History's preview renders (ADR 137): the version's snapshot, under the plan it was published
 * with, at the instant it was published, so the preview is the page visitors got then. A version
 * stored before its plan was kept is rendered under the owner's plan as it stood then when that plan
 * allows the snapshot, else under Plus (the gate let such a snapshot through only under Plus).
 */
export function versionPreview(db: Db, userId: string, version: number): VersionPreview | null {
  const row = keptVersion(db, userId, version);
  const draft = row ? loadDraft(db, userId) : null;
  if (!row || !draft) return null;
  const snapshot = PageSnapshotSchema.parse(row.snapshot);
  const stored = PagePlanSchema.safeParse(row.plan);
  const plan = stored.success ? stored.data : publishGate(snapshot, draft.plan, row.publishedAt).ok ? draft.plan : ALWAYS_PLUS;
  return { snapshot, plan, publishedAt: row.publishedAt };
}

/**
 * Put one of the owner's last 20 versions live at once: the draft becomes that snapshot, then it is
 * published. When the plan gate refuses the version, `consent` (the features the owner agreed the plan
 * hides, as History's confirmation listed them) lets it through as "Hide Plus items and publish" does
 * (ADR 136, 200): the version is published under the plan, which hides those items, and the draft and
 * the new version keep them. Refused (402 without consent, 409 when the consent no longer covers what
 * the plan hides), the draft is left untouched.
 */
export function rollbackTo(
  db: Db,
  userId: string,
  version: number,
  opts: PublishOptions,
  consent?: readonly PlanFeature[],
): PublishResult | { ok: false; reason: "no_version" } {
  // Refused before the draft is touched.
  if (isPageSuspended(db, userId)) return { ok: false, reason: "suspended" };
  const row = keptVersion(db, userId, version);
  const draft = row ? loadDraft(db, userId) : null;
  if (!row || !draft) return { ok: false, reason: "no_version" };
  const snapshot = PageSnapshotSchema.parse(row.snapshot);
  const gate = publishGate(snapshot, draft.plan, opts.now);
  if (!gate.ok) {
    if (!consent) return { ok: false, reason: "blocked", features: gate.features };
    if (gate.features.some((f) => !consent.includes(f))) return { ok: false, reason: "consent_outdated", features: gate.features };
  }
  restoreDraft(db, userId, snapshot, opts.now);
  return publishPage(db, userId, opts, consent);
}

/**
 * Restore one of the owner's last 20 versions into the draft (ADR 137), to be edited and published as
 * usual; the live page is not touched. False when the owner has no such version.
 */
export function restoreVersion(db: Db, userId: string, version: number, now: Date): boolean {
  const row = keptVersion(db, userId, version);
  if (!row) return false;
  restoreDraft(db, userId, PageSnapshotSchema.parse(row.snapshot), now);
  return true;
}
