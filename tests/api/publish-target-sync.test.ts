/**
 * npm run publish-target:sync's two directions (ADR 134), against a real S3-protocol server: a
 * published folder copied into a bucket with each object's headers, pages after the files they
 * name, a stopped run resumed, the bucket copied back into an empty folder byte for byte, and a
 * bucket whose keys would leave the folder refused before anything is written.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { IMMUTABLE, REVALIDATE } from "#renderer/content-types.ts";
import { isSafePath, syncBucketToFolder, syncFolderToBucket, type SyncOptions } from "#scripts/lib/publish-target-sync.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";
import { npmRun } from "#tests/support/npm-run.ts";
import { startTestBucket, type TestBucket } from "#tests/support/s3.ts";

let bucket: TestBucket;
beforeAll(async () => {
  bucket = await startTestBucket();
});
afterAll(() => bucket.stop());

let t: TestApp;
let folder: string;
let prefix: string;
let run = 0;
const emptyDirs: string[] = [];
beforeEach(async () => {
  prefix = `move-${++run}/`;
  t = createTestApp();
  folder = t.deps.env.PUBLISHED_DIR;
  // Two published pages (with their QR codes and the shared assets), a media file, the sitemap, and
  // a compressed copy of a page an older release left.
  for (const _ of [1, 2]) expect((await createApiOwner(t, "trial").call("POST", "/api/publish")).status).toBe(200);
  mkdirSync(join(folder, "media"), { recursive: true });
  writeFileSync(join(folder, "media", "ab12cd.jpg"), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
  const aPage = readdirSync(folder).find((name) => existsSync(join(folder, name, "index.html")))!;
  writeFileSync(join(folder, aPage, "index.html.br"), "stale");
});
afterEach(() => {
  t.close();
  for (const dir of emptyDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const options = (extra: Partial<SyncOptions> = {}): SyncOptions => ({ client: bucket.client, bucket: bucket.bucket, prefix, publishedDir: folder, ...extra });
/** Every file under `dir`, "/"-separated, hidden files and folders left out. */
const filesOf = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)).split(sep).join("/"))
    .filter((path) => !path.split("/").some((part) => part.startsWith(".")))
    .sort();
const expectedKeys = () => filesOf(folder).filter((path) => !path.endsWith("index.html.br"));
const bucketPaths = async () => (await bucket.keys(prefix)).map((k) => k.slice(prefix.length)).sort();
const emptyFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), "plinth-sync-"));
  emptyDirs.push(dir);
  return dir;
};

describe("publish-target:sync to-bucket", () => {
  it("copies every file with the headers a static host would send, leaving stale page copies and hidden folders behind", async () => {
    // What a restore moved aside stays on this machine.
    mkdirSync(join(folder, ".replaced-2026-11-27", "alice"), { recursive: true });
    writeFileSync(join(folder, ".replaced-2026-11-27", "alice", "index.html"), "<p>replaced</p>");
    const want = expectedKeys();
    expect(want.filter((p) => p.endsWith("/index.html"))).toHaveLength(2);
    expect(want.some((p) => p.startsWith("_p/"))).toBe(true);
    const progress: number[] = [];
    const result = await syncFolderToBucket(options({ onProgress: (done, total) => progress.push(done, total) }));
    expect(result).toEqual({ total: want.length, copied: want.length, unchanged: 0 });
    expect(await bucketPaths()).toEqual(want);
    expect(progress.slice(-2)).toEqual([want.length, want.length]);

    for (const path of want) expect((await bucket.object(prefix + path))!.body.equals(readFileSync(join(folder, path)))).toBe(true);
    const page = want.find((p) => p.endsWith("/index.html"))!;
    expect(await bucket.object(prefix + page)).toMatchObject({ contentType: "text/html; charset=utf-8", cacheControl: REVALIDATE, contentEncoding: undefined });
    expect(await bucket.object(`${prefix}media/ab12cd.jpg`)).toMatchObject({ contentType: "image/jpeg", cacheControl: IMMUTABLE });
    const compressed = want.find((p) => p.startsWith("_p/") && p.endsWith(".br"));
    expect(compressed).toBeTruthy();
    expect(await bucket.object(prefix + compressed!)).toMatchObject({ contentEncoding: "br", cacheControl: IMMUTABLE });
  });

  it("puts each page after every file, so no page names a file the bucket lacks", async () => {
    const order: string[] = [];
    const send = bucket.client.send.bind(bucket.client);
    const watched = Object.assign(Object.create(bucket.client), {
      send: (command: Parameters<typeof send>[0]) => {
        if (command instanceof PutObjectCommand) order.push(command.input.Key!.slice(prefix.length));
        return send(command);
      },
    });
    await syncFolderToBucket(options({ client: watched }));
    const firstPage = order.findIndex((k) => k.endsWith("/index.html"));
    expect(firstPage).toBeGreaterThan(0);
    expect(order.slice(firstPage).every((k) => k.endsWith("/index.html"))).toBe(true);
  });

  it("copies nothing again when run twice, and resumes a run that stopped with what is left", async () => {
    const want = expectedKeys();
    let seen = 0;
    await expect(
      syncFolderToBucket(
        options({
          onProgress: () => {
            if (++seen === 3) throw new Error("interrupted");
          },
        }),
      ),
    ).rejects.toThrow("interrupted");
    const there = (await bucketPaths()).length;
    expect(there).toBeGreaterThanOrEqual(3);
    expect(there).toBeLessThan(want.length);

    expect(await syncFolderToBucket(options())).toEqual({ total: want.length, copied: want.length - there, unchanged: there });
    expect(await bucketPaths()).toEqual(want);
    expect(await syncFolderToBucket(options())).toEqual({ total: want.length, copied: 0, unchanged: want.length });
  });

  it("copies a file again when the bucket's copy differs", async () => {
    await syncFolderToBucket(options());
    const page = expectedKeys().find((p) => p.endsWith("/index.html"))!;
    await bucket.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: prefix + page, Body: "<p>older</p>" }));
    expect((await syncFolderToBucket(options())).copied).toBe(1);
    expect((await bucket.object(prefix + page))!.body.equals(readFileSync(join(folder, page)))).toBe(true);
  });
});

