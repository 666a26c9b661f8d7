/**
 * Backups hold the files sold as paid downloads (DATA_DIR/downloads, ADR 238): npm run backup puts
 * them in the archive as downloads/<name>, restore puts them back beside the database byte for byte
 * (and will not write over sold files already there without --force), and a verification counts
 * them and names any the database lists that the archive lacks.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBackup } from "#api/backup/create.ts";
import { restoreBackup } from "#api/backup/restore.ts";
import { verifyBackup } from "#api/backup/verify.ts";
import { OperatorError } from "#api/backup/operator-error.ts";
import { downloadsDir } from "#api/services/download-files.ts";
import { downloadFiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";
import { PDF, sellingOwner } from "#tests/support/payments.ts";

let t: TestApp;
let work: string;
afterEach(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

async function backupOfSeller() {
  t = createTestApp();
  work = mkdtempSync(join(tmpdir(), "plinth-backup-downloads-"));
  await sellingOwner(t, createApiOwner(t, "plus"));
  const key = t.deps.db.select().from(downloadFiles).get()!.storageKey;
  return { key, backup: (name: string) => createBackup({ databasePath: t.deps.env.DATABASE_PATH, publishedDir: t.deps.env.PUBLISHED_DIR, downloadsDir: downloadsDir(t.deps.env.DATA_DIR), out: join(work, name) }) };
}

describe("sold files in backups", () => {
  it("are archived, restored beside the database byte for byte, and counted by the verification", async () => {
    const { key, backup } = await backupOfSeller();
    const taken = await backup("a.tar.gz");
    expect(taken.manifest.counts.downloads).toBe(1);
    expect(taken.manifest.files.map((f) => f.path)).toContain(`downloads/${key}`);
    expect(taken.missingMedia).toEqual([]);

    const data = join(work, "restored", "data");
    await restoreBackup({ archive: taken.out, databasePath: join(data, "plinth.db"), publishedDir: join(work, "restored", "published"), origin: "http://localhost:4321", threads: 1 });
    expect(readFileSync(join(data, "downloads", key)).equals(PDF)).toBe(true);

    const report = await verifyBackup({ archive: taken.out, origin: "http://localhost:4321", workDir: work });
    expect(report).toMatchObject({ downloads: 1, missingDownloads: [], problems: [] });
  });

  it("missing from the disk when the backup is taken: named by the backup and by the verification", async () => {
    const { key, backup } = await backupOfSeller();
    rmSync(join(downloadsDir(t.deps.env.DATA_DIR), key));
    const taken = await backup("b.tar.gz");
    expect(taken.missingMedia).toEqual([`downloads/${key}`]);
    const report = await verifyBackup({ archive: taken.out, origin: "http://localhost:4321", workDir: work });
    expect(report.missingDownloads).toEqual([key]);
    expect(report.problems).toContain(`1 sold file(s) the database lists are not in the archive (${key}).`);
  });

  it("already in the target DATA_DIR: restore refuses without force, and moves them aside with it", async () => {
    const { key, backup } = await backupOfSeller();
    const taken = await backup("c.tar.gz");
    const data = join(work, "target", "data");
    mkdirSync(join(data, "downloads"), { recursive: true });
    writeFileSync(join(data, "downloads", "older.pdf"), "older");
    const opts = { archive: taken.out, databasePath: join(data, "plinth.db"), publishedDir: join(work, "target", "published"), origin: "http://localhost:4321", threads: 1 };
    await expect(restoreBackup(opts)).rejects.toThrow(OperatorError);
    await expect(restoreBackup(opts)).rejects.toThrow(/DATA_DIR already holds sold files/);
    expect(existsSync(join(data, "plinth.db"))).toBe(false);
    const result = await restoreBackup({ ...opts, force: true });
    expect(readFileSync(join(data, "downloads", key)).equals(PDF)).toBe(true);
    expect(existsSync(join(data, "downloads", "older.pdf"))).toBe(false);
    expect(readFileSync(join(result.movedAside[0]!, "downloads", "older.pdf"), "utf8")).toBe("older");
  });
});
