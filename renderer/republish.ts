/**
 * Republish all: re-render every published page from its last published snapshot (after a template
 * change) on every core (ADR 097). The main thread hands out batches of owners on demand to worker
 * threads, which read their pages (one query per batch, on a connection of their own), render and
 * write them; with a single thread it does all of that itself. Batches are committed (per-file fsyncs
 * on the thread pool) while the next ones render. Every file is a new file swapped in atomically and
 * durably, as a single publish does (ADR 097). With a bucket as the publish target, pages go through
 * the target one by one instead (republish-target.ts, ADR 135).
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { databaseFile, type Db } from "#db/client.ts";
import { ensureSharedAssets } from "./assets.ts";
import { throughTarget, type PublishTarget } from "./publish-target.ts";
import { republishIntoTarget } from "./republish-target.ts";
import { pageLockOf, publishedOwners, streamPublishedBatch } from "./published-pages.ts";
import { stageRenderedBatch, workLoop, type FromWorker, type RenderSettings, type StagedBatch, type ToWorker, type UnderPageLock, type WorkerSetup } from "./republish-batch.ts";
import { seoFilesOnDisk, writeSeoFiles } from "./seo-files.ts";
import { suspendedOwners, writeSuspendedPages } from "./suspension.ts";
import { templateFingerprint } from "./template-fingerprint.ts";
import type { PageOrigins } from "./types.ts";

/** Pages per database read and per round of fsyncs. */
export const BATCH_SIZE = 100;

/**
 * The worker's entry, which loads its TypeScript through tsx as the scripts and the server are
 * loaded. React's production build follows NODE_ENV, which a worker shares with the process that
 * starts it.
 */
const workerUrl = new URL("./republish-worker.mjs", import.meta.url);

/**
 * Worker threads waiting for a job. They stay loaded and warmed up between republishes in one
 * process, and are unreferenced while idle, so they never keep a finished process alive.
 */
const idleWorkers: Worker[] = [];

function takeWorker(): Worker {
  const idle = idleWorkers.pop();
  if (idle) return idle;
  // The entry registers tsx itself: a parent started by tsx would otherwise pass its loader on too.
  const worker = new Worker(workerUrl, { execArgv: [] });
  const forget = () => {
    const i = idleWorkers.indexOf(worker);
    if (i >= 0) idleWorkers.splice(i, 1);
  };
  worker.on("error", forget);
  worker.on("exit", forget);
  return worker;
}