describe("publish-target:sync to-folder", () => {
  it("copies the bucket into an empty folder byte for byte, then finds it the same", async () => {
    const want = expectedKeys();
    await syncFolderToBucket(options());
    const back = emptyFolder();
    expect(await syncBucketToFolder(options({ publishedDir: back }))).toEqual({ total: want.length, copied: want.length, unchanged: 0 });
    expect(filesOf(back)).toEqual(want);
    for (const path of want) expect(readFileSync(join(back, path)).equals(readFileSync(join(folder, path)))).toBe(true);
    expect(await syncBucketToFolder(options({ publishedDir: back }))).toEqual({ total: want.length, copied: 0, unchanged: want.length });

    writeFileSync(join(back, want[0]!), "changed here");
    expect((await syncBucketToFolder(options({ publishedDir: back }))).copied).toBe(1);
    expect(readFileSync(join(back, want[0]!)).equals(readFileSync(join(folder, want[0]!)))).toBe(true);
  });

  it("refuses a bucket with a key that is not a path under the folder, and writes nothing", async () => {
    // This server resolves dot segments in keys before storing them; other names it keeps as sent.
    for (const key of ["alice/index.html", "alice\\..\\..\\outside.txt", "alice/a b.html"]) {
      await bucket.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: prefix + key, Body: "x" }));
    }
    const back = emptyFolder();
    await expect(syncBucketToFolder(options({ publishedDir: back }))).rejects.toThrow(/not paths under the published folder, so nothing was copied: alice\/a b\.html, alice\\/);
    expect(filesOf(back)).toEqual([]);
  });

  it("takes the folder's own names as paths, and nothing that climbs out or names itself", () => {
    for (const ok of ["alice/index.html", "_p/visitor.3f2a.js.br", "media/ab12cd.jpg", "sitemap.xml", "a_b-c/qr-1x.svg"]) expect(isSafePath(ok), ok).toBe(true);
    for (const bad of ["../outside.txt", "alice/../../etc/passwd", "alice/./x", "alice/..", ".", "..", "/etc/passwd", "alice//x", "alice/", "", "alice\\x", "a b", "alice/é.html"]) {
      expect(isSafePath(bad), bad).toBe(false);
    }
  });
});

describe("npm run publish-target:sync", () => {
  const sync = (args: string[], env: Record<string, string>) => npmRun("publish-target:sync", args, { PATH: process.env.PATH, ...env });

  it("copies the folder named by PUBLISHED_DIR to the bucket of the S3_* values and says what it did", async () => {
    const want = expectedKeys();
    const env = { ...bucket.env(prefix), PUBLISHED_DIR: folder, DATA_DIR: t.deps.env.DATA_DIR };
    const done = await sync(["to-bucket"], env);
    // The SDK may warn about Node versions; nothing else is said on stderr.
    expect(done.stderr).not.toMatch(/Error|Stopped/);
    expect(done.stdout).toContain(`to the bucket ${want.length}/${want.length}`);
    expect(done.stdout).toContain(`${want.length} file(s): ${want.length} copied, 0 already the same.`);
    expect(done.code).toBe(0);
    expect(await bucketPaths()).toEqual(want);

    const wrong = await sync(["sideways"], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("Usage: npm run publish-target:sync -- to-bucket | to-folder");
    const noBucket = await sync(["to-folder"], { PUBLISHED_DIR: folder, DATA_DIR: t.deps.env.DATA_DIR });
    expect(noBucket.code).toBe(2);
    expect(noBucket.stderr).toContain("Set PUBLISH_TARGET=s3");
  });
});
