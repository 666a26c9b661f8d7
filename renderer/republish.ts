/**
 * Republish all: re-render every published page from its last published snapshot (after a template
 * change), split across worker threads that each open their own database connection. Each page is
 * swapped in atomically, exactly like a publish.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { loadDraft } from "./draft.ts";
import { lastPublishedSnapshot, writePage } from "./publish.ts";
import { writeSeoFiles } from "./seo-files.ts";
import type { AssetManifest } from "./types.ts";

/** Workers run the TypeScript worker file through tsx's loader, however the parent was started. */
function workerEntry(): URL {
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
  const file = new URL("./republish-worker.ts", import.meta.url).href;
  const code = `import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(file)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

export interface RepublishJob {
  dbPath: string;
  publishedDir: string;
  origin: string;
  userIds: string[];
}

export function publishedUserIds(db: Db): string[] {
  return db.select({ id: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.hasPublishedPage, true)).all().map((r) => r.id);
}

/** Re-render one page from its last snapshot. False when it has none. */
export function republishOne(db: Db, userId: string, publishedDir: string, origin: string, now: Date, assets?: AssetManifest): boolean {
  const last = lastPublishedSnapshot(db, userId);
  const draft = loadDraft(db, userId);
  if (!last || !draft) return false;
  writePage(last.snapshot, draft.plan, { publishedDir, origin, now, ...(assets ? { assets } : {}) });
  return true;
}

/**
 * Run the job on `threads` workers; onProgress is called with the running total of pages done.
 * Resolves with the number of pages re-rendered.
 */
export async function republishAll(
  db: Db,
  opts: { dbPath: string; publishedDir: string; origin: string; threads?: number; onProgress?: (done: number, total: number) => void },
): Promise<number> {
  const ids = publishedUserIds(db);
  const threads = Math.max(1, Math.min(opts.threads ?? availableParallelism(), ids.length));
  let done = 0;
  const chunks: string[][] = Array.from({ length: threads }, () => []);
  ids.forEach((id, i) => chunks[i % threads]!.push(id));
  await Promise.all(
    chunks.map(
      (userIds) =>
        new Promise<void>((resolve, reject) => {
          const job: RepublishJob = { dbPath: opts.dbPath, publishedDir: opts.publishedDir, origin: opts.origin, userIds };
          const worker = new Worker(workerEntry(), { workerData: job });
          worker.on("message", (n: number) => {
            done += n;
            opts.onProgress?.(done, ids.length);
          });
          worker.on("error", reject);
          worker.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`republish worker exited with ${code}`))));
        }),
    ),
  );
  if (ids.length > 0) writeSeoFiles(db, opts.publishedDir, opts.origin);
  return done;
}
