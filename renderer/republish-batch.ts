/**
 * What a republish thread does with a batch, main thread and workers alike: render its pages into
 * files and write them durably, a couple of batches in flight. No database here, so a worker loads
 * only the renderer.
 */
import { PageSnapshotSchema, type PagePlan } from "#core/model.ts";
import { replaceFilesDurably, type PendingWrite } from "./atomic-write.ts";
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
export type ToWorker = { batch: PageToRender[] } | { batch: PendingWrite[] } | { done: true };
export type FromWorker = { want: true } | { finished: number };

export interface WorkerSetup {
  kind: "render" | "write";
  settings: RenderSettings;
}

/** A batch's files: every page rendered now. */
export function batchWrites(pages: PageToRender[], settings: RenderSettings): PendingWrite[] {
  const writes: PendingWrite[] = [];
  for (const p of pages) writes.push(...pageWrites(PageSnapshotSchema.parse(JSON.parse(p.snapshotJson)), p.plan, { ...settings, now: new Date() }));
  return writes;
}

/**
 * A thread's loop: take a batch, turn it into files, start writing them, take the next; at most
 * WRITES_IN_FLIGHT batches are being written at once. `finished` is told each batch's size when its
 * files are durable.
 */
export async function workLoop<T>(
  take: () => Promise<T[] | null>,
  toWrites: (batch: T[]) => PendingWrite[],
  finished: (n: number) => void,
): Promise<void> {
  const inflight: Promise<void>[] = [];
  for (;;) {
    const batch = await take();
    if (!batch) break;
    const writes = toWrites(batch);
    inflight.push(replaceFilesDurably(writes).then(() => finished(batch.length)));
    if (inflight.length >= WRITES_IN_FLIGHT) await inflight.shift();
  }
  await Promise.all(inflight);
}
