/**
 * The renderer's contract with the publish pipeline and the preview route.
 */
import type { PagePlan, PageSnapshot } from "#core/model.ts";

export interface RenderInput {
  snapshot: PageSnapshot;
  plan: PagePlan;
  now: Date;
  /** The product's origin, e.g. https://plinth.example: its home and privacy pages, uploaded pictures. */
  origin: string;
  /**
   * Where visitors reach the page when that is not `origin` (a bucket's CDN, ADR 129), e.g.
   * https://pages.example: the page's canonical, Open Graph, share and QR code address.
   */
  pagesOrigin?: string;
  /**
   * The owner's verified custom domain (ADR 240), ASCII form: under a plan with `custom_domain` it
   * is the page's canonical, Open Graph, share and QR code address (https://domain/).
   */
  customDomain?: string | null;
  /**
   * The page's address, when it is the one of today rather than the one `plan` and `now` give: the
   * owner's previews (the draft, and History's past versions) show the address the page has now (ADR 244).
   */
  pageUrl?: string;
  /** Where the visitor script sends track/lead/report calls (usually the same as origin). */
  apiOrigin: string;
  mode: "published" | "preview";
  /** The preview banner's words, when not the draft's (History's preview of a version, ADR 137). */
  banner?: string;
  /** URLs of the shared, content-hashed assets (visitor script, font files) under /_p/. */
  assets: AssetManifest;
}

/** Where pages are written, and the origins they are rendered for (RenderInput's). */
export interface PageOrigins {
  publishedDir: string;
  origin: string;
  apiOrigin?: string;
  /** Where visitors reach the pages, when not `origin` (a bucket's CDN, ADR 129). */
  pagesOrigin?: string;
}

export interface AssetManifest {
  /** e.g. { src: "/_p/visitor.3f9a1c2b0d.js", integrity: "sha384-…" } (subresource integrity). */
  visitorScript: { src: string; integrity: string };
  /** e.g. "/_p/favicon.9c1e2a7f3b.svg" */
  favicon: string;
  /** Font family name to the URL of its woff2 file(s). */
  fonts: Record<string, string[]>;
}

export interface PageFile {
  /** Path relative to the page's own folder, published/{username}/, e.g. "qr-abc.svg" or "contact-abc.vcf". */
  path: string;
  /** The bytes, or a function making them (called only when the file must be written). */
  content: string | Uint8Array | (() => string | Uint8Array);
  /** The name is derived from the content: an existing file is already right. */
  immutable?: boolean;
}

export interface RenderedPage {
  html: string;
  /** Per-page files written before index.html is swapped in. */
  files: PageFile[];
}
