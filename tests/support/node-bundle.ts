/**
 * A TypeScript entry point as one plain JavaScript module for child processes that tests start
 * many times: `node file.mjs` starts in a fraction of the time `node --import tsx` takes, since
 * nothing is compiled at startup. Packages stay imports: the bundle is written once under
 * node_modules/.cache/plinth/ (where they resolve), named by its content hash.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const CACHE_DIR = fileURLToPath(new URL("../../node_modules/.cache/plinth/", import.meta.url));

/** The file's path; written under a temporary name first, so a concurrent reader never sees half of it. */
function cachedBundle(name: string, code: Uint8Array): string {
  const path = join(CACHE_DIR, `${name}.${createHash("sha256").update(code).digest("hex").slice(0, 12)}.mjs`);
  if (!existsSync(path)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, path);
  }
  return path;
}

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

/** The real server (api/server.ts) as one bundle: `node <it>` starts it with the environment's settings. */
export function serverBundle(): Promise<string> {
  return bundleForNode(fileURLToPath(new URL("../../api/server.ts", import.meta.url)));
}

/** Bundled on every call (a fraction of a second), so a test always runs the sources as they are now. */
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
