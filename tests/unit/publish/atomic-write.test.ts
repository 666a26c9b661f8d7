/**
 * The file-replacement primitives publish and republish rely on.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileIsCurrent, replaceFilesDurably, writeFileAtomic } from "#renderer/atomic-write.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "plinth-atomic-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("replaces a file, creating its folders, with the given modification time and no temporary file left", () => {
    const path = join(dir, "a", "b", "index.html");
    writeFileAtomic(path, "old");
    const at = new Date("2026-01-02T03:04:05.678Z");
    writeFileAtomic(path, "new", { mtime: at });
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(Math.round(statSync(path).mtimeMs)).toBe(at.getTime());
    expect(readdirSync(join(dir, "a", "b"))).toEqual(["index.html"]);
  });
});

describe("replaceFilesDurably", () => {
  it("replaces every file and leaves no temporary file", async () => {
    const writes = Array.from({ length: 30 }, (_, i) => ({ path: join(dir, `p${i % 10}`, i < 10 ? "qr.svg" : i < 20 ? "x.vcf" : "index.html"), content: `v${i}` }));
    await replaceFilesDurably(writes);
    for (const w of writes) expect(readFileSync(w.path, "utf8")).toBe(w.content);
    for (let i = 0; i < 10; i++) expect(readdirSync(join(dir, `p${i}`)).sort()).toEqual(["index.html", "qr.svg", "x.vcf"]);
  });

  it("changes nothing when a file cannot be written, and cleans up its temporary files", async () => {
    mkdirSync(join(dir, "ok"));
    writeFileSync(join(dir, "ok", "index.html"), "old");
    writeFileSync(join(dir, "other"), "old");
    // The second file cannot be created (its folder is a file): the first must not be swapped in either.
    const bad = { path: join(dir, "other", "index.html"), content: "new" };
    await expect(replaceFilesDurably([{ path: join(dir, "ok", "index.html"), content: "new" }, bad])).rejects.toThrow();
    expect(readFileSync(join(dir, "ok", "index.html"), "utf8")).toBe("old");
    expect(readdirSync(join(dir, "ok"))).toEqual(["index.html"]);
    expect(readFileSync(join(dir, "other"), "utf8")).toBe("old");
  });
});

describe("fileIsCurrent", () => {
  it("trusts a content-named file that exists, and a marker inside a file", () => {
    const path = join(dir, "qr.svg");
    expect(fileIsCurrent(path, { path: "qr.svg", content: "x", unchangedIf: "<desc>a</desc>" })).toBe(false);
    writeFileSync(path, "<svg><desc>a</desc></svg>");
    expect(fileIsCurrent(path, { path: "qr.svg", content: "x", unchangedIf: "<desc>a</desc>" })).toBe(true);
    expect(fileIsCurrent(path, { path: "qr.svg", content: "x", unchangedIf: "<desc>b</desc>" })).toBe(false);
    expect(fileIsCurrent(path, { path: "qr.svg", content: "x", immutable: true })).toBe(true);
    expect(fileIsCurrent(path, { path: "qr.svg", content: "x" })).toBe(false);
  });
});
