/**
 * Deleting an account removes the files it sold as paid downloads from DATA_DIR/downloads (ADR 238),
 * through the one target-cleanup job its transaction queues (claimed once, whichever process runs
 * it), never another owner's file; running that job again (a retry, a second process after a crash)
 * is harmless, and a name that is not a download file's touches nothing.
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { runTargetCleanup } from "#api/jobs/target-cleanup.ts";
import { downloadsDir } from "#api/services/download-files.ts";
import { downloadFiles, sales } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";
import { buy, sellingOwner, uploadDownload } from "#tests/support/payments.ts";

let t: TestApp;
afterEach(() => t.close());

const filesOf = (userId: string) => t.deps.db.select().from(downloadFiles).where(eq(downloadFiles.userId, userId)).all();
const onDisk = (key: string) => existsSync(join(downloadsDir(t.deps.env.DATA_DIR), key));

describe("deleting an account with paid downloads", () => {
  it("removes its sold files from disk, with its sales, and leaves another owner's", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { downloadId } = await sellingOwner(t, owner);
    await buy(t, downloadId, {});
    expect((await uploadDownload(t, owner)).status).toBe(201);
    const other = createApiOwner(t, "plus");
    expect((await uploadDownload(t, other)).status).toBe(201);
    const mine = filesOf(owner.userId).map((f) => f.storageKey);
    const theirs = filesOf(other.userId).map((f) => f.storageKey);
    expect(mine).toHaveLength(2);
    expect(mine.every(onDisk)).toBe(true);

    expect((await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username })).status).toBe(200);
    expect(mine.some(onDisk)).toBe(false);
    expect(theirs.every(onDisk)).toBe(true);
    expect(t.deps.db.select().from(sales).all()).toHaveLength(0);
  });

  it("runs its cleanup again harmlessly, and never removes a file by a name that is not a download file's", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    expect((await uploadDownload(t, owner)).status).toBe(201);
    const [key] = filesOf(owner.userId).map((f) => f.storageKey) as [string];
    const bystander = join(t.deps.env.DATA_DIR, "keep.pdf");
    writeFileSync(bystander, "keep");
    const job = { username: owner.username, media: [], downloads: [key, "../keep.pdf", "../plinth.db", ""] };
    await runTargetCleanup(t.deps, job);
    await runTargetCleanup(t.deps, job);
    expect(onDisk(key)).toBe(false);
    expect(existsSync(bystander)).toBe(true);
    expect(existsSync(t.deps.env.DATABASE_PATH)).toBe(true);
    expect(readdirSync(downloadsDir(t.deps.env.DATA_DIR))).toEqual([]);
  });
});
