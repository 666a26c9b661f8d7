/**
 * A TypeScript entry point as one plain JavaScript module for child processes that tests start
 * many times: `node file.mjs` starts in a fraction of the time `node --import tsx` takes, since
 * nothing is compiled at startup. Packages stay imports (renderer/bundle-cache.ts).
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { cachedBundle } from "#renderer/bundle-cache.ts";

/**
 * Our modules find their neighbours (migrations, the visitor script, the republish worker) through
 * import.meta.url; in a bundle that would name the bundle, so each keeps its own source file's URL.
 */
const keepImportMetaUrl: Plugin = {
  name: "keep-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (args.path.includes("/node_modules/")) return undefined;
      const source = readFileSync(args.path, "utf8");
      return {
        contents: source.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith(".tsx") ? "tsx" : "ts",
      };
    });
  },
};

export async function bundleForNode(entry: string): Promise<string> {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    jsx: "automatic",
    write: false,
    logLevel: "silent",
    plugins: [keepImportMetaUrl],
  });
  return cachedBundle(basename(entry).replace(/\.tsx?$/, ""), out.outputFiles[0]!.contents);
}
