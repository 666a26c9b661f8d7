/**
 * `npm run build:visitor`: bundles the published page's own script (renderer/visitor/) into
 * build/visitor.js, part of `npm run build`. The renderer only reads the built file, so nothing is
 * bundled while the server runs.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { VISITOR_SCRIPT_ENTRY, VISITOR_SCRIPT_FILE } from "#renderer/assets.ts";

export async function buildVisitorScript(): Promise<void> {
  await build({
    entryPoints: [VISITOR_SCRIPT_ENTRY],
    outfile: VISITOR_SCRIPT_FILE,
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2020",
    logLevel: "warning",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildVisitorScript();
