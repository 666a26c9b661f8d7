/**
 * What a republish thread does with a batch, main thread and workers alike: render its pages into
 * files and write them durably, a few batches in flight. No database here, so a worker loads
 * only the renderer.
 */
import { join } from "node:path";
import { PageSnapshotSchema, type PagePlan } from "#core/model.ts";
import { commitStaged, stageFiles, type PendingWrite, type StagedFile } from "./atomic-write.ts";
import { pageWrites } from "./page-writes.ts";
import { removeCompressedCopies } from "./precompress.ts";
import type { AssetManifest } from "./types.ts";

/** Batches a thread may have written but not yet made durable while it renders the next. */
const WRITES_IN_FLIGHT = 2;

export interface PageToRender {
  /** The page_versions row's snapshot, as stored. */
  snapshotJson: string;
  plan: PagePlan;
}

export interface RenderSettings {
  publishedDir: string;
  origin: string;
  apiOrigin: string;
  assets: AssetManifest;
}

/**
 * Messages between the main thread and a worker. A render job's batches are owners' ids: the worker
 * reads their pages itself (ADR 025), so no snapshot is read or copied on the main thread.
 */
export type ToWorker = { job: WorkerSetup } | { batch: string[] } | { done: true };
export type FromWorker = { want: true } | { finished: number } | { jobDone: true };

export interface WorkerSetup {
  settings: RenderSettings;
  database: string;
}

/**
 * A batch's files, staged: each page is rendered and its files written to their temporary names at
 * once, so its HTML never outlives it (a batch of rendered pages held until the last one is done
 * would be copied by every garbage collection meanwhile). `pages` may be a stream, read as it goes.
 */
export function stageRenderedBatch(pages: Iterable<PageToRender>, settings: RenderSettings): StagedBatch {
  const counted = { pages: 0 };
  return { files: stageFiles(renderedWrites(pages, settings, counted)), pages: counted.pages };
}

/** A batch's staged files, and how many pages they make. */
export interface StagedBatch {
  files: StagedFile[];
  pages: number;
}

function* renderedWrites(pages: Iterable<PageToRender>, settings: RenderSettings, counted: { pages: number }): Generator<PendingWrite> {
  for (const p of pages) {
    counted.pages += 1;
    const snapshot = PageSnapshotSchema.parse(JSON.parse(p.snapshotJson));
    // Without compressed copies (ADR 057): the old ones go before the new page is staged, let alone swapped.
    removeCompressedCopies(join(settings.publishedDir, snapshot.profile.username, "index.html"));
    yield* pageWrites(snapshot, p.plan, { ...settings, now: new Date(), compressedCopies: false });
  }
}

/**
 * One turn of the event loop, so the answers of finished fsyncs are taken before the next batch is
 * staged (a worker asks one batch ahead and would otherwise stage batch after batch in promise
 * callbacks alone).
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A thread's loop: take a batch, stage its files, hand them to be committed (each file fsynced on
 * Node's thread pool, ADR 097), take the next; at most WRITES_IN_FLIGHT batches are not yet durable.
 * `finished` is told each batch's number of pages when its files are durable.
 */
export async function workLoop<T>(take: () => Promise<T[] | null>, stage: (batch: T[]) => StagedBatch, finished: (n: number) => void): Promise<void> {
  const inflight: Promise<void>[] = [];
  for (;;) {
    const batch = await take();
    if (!batch) break;
    const { files, pages } = stage(batch);
    inflight.push(commitStaged(files).then(() => finished(pages)));
    if (inflight.length >= WRITES_IN_FLIGHT) await inflight.shift();
    await nextTurn();
  }
  await Promise.all(inflight);
}
