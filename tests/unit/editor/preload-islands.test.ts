/**
 * ADR 256: a page with a client-only island preloads the island's and its renderer's static imports,
 * and nothing they load with import(); a page whose islands hydrate otherwise is left as it was.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { withIslandPreloads } from "#scripts/lib/preload-islands.ts";

const site = mkdtempSync(join(tmpdir(), "plinth-preload-"));
afterAll(() => rmSync(site, { recursive: true, force: true }));
mkdirSync(join(site, "_astro"));
const modules: Record<string, string> = {
  "App.js": `import{a}from"./shared.js";import"./side.js";export{b}from"./reexported.js";const s=()=>import("./Screen.js");console.log(import.meta.url,"from\\"./not-an-import.js\\"");export default a;`,
  "shared.js": `import{c}from"./deeper.js";export const a=c;`,
  "deeper.js": `export const c=1;`,
  "side.js": `import"./shared.js";`,
  "reexported.js": `export const b=2;`,
  "Screen.js": `import{a}from"./screen-only.js";export default a;`,
  "screen-only.js": `export const a=3;`,
  "client.js": `import{r}from"./react.js";export default r;`,
  "react.js": `export const r=4;`,
};
for (const [name, code] of Object.entries(modules)) writeFileSync(join(site, "_astro", name), code);

const island = (client: string) =>
  `<astro-island uid="x" component-url="/_astro/App.js" component-export="default" renderer-url="/_astro/client.js" props="{}" ssr client="${client}"></astro-island>`;
const page = (body: string) => `<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`;
const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]).sort();

describe("module preloads for client-only islands", () => {
  it("names every static import of the island and its renderer, in the head, and no import()", async () => {
    const html = await withIslandPreloads(site, page(island("only")));
    expect(preloads(html)).toEqual(
      ["App.js", "client.js", "deeper.js", "react.js", "reexported.js", "shared.js", "side.js"].map((f) => `/_astro/${f}`),
    );
    expect(html.indexOf("modulepreload")).toBeLessThan(html.indexOf("</head>"));
  });

  it("leaves a page without a client-only island as it was", async () => {
    for (const html of [page(island("visible")), page(island("load")), page("<p>No island</p>")]) {
      expect(await withIslandPreloads(site, html)).toBe(html);
    }
  });
});
