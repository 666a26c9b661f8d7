/**
 * A rendered page as the files to write, in order: per-page files whose content changed, then
 * index.html, whose mtime is the instant it was rendered for (its Last-Modified). Each text
 * file is preceded by its compressed copies (ADR 054), so a page's copies are in place before the
 * page is swapped in; a bulk re-render writes none (ADR 057). Shared by publish (one page) and republish (many pages, in worker threads):
 * no database here.
 */
import { join } from "node:path";
import type { PagePlan, PageSnapshot } from "#core/model.ts";
import { contentOf, fileIsCurrent, type PendingWrite } from "./atomic-write.ts";
import { withCompressedCopies } from "./precompress.ts";
import { renderPage } from "./render.tsx";
import type { AssetManifest } from "./types.ts";

export interface PageWriteOptions {
  publishedDir: string;
  origin: string;
  apiOrigin?: string;
  now: Date;
  assets: AssetManifest;
  /** Whether text files get compressed copies: a single publish does; a bulk re-render does not (ADR 057). */
  compressedCopies?: boolean;
}

export function pageWrites(snapshot: PageSnapshot, plan: PagePlan, opts: PageWriteOptions): PendingWrite[] {
  const dir = join(opts.publishedDir, snapshot.profile.username);
  const page = renderPage({
    snapshot,
    plan,
    now: opts.now,
    origin: opts.origin,
    apiOrigin: opts.apiOrigin ?? opts.origin,
    mode: "published",
    assets: opts.assets,
  });
  const withCopies = (w: PendingWrite) => (opts.compressedCopies === false ? [w] : withCompressedCopies(w));
  const writes: PendingWrite[] = [];
  for (const file of page.files) {
    const path = join(dir, file.path);
    // Named by its content: when it exists, its copies were swapped in before it.
    if (!fileIsCurrent(path, file)) writes.push(...withCopies({ path, content: contentOf(file), mtime: opts.now }));
  }
  // The page itself is a new file on every publish, as are its compressed copies (ADR 097).
  writes.push(...withCopies({ path: join(dir, "index.html"), content: page.html, mtime: opts.now }));
  return writes;
}
