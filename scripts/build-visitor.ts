/**
 * `npm run build:visitor`: bundles the published page's own script (renderer/visitor/) into
 * build/visitor.js, part of `npm run build`. The renderer only reads the built file, so nothing is
 * bundled while the server runs. The file is replaced whole (written beside it, then renamed), so a
 * test or a seed reading it while another process builds it never reads half a script.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { VISITOR_SCRIPT_ENTRY, VISITOR_SCRIPT_FILE } from "#renderer/assets.ts";

export async function buildVisitorScript(): Promise<void> {
  const { outputFiles } = await build({
    entryPoints: [VISITOR_SCRIPT_ENTRY],
    outfile: VISITOR_SCRIPT_FILE,
    write: false,
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2020",
    logLevel: "warning",
  });
  const temporary = `${VISITOR_SCRIPT_FILE}.${process.pid}.tmp`;
  mkdirSync(dirname(VISITOR_SCRIPT_FILE), { recursive: true });
  writeFileSync(temporary, outputFiles[0]!.contents);
  renameSync(temporary, VISITOR_SCRIPT_FILE);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildVisitorScript();
