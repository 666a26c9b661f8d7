/**
 * Where a backup may be written and what a restore may unpack (issue 35): a backup never lands
 * where the server serves files (SITE_DIR, PUBLISHED_DIR, compared after symbolic links), and is
 * readable by its owner only; a restore refuses, before it writes a byte, an archive whose files
 * are larger than any upload can be, whose entries hold more than its manifest lists, or that does
 * not fit on the disk.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create as createTar } from "tar";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { createBackup } from "#api/backup/create.ts";
import { MEDIA_FILE_MAX_BYTES } from "#api/backup/archive.ts";
import { restoreBackup } from "#api/backup/restore.ts";
import { npmRun } from "#tests/support/npm-run.ts";

const dir = mkdtempSync(join(tmpdir(), "plinth-backup-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const data = join(dir, "data");
const published = join(dir, "published");
const site = join(dir, "dist");
mkdirSync(join(published, "media"), { recursive: true });
mkdirSync(site, { recursive: true });
closeDatabase(openDatabase({ path: join(data, "plinth.db") }));
// A path that looks harmless and is SITE_DIR once its link is followed.
symlinkSync(site, join(dir, "looks-safe"));
symlinkSync(join(published, "media"), join(dir, "uploads-link"));

const backup = (out: string) => createBackup({ databasePath: join(data, "plinth.db"), publishedDir: published, siteDir: site, out });

describe("a backup", () => {
  it.each([
    ["SITE_DIR, through a symbolic link", () => join(dir, "looks-safe", "plinth-backup.tar.gz"), "SITE_DIR", site],
    ["SITE_DIR itself, in a folder not made yet", () => join(site, "new", "b.tar.gz"), "SITE_DIR", site],
    ["PUBLISHED_DIR, through a link to its media", () => join(dir, "uploads-link", "b.tar.gz"), "PUBLISHED_DIR", published],
    ["PUBLISHED_DIR, through ..", () => join(published, "media", "..", "b.tar.gz"), "PUBLISHED_DIR", published],
  ])("is refused under %s, and nothing is written there", async (_, out, name, served) => {
    const before = readdirSync(served, { recursive: true }).sort();
    await expect(backup(out())).rejects.toThrow(`is inside ${name} (${served}), where anyone could download it: write the backup somewhere else.`);
    expect(readdirSync(served, { recursive: true }).sort()).toEqual(before);
  });

  it("is written readable and writable by its owner only (0600)", async () => {
    const out = join(dir, "backups", "ok.tar.gz");
    await backup(out);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it("npm run backup refuses a path under SITE_DIR after its links are followed, with the message, and exits 1", async () => {
    const env = { ...process.env, NODE_ENV: "test", DATA_DIR: data, PUBLISHED_DIR: published, SITE_DIR: site };
    const run = await npmRun("backup", [join(dir, "looks-safe", "plinth-backup.tar.gz")], env);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`${join(dir, "looks-safe", "plinth-backup.tar.gz")} is inside SITE_DIR (${site}), where anyone could download it: write the backup somewhere else.`);
    expect(readdirSync(site)).toEqual([]);
  }, 60_000);
});

/** A hand-made archive: manifest.json first, then the files; `listed` overrides the sizes the manifest gives. */
async function handMade(name: string, files: Record<string, Buffer>, listed: Record<string, number> = {}): Promise<string> {
  const staging = join(dir, `staging-${name}`);
  for (const [path, bytes] of Object.entries(files)) {
    mkdirSync(join(staging, path, ".."), { recursive: true });
    writeFileSync(join(staging, path), bytes);
  }
  const manifest = {
    format: "plinth-backup",
    version: 1,
    createdAt: new Date().toISOString(),
    plinthVersion: "0.1.0",
    migration: "0000_initial",
    counts: { media: Object.keys(files).length - 1 },
    files: Object.entries(files).map(([path, bytes]) => ({ path, bytes: listed[path] ?? bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") })),
  };
  writeFileSync(join(staging, "manifest.json"), JSON.stringify(manifest));
  const out = join(dir, `${name}.tar.gz`);
  await createTar({ gzip: true, cwd: staging, portable: true, file: out }, ["manifest.json", ...Object.keys(files)]);
  return out;
}

const MEDIA = "media/ab/0123456789abcdef0123456789abcdef.jpg";

describe("a restore", () => {
  const target = (name: string) => ({ databasePath: join(dir, name, "data", "plinth.db"), publishedDir: join(dir, name, "published"), origin: "http://127.0.0.1:9" });

  it("refuses a media file listed larger than any upload can be, before anything is written", async () => {
    const archive = await handMade("huge-picture", { "plinth.db": Buffer.from("db"), [MEDIA]: Buffer.from("tiny") }, { [MEDIA]: 1024 ** 3 });
    await expect(restoreBackup({ archive, ...target("huge") })).rejects.toThrow(
      `${archive} lists ${MEDIA} at 1.1 GB, larger than any upload can be (${(MEDIA_FILE_MAX_BYTES / 1e6).toFixed(1)} MB): it is not a backup Plinth wrote. Nothing was restored.`,
    );
    expect(existsSync(join(dir, "huge"))).toBe(false);
  });

  it("refuses an entry that holds more bytes than its manifest lists, as soon as its header says so", async () => {
    const big = Buffer.alloc(5_000_000);
    const archive = await handMade("bomb", { "plinth.db": Buffer.from("db"), [MEDIA]: big }, { [MEDIA]: 5 });
    await expect(restoreBackup({ archive, ...target("bomb") })).rejects.toThrow(`${archive} is damaged: ${MEDIA} holds 5000000 bytes where its manifest lists 5. Nothing was restored.`);
    expect(existsSync(join(dir, "bomb"))).toBe(false);
  });

  it("refuses an archive that does not fit on the disk, saying what it needs and what is free", async () => {
    const archive = await handMade("roomy", { "plinth.db": Buffer.alloc(3000), [MEDIA]: Buffer.alloc(2000) });
    await expect(restoreBackup({ archive, ...target("small-disk"), freeBytes: () => 1000 })).rejects.toThrow(
      `${archive} does not fit: the database needs 3000 bytes and DATA_DIR has 1000 bytes free. Free some space, then restore. Nothing was restored.`,
    );
    await expect(restoreBackup({ archive, ...target("small-disk"), freeBytes: () => 4000 })).rejects.toThrow(
      `${archive} does not fit: it needs 5000 bytes and the disk has 4000 bytes free. Free some space, then restore. Nothing was restored.`,
    );
    expect(existsSync(join(dir, "small-disk"))).toBe(false);
  });
});
