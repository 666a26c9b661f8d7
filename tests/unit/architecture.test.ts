/**
 * docs/architecture.md's dependency table, checked: every import of every source file points only where its
 * folder may import. core knows nothing of ours; the editor never touches the database and takes only
 * types from the API; the renderer never knows about HTTP.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const LAYERS = ["core", "db", "api", "renderer", "editor"] as const;
type Layer = (typeof LAYERS)[number];

const MAY_IMPORT: Record<Layer, Layer[]> = {
  core: ["core"],
  db: ["db", "core"],
  api: ["api", "core", "db", "renderer"],
  renderer: ["renderer", "core", "db"],
  editor: ["editor", "core", "api", "renderer"],
};

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(ts|tsx|astro|mjs)$/.test(entry.name) || /\.d\.ts$/.test(entry.name)) continue;
    const path = relative(ROOT, join(entry.parentPath, entry.name));
    if (!path.includes("node_modules")) out.push(path);
  }
  return out;
}

interface Import {
  file: string;
  spec: string;
  typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const found: Import[] = [];
  const re = /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
  for (const m of text.matchAll(re)) found.push({ file, spec: (m[3] ?? m[4])!, typeOnly: !!m[2] });
  return found;
}

/** The layer an import lands in, or null for a package. */
function layerOf(imp: Import): Layer | "other" | null {
  let target: string;
  if (imp.spec.startsWith("#")) target = imp.spec.slice(1);
  else if (imp.spec.startsWith(".")) target = relative(ROOT, resolve(ROOT, dirname(imp.file), imp.spec));
  else return null;
  // The project's own package.json (its name and version) belongs to everyone.
  if (target === "package.json") return null;
  const top = target.split("/")[0] as Layer;
  return LAYERS.includes(top) ? top : "other";
}

/** The "may import" table of docs/architecture.md, read from the document itself. */
function documentedTable(): Record<string, string[]> {
  const text = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  const start = text.indexOf("| layer | may import |");
  expect(start).toBeGreaterThan(-1);
  const rows = text.slice(start).split("\n").slice(2);
  const table: Record<string, string[]> = {};
  for (const row of rows) {
    const m = /^\|\s*`(\w+)`\s*\|(.*)\|\s*$/.exec(row);
    if (!m) break;
    table[m[1]!] = [...new Set(m[2]!.match(/\b(core|db|api|renderer|editor)\b/g) ?? [])].sort();
  }
  return table;
}

const all = LAYERS.flatMap((l) => sources(l).map((file) => ({ layer: l, file })));

describe("what may import what (docs/architecture.md)", () => {
  it("checks the table the architecture document states", () => {
    const sorted = Object.fromEntries(LAYERS.map((l) => [l, [...MAY_IMPORT[l]].sort()]));
    expect(documentedTable()).toEqual(sorted);
  });

  it("finds the source files and their imports", () => {
    expect(all.length).toBeGreaterThan(100);
    expect(importsOf("api/app.ts").some((i) => i.spec.startsWith("./routes/"))).toBe(true);
  });

  it.each(LAYERS)("%s imports only what its row allows", (layer) => {
    const wrong: string[] = [];
    for (const { file } of all.filter((f) => f.layer === layer)) {
      for (const imp of importsOf(file)) {
        const target = layerOf(imp);
        if (target === null) continue;
        if (target === "other" || !MAY_IMPORT[layer].includes(target)) wrong.push(`${file} -> ${imp.spec}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("the editor takes only types from the API, and never touches the database or the server's packages", () => {
    const wrong: string[] = [];
    for (const { file } of all.filter((f) => f.layer === "editor")) {
      for (const imp of importsOf(file)) {
        if (layerOf(imp) === "api" && !imp.typeOnly) wrong.push(`${file} -> ${imp.spec}`);
        if (/^(better-sqlite3|drizzle-orm|sharp|nodemailer|@node-rs\/argon2|node:)/.test(imp.spec)) wrong.push(`${file} -> ${imp.spec}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("the renderer's page components know nothing of HTTP or the database", () => {
    const wrong: string[] = [];
    for (const { file } of all.filter((f) => f.file.startsWith("renderer/components/"))) {
      for (const imp of importsOf(file)) {
        if (layerOf(imp) === "db" || /^(hono|better-sqlite3|drizzle-orm|node:)/.test(imp.spec)) wrong.push(`${file} -> ${imp.spec}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  /** Every module of ours that `file` reaches through its imports (relative and #-aliased). */
  function reach(file: string): Set<string> {
    const seen = new Set<string>();
    const stack = [file];
    while (stack.length) {
      const at = stack.pop()!;
      for (const imp of importsOf(at)) {
        if (imp.typeOnly) continue;
        let target: string;
        if (imp.spec.startsWith("#")) target = imp.spec.slice(1);
        else if (imp.spec.startsWith(".")) target = relative(ROOT, resolve(ROOT, dirname(at), imp.spec));
        else continue;
        if (!/\.(ts|tsx)$/.test(target) || seen.has(target)) continue;
        seen.add(target);
        stack.push(target);
      }
    }
    return seen;
  }

  it("billing and the affiliate programme do not import each other: affiliate builds on billing, billing never reaches affiliate", () => {
    expect(reach("api/services/affiliate.ts").has("api/services/billing.ts")).toBe(true);
    expect([...reach("api/services/billing.ts")].filter((f) => f === "api/services/affiliate.ts")).toEqual([]);
  });

  it("the job runner does not reach the billing service, which queues jobs and runs them: no import loop", () => {
    expect(reach("api/services/billing.ts").has("api/jobs/runner.ts")).toBe(true);
    expect(reach("api/jobs/runner.ts").has("api/services/billing.ts")).toBe(false);
  });

  it("the job queue knows nothing of the services that use it", () => {
    expect([...reach("api/jobs/queue.ts")].filter((f) => !f.startsWith("db/") && !f.startsWith("core/"))).toEqual([]);
  });

  it("nothing the server runs bundles code or sets V8 flags: the visitor script is built by npm run build", () => {
    const wrong = ["api", "renderer", "db", "core"].flatMap(sources).filter(
      (file) => importsOf(file).some((i) => /^(esbuild|vite|rollup)\b/.test(i.spec)) || readFileSync(join(ROOT, file), "utf8").includes("setFlagsFromString"),
    );
    expect(wrong).toEqual([]);
  });

  it("every session is made through beginSession (api/auth/sign-in.ts), the one door that refuses a suspended account (ADR 109, 117)", () => {
    const makers = ["api", "renderer", "db"].flatMap(sources).filter((file) => /\bcreateSession\(|\binsert\(sessions\)/.test(readFileSync(join(ROOT, file), "utf8")));
    expect(makers.sort()).toEqual(["api/auth/session.ts", "api/auth/sign-in.ts"]);
  });

  it("every transaction of the server and the renderer takes the write lock at BEGIN (db/client.ts), so one that reads first is never refused SQLITE_BUSY by another connection's write", () => {
    const deferred = ["api", "renderer", "db"].flatMap(sources).filter((file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      // A better-sqlite3 transaction called plainly runs deferred; .immediate() takes the lock.
      return [...text.matchAll(/\.transaction\(/g)].some((m) => {
        let depth = 0;
        let i = m.index + ".transaction".length;
        do {
          if (text[i] === "(") depth++;
          else if (text[i] === ")") depth--;
          i++;
        } while (depth > 0 && i < text.length);
        return !/^\s*\.immediate\(/.test(text.slice(i));
      });
    });
    expect(deferred).toEqual([]);
  });
});
