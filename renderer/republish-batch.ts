/**
 * What a republish thread does with a batch, main thread and workers alike: render its pages into
 * files and write them durably, a couple of batches in flight. No database here, so a worker loads
 * only the renderer.
 */
import { PageSnapshotSchema, type PagePlan } from "#core/model.ts";
import { commitStaged, stageFiles, type PendingWrite, type StagedFile } from "./atomic-write.ts";
import { fileSystemSync } from "./fs-sync.ts";
import { pageWrites } from "./page-writes.ts";
import type { AssetManifest } from "./types.ts";

/** Batches a thread may have written but not yet fsynced while it renders the next. */
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

/** Messages between the main thread and a worker. */
export type ToWorker = { job: WorkerSetup } | { batch: PageToRender[] } | { batch: PendingWrite[] } | { done: true };
export type FromWorker = { want: true } | { finished: number } | { jobDone: true };

export interface WorkerSetup {
  kind: "render" | "write";
  settings: RenderSettings;
}

/**
 * A batch's files, staged: each page is rendered and its files written to their temporary names at
 * once, so its HTML never outlives it (a batch of rendered pages held until the last one is done
 * would be copied by every garbage collection meanwhile).
 */
export function stageRenderedBatch(pages: PageToRender[], settings: RenderSettings): StagedFile[] {
  return stageFiles(renderedWrites(pages, settings));
}

function* renderedWrites(pages: PageToRender[], settings: RenderSettings): Generator<PendingWrite> {
  for (const p of pages) yield* pageWrites(PageSnapshotSchema.parse(JSON.parse(p.snapshotJson)), p.plan, { ...settings, now: new Date() });
}

/**
 * A thread's loop: take a batch, stage its files, start committing them (two syncfs calls where the
 * platform has it, ADR 029), take the next; at most WRITES_IN_FLIGHT batches are being committed at
 * once. `finished` is told each batch's size when
 * its files are durable.
 */
export async function workLoop<T>(
  publishedDir: string,
  take: () => Promise<T[] | null>,
  stage: (batch: T[]) => StagedFile[],
  finished: (n: number) => void,
): Promise<void> {
  // Every file of a republish is under published/, on one file system: one syncfs covers a batch.
  const sync = fileSystemSync();
  const fsSync = sync ? { sync, path: publishedDir } : undefined;
  const inflight: Promise<void>[] = [];
  for (;;) {
    const batch = await take();
    if (!batch) break;
    const n = batch.length;
    inflight.push(commitStaged(stage(batch), fsSync).then(() => finished(n)));
    if (inflight.length >= WRITES_IN_FLIGHT) await inflight.shift();
  }
  await Promise.all(inflight);
}
