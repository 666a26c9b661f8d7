/**
 * The file-replacement primitives publish and republish rely on.
 */
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { commitStaged, fileIsCurrent, replaceFilesDurably, stageFile, writeFileAtomic } from "#renderer/atomic-write.ts";
import { fileSystemSync } from "#renderer/fs-sync.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "plinth-atomic-"));
});
afterEach(() => {
  vi.unstubAllEnvs();
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

describe("recycling the replaced file (ADR 028)", () => {
  const ino = (p: string) => statSync(p).ino;

  it("keeps the file it replaces as a spare, and fills a rested spare instead of creating a file", async () => {
    const path = join(dir, "page", "index.html");
    writeFileAtomic(path, "first version", { recycle: true });
    const first = ino(path);
    writeFileAtomic(path, "second version", { recycle: true });
    const second = ino(path);
    expect(readdirSync(join(dir, "page")).sort()).toEqual([".spare-index.html", "index.html"]);
    expect(ino(join(dir, "page", ".spare-index.html"))).toBe(first);
    expect(readFileSync(join(dir, "page", ".spare-index.html"), "utf8")).toBe("first version");

    vi.stubEnv("PLINTH_SPARE_REST_MS", "0");
    // Shorter than what the spare held: nothing of the old content may remain.
    writeFileAtomic(path, "third", { recycle: true, mtime: new Date("2026-01-01T00:00:00Z") });
    expect(ino(path)).toBe(first);
    expect(readFileSync(path, "utf8")).toBe("third");
    expect(statSync(path).mtime.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(ino(join(dir, "page", ".spare-index.html"))).toBe(second);

    await replaceFilesDurably([{ path, content: "fourth, through the bulk path", recycle: true }]);
    expect(ino(path)).toBe(second);
    expect(readFileSync(path, "utf8")).toBe("fourth, through the bulk path");
    expect(readdirSync(join(dir, "page")).sort()).toEqual([".spare-index.html", "index.html"]);
  });

  it("leaves a spare alone until it has rested, so a reader of the old page is never overwritten", () => {
    const path = join(dir, "index.html");
    for (const v of ["one", "two"]) writeFileAtomic(path, v, { recycle: true });
    const spare = ino(join(dir, ".spare-index.html"));
    writeFileAtomic(path, "three", { recycle: true });
    expect(ino(path)).not.toBe(spare);
    expect(readFileSync(path, "utf8")).toBe("three");
  });

  it("never fills a spare that has another name", () => {
    vi.stubEnv("PLINTH_SPARE_REST_MS", "0");
    const path = join(dir, "index.html");
    for (const v of ["one", "two"]) writeFileAtomic(path, v, { recycle: true });
    // What an interrupted write can leave: a second name for the file that became the spare.
    linkSync(join(dir, ".spare-index.html"), join(dir, ".tmp-leftover"));
    const shared = ino(join(dir, ".spare-index.html"));
    writeFileAtomic(path, "three", { recycle: true });
    expect(ino(path)).not.toBe(shared);
    expect(readFileSync(join(dir, ".tmp-leftover"), "utf8")).toBe("one");
    expect(readFileSync(path, "utf8")).toBe("three");
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

describe("committing a batch with one file-system sync (ADR 029)", () => {
  const sync = fileSystemSync();

  it("is there on Linux, and syncs a real file system", async () => {
    expect(process.platform).toBe("linux");
    expect(sync).not.toBeNull();
    await expect(sync!(dir)).resolves.toBeUndefined();
  });

  it("refuses a path it cannot sync, and one that would break its protocol", async () => {
    await expect(sync!(join(dir, "no", "such", "folder"))).rejects.toThrow(/sync --file-system failed/);
    await expect(sync!(`${dir}\n/`)).rejects.toThrow(/line break/);
    // The helper still answers after a failure.
    await expect(sync!(dir)).resolves.toBeUndefined();
  });

  it("swaps every staged file in after the sync and leaves no temporary file", async () => {
    const calls: string[] = [];
    const counting = {
      sync: (p: string) => {
        calls.push(p);
        return sync!(p);
      },
      path: dir,
    };
    const paths = [join(dir, "p1", "qr.svg"), join(dir, "p1", "index.html"), join(dir, "p2", "index.html")];
    await commitStaged(paths.map((path, i) => stageFile({ path, content: `v${i}` })), counting);
    paths.forEach((p, i) => expect(readFileSync(p, "utf8")).toBe(`v${i}`));
    expect(readdirSync(join(dir, "p1")).sort()).toEqual(["index.html", "qr.svg"]);
    // Once before the renames (the new bytes), once after (the renames).
    expect(calls).toEqual([dir, dir]);
  });

  it("changes nothing when the first sync fails, and removes the staged files", async () => {
    writeFileAtomic(join(dir, "p", "index.html"), "old");
    const failing = { sync: () => Promise.reject(new Error("disk gone")), path: dir };
    await expect(commitStaged([stageFile({ path: join(dir, "p", "index.html"), content: "new" })], failing)).rejects.toThrow("disk gone");
    expect(readFileSync(join(dir, "p", "index.html"), "utf8")).toBe("old");
    expect(readdirSync(join(dir, "p"))).toEqual(["index.html"]);
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
