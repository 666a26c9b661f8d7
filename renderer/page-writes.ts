/**
 * A rendered page as the files to write, in order: per-page files whose content changed, then
 * index.html, whose mtime is the instant it was rendered for (its Last-Modified). No compressed
 * copies: whoever serves the page compresses it (ADR 121). Shared by publish (one page) and
 * republish (many pages, in worker threads): no database here.
 */
import { join } from "node:path";
import type { PagePlan, PageSnapshot } from "#core/model.ts";
import { contentOf, fileIsCurrent, type PendingWrite } from "./atomic-write.ts";
import { renderPage } from "./render.tsx";
import type { AssetManifest, PageOrigins } from "./types.ts";

export interface PageWriteOptions extends PageOrigins {
  /** The owner's verified custom domain (RenderInput.customDomain). */
  customDomain?: string | null;
  now: Date;
  assets: AssetManifest;
}

export function pageWrites(snapshot: PageSnapshot, plan: PagePlan, opts: PageWriteOptions): PendingWrite[] {
  const dir = join(opts.publishedDir, snapshot.profile.username);
  const page = renderPage({
    snapshot,
    plan,
    now: opts.now,
    origin: opts.origin,
    apiOrigin: opts.apiOrigin ?? opts.origin,
    pagesOrigin: opts.pagesOrigin,
    customDomain: opts.customDomain,
    mode: "published",
    assets: opts.assets,
  });
  const writes: PendingWrite[] = [];
  for (const file of page.files) {
    const path = join(dir, file.path);
    // Named by its content: when it exists, it is this content.
    if (!fileIsCurrent(path, file)) writes.push({ path, content: contentOf(file), mtime: opts.now });
  }
  // The page itself is a new file on every publish (ADR 097).
  writes.push({ path: join(dir, "index.html"), content: page.html, mtime: opts.now });
  return writes;
}
