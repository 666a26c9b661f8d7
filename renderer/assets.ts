/**
 * Shared, content-hashed assets of every published page (visitor script, font files), written once
 * under PUBLISHED_DIR/_p/ and referenced by URL from each page.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { FONT_PAIRINGS } from "#core/themes.ts";
import type { AssetManifest } from "./types.ts";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const cache = new Map<string, AssetManifest>();

const hash = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex").slice(0, 10);
const slug = (family: string) => family.toLowerCase().replace(/\s+/g, "-");

function writeOnce(path: string, content: Uint8Array | string): void {
  if (existsSync(path)) return;
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  // rename is atomic; concurrent writers produce identical bytes.
  renameSync(tmp, path);
}

export function ensureSharedAssets(publishedDir: string): AssetManifest {
  const hit = cache.get(publishedDir);
  if (hit) return hit;
  const out = join(publishedDir, "_p");
  mkdirSync(join(out, "fonts"), { recursive: true });
  const bundle = buildSync({
    entryPoints: [join(here, "visitor", "main.ts")],
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2020",
    write: false,
    logLevel: "silent",
  });
  const js = bundle.outputFiles[0]!.contents;
  const visitorName = `visitor.${hash(js)}.js`;
  writeOnce(join(out, visitorName), js);
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
  const manifest: AssetManifest = { visitorScript: `/_p/${visitorName}`, fonts };
  cache.set(publishedDir, manifest);
  return manifest;
}
