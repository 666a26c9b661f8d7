/**
 * One lock for every writer of a page (ADR 097): a bulk re-render running in another process, round
 * after round, never swaps in a render of an older version over a newer publish. Each publish here
 * must be the page on disk as soon as it returns, and stay so, whatever the other process is doing.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { fileDatabase } from "#tests/support/file-database.ts";
import { bundleForNode } from "#tests/support/node-bundle.ts";

const ORIGIN = "http://localhost:4321";
const { dir, db, publishedDir } = fileDatabase("plinth-lock-");

describe("the page lock across processes", () => {
  it("keeps every publish on disk while another process re-renders every page, round after round", async () => {
    const owners = Array.from({ length: 120 }, (_, i) => {
      const username = `lock${i}`;
      const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: new Date() });
      expect(publishPage(db, userId, { publishedDir, origin: ORIGIN, now: new Date() }).ok).toBe(true);
      return { userId, username };
    });
    const child = spawn(process.execPath, [await bundleForNode(join(import.meta.dirname, "lock-republish-child.ts")), join(dir, "db.sqlite"), publishedDir, ORIGIN], {
      stdio: ["pipe", "pipe", "pipe"],
      cwd: join(import.meta.dirname, "../../.."),
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += String(d)));
    child.stderr.on("data", (d) => (err += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", () => out.includes("ready") && resolve());
      void exited.then((code) => reject(new Error(`child exited with ${code}: ${err}`)));
    });

    // Publish the pages over and over while the other process re-renders them all.
    for (let round = 0; round < 6; round++) {
      for (const [i, o] of owners.entries()) {
        if (i % 3 !== round % 3) continue;
        const name = `Round ${round} of ${o.username}`;
        db.update(userProfiles).set({ displayName: name }).where(eq(userProfiles.userId, o.userId)).run();
        expect(publishPage(db, o.userId, { publishedDir, origin: ORIGIN, now: new Date() })).toMatchObject({ ok: true, changed: true });
        expect(readFileSync(join(publishedDir, o.username, "index.html"), "utf8")).toContain(name);
      }
      // Between rounds, let the other process swap what it rendered meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
    }
    child.stdin.end();
    expect(await exited, err).toBe(0);
    expect(Number(/rounds (\d+)/.exec(out)![1])).toBeGreaterThan(1);
    // What the other process swapped in after every publish is still each page's last version.
    for (const [i, o] of owners.entries()) {
      const last = [5, 4, 3].find((r) => i % 3 === r % 3)!;
      expect(readFileSync(join(publishedDir, o.username, "index.html"), "utf8")).toContain(`Round ${last} of ${o.username}`);
    }
  }, 180_000);
});
