/**
 * The renderer's contract with the publish pipeline and the preview route.
 */
import type { PagePlan, PageSnapshot } from "#core/model.ts";

export interface RenderInput {
  snapshot: PageSnapshot;
  plan: PagePlan;
  now: Date;
  /** Where the page is served, e.g. https://plinth.example (canonical URLs, share links). */
  origin: string;
  /** Where the visitor script sends track/lead/report calls (usually the same as origin). */
  apiOrigin: string;
  mode: "published" | "preview";
  /** URLs of the shared, content-hashed assets (visitor script, font files) under /_p/. */
  assets: AssetManifest;
}

export interface AssetManifest {
  /** e.g. "/_p/visitor.3f9a1c2b.js" */
  visitorScript: string;
  /** Font family name to the URL of its woff2 file(s). */
  fonts: Record<string, string[]>;
}

export interface PageFile {
  /** Path relative to the page's own folder, published/{username}/, e.g. "qr.svg" or "contact-abc.vcf". */
  path: string;
  content: string | Uint8Array;
}

export interface RenderedPage {
  html: string;
  /** Per-page files written before index.html is swapped in. */
  files: PageFile[];
}
