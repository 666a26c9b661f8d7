/**
 * What a republish thread does with a batch, main thread and workers alike: render its pages into
 * files and write them durably, a few batches in flight. No database here, so a worker loads
 * only the renderer.
 */
import { join } from "node:path";
import { PageSnapshotSchema, type PagePlan } from "#core/model.ts";
import { rendersPlusItems } from "#core/plan-hides.ts";
import { withholdItems } from "#core/withhold-items.ts";
import { withheldOf } from "./withheld.ts";
import { effectivePlan, planStateOf } from "#core/plans.ts";
import { discardStaged, stageFiles, swapStaged, syncFoldersOf, syncStaged, type StagedFile } from "./atomic-write.ts";
import { pageWrites } from "./page-writes.ts";
import { removeCompressedCopies } from "./precompress.ts";
import type { AssetManifest } from "./types.ts";

/** Batches a thread may have written but not yet made durable while it renders the next. */
const WRITES_IN_FLIGHT = 2;

export interface PageToRender {
  userId: string;
  /** The published version the snapshot is, which must still be the latest when the page is swapped in. */
  version: number;
  /** The page_versions row's snapshot, as stored: whoever renders or reads the page parses and checks it. */
  snapshotJson: string;
  /** The row's withheld items as stored (ADR 259), JSON or null. */
  withheldJson: string | null;
  plan: PagePlan;
  /** The owner's verified custom domain (ADR 240), or null. */
  customDomain: string | null;
}

export interface RenderSettings {
  publishedDir: string;
  origin: string;
  apiOrigin: string;
  assets: AssetManifest;
  /** The template's fingerprint (ADR 097), recorded for each page swapped in. */
  fingerprint: string;
}

/**
 * Messages between the main thread and a worker. A render job's batches are owners' ids: the worker
 * reads their pages itself (ADR 097), so no snapshot is read or copied on the main thread.
 */
export type ToWorker = { job: WorkerSetup } | { batch: string[] } | { done: true };
export type FromWorker = { want: true } | { finished: number; swapped: string[] } | { jobDone: true };

export interface WorkerSetup {
  settings: RenderSettings;
  database: string;
}

/** A page rendered into staged files, for the version it was rendered from. */
export interface StagedPage {
  userId: string;
  version: number;
  /** The page's index.html, whose old compressed copies go before it is swapped (ADR 121). */
  page: string;
  files: StagedFile[];
  /** What the render tells of the owner's Plus items (ADR 136, 201), recorded when the page is swapped in. */
  plusItems: { lite: boolean; hidden: boolean };
  /** The version's withheld items the page was rendered with (ADR 259): swapped in only if they are still the same. */
  withheldJson: string | null;
}

/** A batch's staged pages. */
export interface StagedBatch {
  pages: StagedPage[];
}

/**
 * The page lock (ADR 097): runs `swap` inside the database's write lock, which every writer of a page
 * takes in any process, with those of `pages` whose version is still the latest published and whose
 * staged render is theirs. Answers with the owners of the pages it re-rendered itself instead (a page
 * whose Plus items come back, ADR 259): their staged files are dropped, and they count as swapped in.
 */
export type UnderPageLock = (pages: StagedPage[], swap: (current: StagedPage[]) => void) => string[];

/**
 * A batch's files, staged: each page is rendered and its files written to their temporary names at
 * once, so its HTML never outlives it. `pages` may be a stream, read as it goes.
 */
export function stageRenderedBatch(pages: Iterable<PageToRender>, settings: RenderSettings): StagedBatch {
  const staged: StagedPage[] = [];
  try {
    for (const p of pages) {
      const snapshot = PageSnapshotSchema.parse(JSON.parse(p.snapshotJson));
      // What the version withholds shows as on the Lite page (ADR 259).
      const shown = withholdItems(snapshot, withheldOf(p.withheldJson === null ? null : JSON.parse(p.withheldJson)));
      const now = new Date();
      const writes = pageWrites(shown, p.plan, { ...settings, now, customDomain: p.customDomain });
      const lite = effectivePlan(planStateOf(p.plan), now) === "lite";
      const plusItems = { lite, hidden: rendersPlusItems(snapshot, shown, lite, now) };
      staged.push({ userId: p.userId, version: p.version, page: join(settings.publishedDir, snapshot.profile.username, "index.html"), files: stageFiles(writes), plusItems, withheldJson: p.withheldJson });
    }
  } catch (err) {
    for (const s of staged) discardStaged(s.files);
    throw err;
  }
  return { pages: staged };
}

/**
 * Make a batch durable: fsync every file, then under the page lock swap in the pages still at the
 * version they were rendered from (a page published meanwhile keeps its newer file, and the render
 * is dropped), then fsync their folders. Resolves with the owners whose pages were swapped in.
 */
async function commitBatch(batch: StagedBatch, lock: UnderPageLock): Promise<string[]> {
  const all = batch.pages.flatMap((p) => p.files);
  if (all.length === 0) return [];
  const pages: string[] = [];
  await syncStaged(all);
  let swapped: StagedFile[] = [];
  try {
    const rendered = lock(batch.pages, (current) => {
      for (const p of current) {
        // Pages have no compressed copies (ADR 121): old ones go before the new page is swapped in.
        removeCompressedCopies(p.page);
        swapStaged(p.files);
        swapped = swapped.concat(p.files);
        pages.push(p.userId);
      }
    });
    pages.push(...rendered);
  } finally {
    // Whatever was not swapped (a page published meanwhile, a failure) is removed.
    const left = new Set(swapped);
    discardStaged(all.filter((t) => !left.has(t)));
  }
  await syncFoldersOf(swapped);
  return pages;
}

/**
 * One turn of the event loop, so the answers of finished fsyncs are taken before the next batch is
 * staged (a worker asks one batch ahead and would otherwise stage batch after batch in promise
 * callbacks alone).
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A thread's loop: take a batch, stage its files, hand them to be committed (each file fsynced on
 * Node's thread pool, the swaps under the page lock; ADR 097), take the next; at most
 * WRITES_IN_FLIGHT batches are not yet durable. `finished` is told each batch's number of pages and
 * the owners whose pages were swapped in (ADR 135) when it is done.
 */
export async function workLoop<T>(
  take: () => Promise<T[] | null>,
  stage: (batch: T[]) => StagedBatch,
  lock: UnderPageLock,
  finished: (n: number, swapped: string[]) => void,
): Promise<void> {
  const inflight: Promise<void>[] = [];
  for (;;) {
    const batch = await take();
    if (!batch) break;
    const staged = stage(batch);
    inflight.push(commitBatch(staged, lock).then((swapped) => finished(staged.pages.length, swapped)));
    if (inflight.length >= WRITES_IN_FLIGHT) await inflight.shift();
    await nextTurn();
  }
  await Promise.all(inflight);
}
