/**
 * Shared, content-hashed assets of every published page (visitor script, favicon, font files),
 * written once under PUBLISHED_DIR/_p/ and referenced by URL from each page.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FONT_PAIRINGS } from "#core/themes.ts";
import { addCompressedCopies, hasCompressedCopies, writeWithCompressedCopies } from "./precompress.ts";
import type { AssetManifest } from "./types.ts";

const here = dirname(fileURLToPath(import.meta.url));
/** The visitor script's source, and the bundle `npm run build` makes of it (scripts/build-visitor.ts). */
export const VISITOR_SCRIPT_ENTRY = join(here, "visitor", "main.ts");
export const VISITOR_SCRIPT_FILE = join(here, "..", "build", "visitor.js");
const require = createRequire(import.meta.url);
const cache = new Map<string, AssetManifest>();

const hash = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex").slice(0, 10);
const slug = (family: string) => family.toLowerCase().replace(/\s+/g, "-");

/**
 * Names are content hashes, so an existing file is already right; pages rely on it being durable.
 * Text files get their compressed copies (ADR 054), also when the file was written before copies
 * were made. Written once per file, so compressed as hard as a build does.
 */
function writeOnce(path: string, content: Uint8Array | string): void {
  if (!existsSync(path)) writeWithCompressedCopies(path, content, "build");
  else if (!hasCompressedCopies(path)) addCompressedCopies(path, "build");
}

export function ensureSharedAssets(publishedDir: string): AssetManifest {
  const hit = cache.get(publishedDir);
  if (hit) return hit;
  const out = join(publishedDir, "_p");
  mkdirSync(join(out, "fonts"), { recursive: true });
  if (!existsSync(VISITOR_SCRIPT_FILE)) throw new Error("The visitor script is not built: run npm run build.");
  const js = readFileSync(VISITOR_SCRIPT_FILE);
  const visitorName = `visitor.${hash(js)}.js`;
  writeOnce(join(out, visitorName), js);
  const integrity = `sha384-${createHash("sha384").update(js).digest("base64")}`;
  // The site's own favicon, so a page on any static host asks for nothing it does not have.
  const icon = readFileSync(join(here, "..", "editor", "public", "favicon.svg"));
  const faviconName = `favicon.${hash(icon)}.svg`;
  writeOnce(join(out, faviconName), icon);
  const fonts: Record<string, string[]> = {};
  const families = new Set<string>(FONT_PAIRINGS.flatMap((f) => [f.heading, f.body]));
  for (const family of families) {
    const s = slug(family);
    const urls: string[] = [];
    for (const weight of [400, 700]) {
      let file: string;
      try {
        file = require.resolve(`@fontsource/${s}/files/${s}-latin-${weight}-normal.woff2`);
      } catch {
        continue;
      }
      const bytes = readFileSync(file);
      const name = `${s}-${hash(bytes)}-${weight}.woff2`;
      writeOnce(join(out, "fonts", name), bytes);
      urls.push(`/_p/fonts/${name}`);
    }
    fonts[family] = urls;
  }
  const manifest: AssetManifest = { visitorScript: { src: `/_p/${visitorName}`, integrity }, favicon: `/_p/${faviconName}`, fonts };
  cache.set(publishedDir, manifest);
  return manifest;
}
