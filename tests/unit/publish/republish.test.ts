import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { republishAll } from "#renderer/republish.ts";

const dir = mkdtempSync(join(tmpdir(), "plinth-republish-"));
const dbPath = join(dir, "db.sqlite");
const db = openDatabase({ path: dbPath });
const publishedDir = join(dir, "published");
afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("republish all", () => {
  it("re-renders every published page from its last snapshot, not the draft, on two workers", async () => {
    const names = ["repa", "repb", "repc", "repd", "repe"];
    for (const username of names) {
      const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: new Date() });
      db.update(userProfiles).set({ displayName: `Published ${username}` }).where(eq(userProfiles.userId, userId)).run();
      publishPage(db, userId, { publishedDir, origin: "http://localhost:4321", now: new Date() });
      db.update(userProfiles).set({ displayName: `Unpublished draft ${username}` }).where(eq(userProfiles.userId, userId)).run();
      rmSync(join(publishedDir, username, "index.html"));
    }
    createAccount(db, { email: "never@example.com", username: "neverpub", passwordHash: null, emailVerified: true, now: new Date() });
    const progress: number[] = [];
    const done = await republishAll(db, { publishedDir, origin: "http://localhost:4321", threads: 2, onProgress: (n) => progress.push(n) });
    expect(done).toBe(5);
    expect(progress.at(-1)).toBe(5);
    for (const username of names) {
      const html = readFileSync(join(publishedDir, username, "index.html"), "utf8");
      expect(html).toContain(`Published ${username}`);
      expect(html).not.toContain("Unpublished draft");
    }
    expect(existsSync(join(publishedDir, "neverpub"))).toBe(false);
  }, 60_000);
});
