/**
 * The file-replacement primitives publish and republish rely on.
 */
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fileIsCurrent, GroupCommit, replaceFilesDurably, replaceFilesSync, stageFile, writeFileAtomic, type PendingWrite } from "#renderer/atomic-write.ts";
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
    const group = new GroupCommit(counting);
    await group.add(paths.map((path, i) => stageFile({ path, content: `v${i}` })), () => {});
    await group.drain();
    paths.forEach((p, i) => expect(readFileSync(p, "utf8")).toBe(`v${i}`));
    expect(readdirSync(join(dir, "p1")).sort()).toEqual(["index.html", "qr.svg"]);
    // Once before the renames (the new bytes), once after (the renames).
    expect(calls).toEqual([dir, dir]);
  });
});

describe("group commit of many batches, one sync per round (ADR 086)", () => {
  /** A sync that records what was on disk when it ran, and can be held until released. */
  function recordingSync(files: string[]) {
    const seen: string[][] = [];
    const held: (() => void)[] = [];
    let hold = false;
    return {
      seen,
      holdNext: () => (hold = true),
      release: () => held.splice(0).forEach((r) => r()),
      fsSync: {
        path: dir,
        sync: async () => {
          seen.push(files.map((f) => { try { return readFileSync(f, "utf8"); } catch { return "-"; } }));
          if (hold) {
            hold = false;
            await new Promise<void>((r) => held.push(r));
          }
        },
      },
    };
  }

  it("renames a batch only after a sync, and reports it durable only after the next one", async () => {
    const a = join(dir, "a", "index.html");
    const b = join(dir, "b", "index.html");
    writeFileAtomic(a, "a0");
    writeFileAtomic(b, "b0");
    const rec = recordingSync([a, b]);
    const group = new GroupCommit(rec.fsSync);
    const done: string[] = [];
    await group.add([stageFile({ path: a, content: "a1" })], () => done.push("a"));
    await group.add([stageFile({ path: b, content: "b1", recycle: true })], () => done.push("b"));
    await group.drain();
    expect(done).toEqual(["a", "b"]);
    expect([readFileSync(a, "utf8"), readFileSync(b, "utf8")]).toEqual(["a1", "b1"]);
    // Every sync saw the targets still old or already new, never a batch reported before its rename synced.
    expect(rec.seen[0]).toEqual(["a0", "b0"]);
    expect(rec.seen.at(-1)).toEqual(["a1", "b1"]);
    expect(readdirSync(join(dir, "a"))).toEqual(["index.html"]);
    expect(readdirSync(join(dir, "b")).sort()).toEqual([".spare-index.html", "index.html"]);
  });

  it("commits every batch staged while a sync runs in the next round, with one sync", async () => {
    const paths = Array.from({ length: 5 }, (_, i) => join(dir, `p${i}`, "index.html"));
    const rec = recordingSync(paths);
    const group = new GroupCommit(rec.fsSync, 10);
    rec.holdNext();
    await group.add([stageFile({ path: paths[0]!, content: "v0" })], () => {});
    for (let i = 1; i < 5; i++) await group.add([stageFile({ path: paths[i]!, content: `v${i}` })], () => {});
    rec.release();
    await group.drain();
    paths.forEach((p, i) => expect(readFileSync(p, "utf8")).toBe(`v${i}`));
    // Round 1: batch 0's data. Round 2: batch 0's rename and batches 1-4's data. Round 3: their renames.
    expect(rec.seen).toHaveLength(3);
  });

  it("makes add() wait while too many batches are not yet durable", async () => {
    const rec = recordingSync([]);
    const group = new GroupCommit(rec.fsSync, 2);
    rec.holdNext();
    const stage = (i: number) => [stageFile({ path: join(dir, `q${i}`, "index.html"), content: `${i}` })];
    await group.add(stage(0), () => {});
    await group.add(stage(1), () => {});
    let third = false;
    const adding = group.add(stage(2), () => {}).then(() => (third = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBe(false);
    rec.release();
    await adding;
    await group.drain();
    expect(readFileSync(join(dir, "q2", "index.html"), "utf8")).toBe("2");
  });

  it("changes nothing it has not synced when a sync fails, removes the staged files and refuses more", async () => {
    const p = join(dir, "p", "index.html");
    writeFileAtomic(p, "old");
    const group = new GroupCommit({ path: dir, sync: () => Promise.reject(new Error("disk gone")) });
    await group.add([stageFile({ path: p, content: "new" })], () => {});
    await expect(group.drain()).rejects.toThrow("disk gone");
    expect(readFileSync(p, "utf8")).toBe("old");
    expect(readdirSync(join(dir, "p"))).toEqual(["index.html"]);
    await expect(group.add([stageFile({ path: p, content: "newer" })], () => {})).rejects.toThrow("disk gone");
    expect(readdirSync(join(dir, "p"))).toEqual(["index.html"]);
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
