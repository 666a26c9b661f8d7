/**
 * Shared, content-hashed assets of every published page (visitor script, font files), written once
 * under PUBLISHED_DIR/_p/ and referenced by URL from each page.
 */
import type { AssetManifest } from "./types.ts";

export function ensureSharedAssets(_publishedDir: string): AssetManifest {
  return { visitorScript: "", fonts: {} };
}
