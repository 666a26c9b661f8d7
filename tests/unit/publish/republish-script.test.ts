/**
 * `npm run republish` as an operator runs it: the script reads the configuration from the
 * environment, re-renders every published page at the configured origin and reports its progress.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { publishPage } from "#renderer/publish.ts";
import { bundleForNode } from "#tests/support/node-bundle.ts";

const ROOT = join(import.meta.dirname, "../../..");
const dir = mkdtempSync(join(tmpdir(), "plinth-republish-script-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run republish", () => {
  it("re-renders every published page at the configured origin and reports its progress", async () => {
    const dataDir = join(dir, "data");
    const publishedDir = join(dir, "published");
    const db = openDatabase({ path: join(dataDir, "plinth.db") });
    const names = ["scripta", "scriptb", "scriptc"];
    for (const username of names) {
      const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: new Date() });
      publishPage(db, userId, { publishedDir, origin: "http://before.example", now: new Date() });
    }
    createAccount(db, { email: "draftonly@example.com", username: "draftonly", passwordHash: null, emailVerified: true, now: new Date() });
    closeDatabase(db);

    const { stdout } = await promisify(execFile)(process.execPath, [await bundleForNode(join(ROOT, "scripts/republish.ts"))], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PUBLISHED_DIR: publishedDir, PUBLIC_ORIGIN: "https://after.example" },
    });
    expect(stdout).toContain("republished 3/3");
    expect(stdout).toMatch(/^Republished 3 page\(s\) in \d+ ms\.$/m);
    for (const username of names) {
      expect(readFileSync(join(publishedDir, username, "index.html"), "utf8")).toContain(`<link rel="canonical" href="https://after.example/${username}">`);
    }
    expect(readFileSync(join(publishedDir, "sitemap.xml"), "utf8")).not.toContain("draftonly");
  }, 120_000);
});
