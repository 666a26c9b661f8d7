/**
 * The repository explains itself: code, tests and docs cite only files of this repository
 * (docs/product.md, docs/architecture.md, docs/decisions/), and every source path a comment or a doc
 * names exists. ADRs are a record of their day: a superseded one may name a file that has since gone,
 * so docs/decisions/ is checked for outside citations only.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const TRACKED = execFileSync("git", ["ls-files", "core", "db", "api", "renderer", "editor", "scripts", "tests", "docs", "README.md"], { cwd: ROOT, encoding: "utf8" })
  .split("\n")
  .filter((f) => /\.(ts|tsx|mjs|astro|sh|css|md)$/.test(f));
const read = (f: string) => readFileSync(resolve(ROOT, f), "utf8");
/** This file names outside files and a missing path on purpose, to test the checks. */
const CHECKED = TRACKED.filter((f) => f !== "tests/unit/docs/citations.test.ts");

/**
 * Files that live outside the repository, and citing a numbered section of an outside document. The
 * names are put together here so that this file does not cite them itself.
 */
const OUTSIDE = new RegExp(
  [
    ...["DESIGN", "product-spec", "STYLE"].map((name) => String.raw`\b${name}\.md\b`),
    String.raw`(?<![\w/-])${"decisions"}\.md\b`,
    String.raw`\bspec(ification)?\s+(?:[*#>/]+\s*)?sections?\s+\d`,
  ].join("|"),
  "i",
);
/** A path from the repository's root, as comments and docs write them. */
const PATH = /(?<![\w./@#-])((?:core|db|api|renderer|editor|scripts|tests|docs)\/[\w./[\]-]*\.(?:tsx|ts|mjs|json|md|astro|sh|css|conf|yml|sql))(?![\w])/g;

describe("citations", () => {
  it("nothing cites a file outside the repository", () => {
    // Pairs of lines too, so a citation broken over a line end is found.
    const found = CHECKED.flatMap((f) => {
      const lines = read(f).split("\n");
      return lines.flatMap((line, i) => (OUTSIDE.test(`${line} ${lines[i + 1] ?? ""}`) ? [`${f}:${i + 1}: ${line.trim()}`] : []));
    });
    expect(found).toEqual([]);
  });

  it("every source path named in code, tests and docs exists (ADRs excepted)", () => {
    const missing = CHECKED.filter((f) => !f.startsWith("docs/decisions/")).flatMap((f) =>
      [...read(f).matchAll(PATH)].map((m) => m[1]!.replace(/\.$/, "")).filter((p) => !existsSync(resolve(ROOT, p))).map((p) => `${f} names ${p}`),
    );
    expect(missing).toEqual([]);
  });

  it("the checks see a missing path and an outside citation", () => {
    expect([..."see api/no-such-file.ts here".matchAll(PATH)].map((m) => m[1])).toEqual(["api/no-such-file.ts"]);
    expect(OUTSIDE.test(["(spec", "section 5)"].join(" "))).toBe(true);
    expect(OUTSIDE.test(["(spec", " * section 5)"].join("\n"))).toBe(true);
    expect(OUTSIDE.test("docs/decisions/README.md")).toBe(false);
    for (const name of ["DESIGN", "decisions", "STYLE"]) expect(OUTSIDE.test(`see ${name}.md`), name).toBe(true);
  });
});