/** Run one job on a worker; resolves when the worker has made every batch it took durable. */
function runOnWorker<T>(setup: WorkerSetup, next: () => T[] | null, finished: (n: number, swapped: string[]) => void): Promise<void> {
  const worker = takeWorker();
  worker.ref();
  return new Promise<void>((resolve, reject) => {
    const stop = () => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    const onMessage = (m: FromWorker) => {
      if ("finished" in m) return finished(m.finished, m.swapped);
      if ("jobDone" in m) {
        stop();
        worker.unref();
        idleWorkers.push(worker);
        return resolve();
      }
      const batch = next();
      worker.postMessage((batch ? { batch } : { done: true }) as ToWorker);
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    const onExit = (code: number) => {
      stop();
      reject(new Error(`republish worker exited with ${code}`));
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage({ job: setup } satisfies ToWorker);
  });
}

/**
 * Hand out `next()` batches until none is left: to `threads` workers, the main thread only answering
 * them (a main thread that also rendered would keep a worker waiting for its next batch while it
 * finished its own); with 0, to the main thread alone, which stages them with `stage`.
 * Resolves when every batch is durable.
 */
async function distribute<T>(
  threads: number,
  setup: WorkerSetup,
  next: () => T[] | null,
  stage: (batch: T[]) => StagedBatch,
  lock: UnderPageLock,
  finished: (n: number, swapped: string[]) => void,
): Promise<void> {
  if (threads === 0) return workLoop(async () => next(), stage, lock, finished);
  await Promise.all(Array.from({ length: threads }, () => runOnWorker(setup, next, finished)));
}

const ignore = () => {};

/** Hands out `batches` in order, then null. */
function handOut<T>(batches: T[][]): () => T[] | null {
  let cursor = 0;
  return () => (cursor < batches.length ? batches[cursor++]! : null);
}

export interface RepublishOptions extends PageOrigins {
  /** Threads rendering at once: worker threads, or the main thread alone when 1 (default: every core). */
  threads?: number;
  /** Render on worker threads even with one thread, leaving the main thread to serve requests. */
  offMainThread?: boolean;
  /** The owners to re-render, in this order (default: every published owner, by username). */
  owners?: { userId: string; username: string }[];
  onProgress?: (done: number, total: number) => void;
  /**
   * Where the pages go (ADR 135): a bucket takes them page by page through its writers; the folder
   * (the default) is written by the threads, and hears of the pages swapped in through
   * `pagesWritten` (a target that purges a CDN queues their purges).
   */
  target?: PublishTarget;
  /** Where a page that could not be written is reported, by its username (default: console.error). */
  logFailure?: (line: string) => void;
}

/** What a bulk re-render could not write to the target; the rest was written (ADR 135). */
export class RepublishError extends Error {
  constructor(
    readonly done: number,
    /** The pages ("/alice") and files ("sitemap.xml") not written. */
    readonly failed: string[],
  ) {
    const named = failed.slice(0, 10).join(", ") + (failed.length > 10 ? ", …" : "");
    super(`The publish target refused ${failed.length} page(s) or file(s) (${named}); ${done} page(s) were written.`);
    this.name = "RepublishError";
  }
}

/**
 * Re-render every published page (suspended pages stay the unavailable page). Resolves with the number of pages re-rendered. Worker threads
 * read their pages through connections of their own, so a database in memory, which only this
 * connection sees, is republished on the main thread. With a bucket target, pages the bucket refuses
 * are reported through `logFailure` and the others go on; it then throws RepublishError.
 */
export async function republishAll(db: Db, opts: RepublishOptions): Promise<number> {
  if (opts.target?.kind === "bucket") return republishToBucket(db, opts, opts.target);
  const owners = opts.owners ?? publishedOwners(db);
  const usernames = new Map(owners.map((o) => [o.userId, o.username]));
  const batches = Array.from({ length: Math.ceil(owners.length / BATCH_SIZE) }, (_, i) => owners.slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE).map((o) => o.userId));
  const database = databaseFile(db);
  const threads = database === null ? 1 : Math.max(1, Math.min(opts.threads ?? availableParallelism(), batches.length));
  const onWorkers = database !== null && (threads > 1 || opts.offMainThread === true);
  // Built here once: workers find every shared asset on disk and never race to write one.
  const assets = ensureSharedAssets(opts.publishedDir);
  const settings: RenderSettings = {
    publishedDir: opts.publishedDir,
    origin: opts.origin,
    apiOrigin: opts.apiOrigin ?? opts.origin,
    assets,
    fingerprint: templateFingerprint(assets),
  };
  // sitemap.xml and robots.txt are rewritten while the pages render, once the first batch is in
  // place (the threads have their next batches by then): the main thread only hands out batches
  // meanwhile, and a republish that ended with them waited 10-15 ms more on a busy machine (ADR 097).
  let seo: Promise<void> | null = null;
  const writeSeo = () => {
    const p = new Promise((resolve) => setImmediate(resolve)).then(() => void writeSeoFiles(db, opts.publishedDir, opts.origin));
    // Awaited below once every page is durable; if a page fails first, that failure is the one reported.
    p.catch(ignore);
    return p;
  };
  let done = 0;
  await distribute(
    onWorkers ? threads : 0,
    { settings, database: database ?? "" },
    handOut(batches),
    (slice) => stageRenderedBatch(streamPublishedBatch(db, slice), settings),
    pageLockOf(db, settings),
    (n, swapped) => {
      done += n;
      if (swapped.length > 0) opts.target?.pagesWritten?.(swapped.map((id) => usernames.get(id)!));
      seo ??= writeSeo();
      opts.onProgress?.(done, owners.length);
    },
  );
  await seo;
  // A whole republish leaves suspended pages as suspended, whatever the folder held (ADR 108).
  if (!opts.owners) writeSuspendedPages(db, opts.publishedDir, new Date());
  return done;
}

/**
 * A bulk re-render into a bucket (ADR 135): every page (suspended pages as the unavailable page, when
 * the whole site is re-rendered) through the target, a few at a time, then the sitemap and
 * robots.txt. Throws RepublishError at the end when any page could not be put.
 */
async function republishToBucket(db: Db, opts: RepublishOptions, target: PublishTarget): Promise<number> {
  const owners = opts.owners ?? [...publishedOwners(db), ...suspendedOwners(db)];
  const logFailure = opts.logFailure ?? ((line: string) => console.error(line));
  const result = await republishIntoTarget(
    db,
    owners,
    { publishedDir: opts.publishedDir, origin: opts.origin, apiOrigin: opts.apiOrigin, pagesOrigin: opts.pagesOrigin, assets: ensureSharedAssets(opts.publishedDir), target, now: new Date() },
    (n, total) => opts.onProgress?.(n, total),
    logFailure,
  );
  const failed = result.failed.map((username) => `/${username}`);
  try {
    // Put whether or not they changed on disk: a bucket that missed them (a failed run, a new
    // bucket) has them again.
    writeSeoFiles(db, opts.publishedDir, opts.pagesOrigin ?? opts.origin);
    await throughTarget(target, (writer) => writer.putFiles(seoFilesOnDisk(opts.publishedDir)));
  } catch (err) {
    logFailure(`Could not put sitemap.xml and robots.txt: ${err instanceof Error ? err.message : String(err)}`);
    failed.push("sitemap.xml");
  }
  if (failed.length > 0) throw new RepublishError(result.done, failed);
  return result.done;
}
