/**
 * The file-replacement primitives publish and republish rely on.
 */
import { closeSync, fstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileIsCurrent, replaceFilesSync, stageFiles, swapStaged, syncFoldersOf, syncStaged, writeFileAtomic, type PendingWrite } from "#renderer/atomic-write.ts";

/** The bulk path as republish runs it: stage, fsync on the thread pool, swap in, fsync the folders. */
async function replaceFilesDurably(writes: PendingWrite[]): Promise<void> {
  const staged = stageFiles(writes);
  await syncStaged(staged);
  swapStaged(staged);
  await syncFoldersOf(staged);
}

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

/** Everything a descriptor reads from the start of its file, whatever the file's name now points to. */
function readHeld(fd: number): string {
  const buf = Buffer.alloc(1 << 16);
  let n = 0;
  for (let r; (r = readSync(fd, buf, n, buf.length - n, n)) > 0; ) n += r;
  return buf.subarray(0, n).toString("utf8");
}

describe("a new file for every swap (ADR 097)", () => {
  it.each([
    ["writeFileAtomic", async (path: string, content: string) => writeFileAtomic(path, content)],
    ["replaceFilesSync", async (path: string, content: string) => replaceFilesSync([{ path, content }])],
    ["replaceFilesDurably", (path: string, content: string) => replaceFilesDurably([{ path, content }])],
  ])("%s: a reader holding the old file reads the old version, byte for byte, across many later swaps", async (_, replace) => {
    const path = join(dir, "page", "index.html");
    const first = `first version ${"x".repeat(5000)}`;
    await replace(path, first);
    const fd = openSync(path, "r");
    try {
      const heldIno = fstatSync(fd).ino;
      for (let i = 0; i < 40; i++) {
        // Shorter and longer versions alike: nothing of a later one may reach the held file.
        await replace(path, i % 2 ? `v${i}` : `version ${i} ${"y".repeat(9000)}`);
        expect(statSync(path).ino).not.toBe(heldIno);
        expect(readHeld(fd)).toBe(first);
      }
      expect(readFileSync(path, "utf8")).toBe("v39");
      expect(readdirSync(join(dir, "page"))).toEqual(["index.html"]);
    } finally {
      closeSync(fd);
    }
  });
});

// The bulk path (fsyncs on the thread pool) and a publish's (on this thread) keep the same promises.
describe.each([
  ["replaceFilesDurably", replaceFilesDurably],
  ["replaceFilesSync", async (writes: PendingWrite[]) => replaceFilesSync(writes)],
])("%s", (_, replaceFiles) => {
  it("replaces every file and leaves no temporary file", async () => {
    const writes = Array.from({ length: 30 }, (_, i) => ({ path: join(dir, `p${i % 10}`, i < 10 ? "qr.svg" : i < 20 ? "x.vcf" : "index.html"), content: `v${i}` }));
    await replaceFiles(writes);
    for (const w of writes) expect(readFileSync(w.path, "utf8")).toBe(w.content);
    for (let i = 0; i < 10; i++) expect(readdirSync(join(dir, `p${i}`)).sort()).toEqual(["index.html", "qr.svg", "x.vcf"]);
  });

  it("changes nothing when a file cannot be written, and cleans up its temporary files", async () => {
    mkdirSync(join(dir, "ok"));
    writeFileSync(join(dir, "ok", "index.html"), "old");
    writeFileSync(join(dir, "other"), "old");
    // The second file cannot be created (its folder is a file): the first must not be swapped in either.
    const bad = { path: join(dir, "other", "index.html"), content: "new" };
    await expect(replaceFiles([{ path: join(dir, "ok", "index.html"), content: "new" }, bad])).rejects.toThrow();
    expect(readFileSync(join(dir, "ok", "index.html"), "utf8")).toBe("old");
    expect(readdirSync(join(dir, "ok"))).toEqual(["index.html"]);
    expect(readFileSync(join(dir, "other"), "utf8")).toBe("old");
  });
});

describe("fileIsCurrent", () => {
  it("trusts a content-named file that exists, and nothing else", () => {
    const path = join(dir, "qr-abc.svg");
    expect(fileIsCurrent(path, { path: "qr-abc.svg", content: "x", immutable: true })).toBe(false);
    writeFileSync(path, "<svg></svg>");
    expect(fileIsCurrent(path, { path: "qr-abc.svg", content: "x", immutable: true })).toBe(true);
    // A file whose name does not say what it holds is always written.
    expect(fileIsCurrent(path, { path: "qr-abc.svg", content: "x" })).toBe(false);
    // A directory, or a link to elsewhere, in its place is not the file.
    mkdirSync(join(dir, "qr-dir.svg"));
    expect(fileIsCurrent(join(dir, "qr-dir.svg"), { path: "qr-dir.svg", content: "x", immutable: true })).toBe(false);
    symlinkSync(path, join(dir, "qr-link.svg"));
    expect(fileIsCurrent(join(dir, "qr-link.svg"), { path: "qr-link.svg", content: "x", immutable: true })).toBe(false);
  });
});
