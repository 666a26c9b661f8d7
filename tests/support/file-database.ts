/**
 * A database file and a published folder in a temporary folder of their own, for tests of the
 * publish pipeline that need a real file (worker threads open it themselves). Both are removed
 * after the file's tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";

export function fileDatabase(prefix: string): { dir: string; db: Db; publishedDir: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = openDatabase({ path: join(dir, "db.sqlite") });
  afterAll(() => {
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, db, publishedDir: join(dir, "published") };
}
