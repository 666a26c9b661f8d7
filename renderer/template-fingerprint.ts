/**
 * The template's fingerprint: a hash of what renders a page (the page components, the styles, the
 * document around them, what decides which content shows) and of the shared assets the page names
 * (the visitor script, the favicon, the fonts). A page rendered with another fingerprint is out of
 * date, and the server re-renders it in the background after an upgrade (ADR 097).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, relative } from "node:path";
import type { AssetManifest } from "./types.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const RENDERER = join(ROOT, "renderer");
const CORE = join(ROOT, "core");
const SOURCES = [
  join(RENDERER, "components"),
  ...["render.tsx", "css.ts", "escape.ts", "page-files.ts", "page-writes.ts", "types.ts"].map((f) => join(RENDERER, f)),
  // withhold-items.ts: what a version withholds is drawn as the Lite page draws it (ADR 259).
  ...["visible-content.ts", "withhold-items.ts", "themes.ts", "platforms.ts", "url-rule.ts", "color.ts", "initials.ts"].map((f) => join(CORE, f)),
];

function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((f) => filesOf(join(path, f)));
}

let last: { assets: string; fingerprint: string } | undefined;

export function templateFingerprint(assets: AssetManifest): string {
  const names = JSON.stringify(assets);
  if (last?.assets === names) return last.fingerprint;
  const hash = createHash("sha256").update(names);
  for (const file of SOURCES.flatMap(filesOf)) hash.update(`\0${relative(ROOT, file)}\0`).update(readFileSync(file));
  last = { assets: names, fingerprint: hash.digest("hex").slice(0, 32) };
  return last.fingerprint;
}
