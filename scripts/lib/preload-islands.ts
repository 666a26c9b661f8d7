/**
 * A step of `npm run build` (an Astro integration in astro.config.mjs, before the compressed copies
 * are made). A page whose island draws only in the browser (`client:only`: the dashboard, the admin
 * console, the billing pages) names every module of the island's static imports, and of its
 * renderer's, in `<link rel="modulepreload">`. The browser then fetches them all at once, instead of
 * finding them one level of imports at a time, a round trip each (ADR 256). What the island loads
 * with `import()` still loads on first use (ADR 131).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { init, parse } from "es-module-lexer";
import { filesUnder } from "./precompress-site.ts";

const ISLAND = /<astro-island\b[^>]*>/g;
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** The site paths of `entries` and of every module they import statically, in the order found. */
export async function staticImports(siteDir: string, entries: string[]): Promise<string[]> {
  await init;
  const found = new Set<string>();
  async function visit(path: string): Promise<void> {
    if (found.has(path)) return;
    found.add(path);
    const [imports] = parse(await readFile(join(siteDir, path), "utf8"));
    // d is -1 for a static import or re-export; import() and import.meta are left out.
    for (const i of imports) if (i.d === -1 && i.n?.startsWith(".")) await visit(new URL(i.n, `http://site${path}`).pathname);
  }
  for (const entry of entries) await visit(entry);
  return [...found];
}

/** The page with its client-only islands' modules preloaded; the page itself when it has none. */
export async function withIslandPreloads(siteDir: string, html: string): Promise<string> {
  const entries = (html.match(ISLAND) ?? [])
    .filter((tag) => attribute(tag, "client") === "only")
    .flatMap((tag) => [attribute(tag, "renderer-url"), attribute(tag, "component-url")])
    .filter((url): url is string => !!url?.startsWith("/"));
  if (entries.length === 0) return html;
  const links = (await staticImports(siteDir, entries)).map((path) => `<link rel="modulepreload" href="${path}">`).join("");
  return html.replace("</head>", `${links}</head>`);
}

/** The integration: runs once the site is written. */
export function preloadIslands(): AstroIntegration {
  return {
    name: "plinth-preload-islands",
    hooks: {
      "astro:build:done": async ({ dir, logger }) => {
        const siteDir = fileURLToPath(dir);
        let n = 0;
        for (const page of await filesUnder(siteDir, (name) => name.endsWith(".html"))) {
          const html = await readFile(page, "utf8");
          const next = await withIslandPreloads(siteDir, html);
          if (next === html) continue;
          await writeFile(page, next);
          n++;
        }
        logger.info(`module preloads on ${n} pages`);
      },
    },
  };
}
