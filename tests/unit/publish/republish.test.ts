/**
 * Republish all: every published page re-rendered from its last published version (not the draft),
 * on the main thread and a worker thread, with progress, leaving unpublished owners alone.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { qrFileName } from "#renderer/components/vcard.ts";
import { fileDatabase } from "#tests/support/file-database.ts";
import { BATCH_SIZE, republishAll } from "#renderer/republish.ts";
import { stageFiles } from "#renderer/atomic-write.ts";
import { workLoop } from "#renderer/republish-batch.ts";

const { db, publishedDir } = fileDatabase("plinth-republish-");

describe("republish all", () => {
  it("re-renders every published page from its last version, not the draft, on two threads", async () => {
    const names = Array.from({ length: BATCH_SIZE + 30 }, (_, i) => `rep${i}`);
    for (const username of names) {
      const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: new Date() });
      db.update(userProfiles).set({ displayName: `Published ${username}` }).where(eq(userProfiles.userId, userId)).run();
      publishPage(db, userId, { publishedDir, origin: "http://old.example", now: new Date() });
      db.update(userProfiles).set({ displayName: `Unpublished draft ${username}` }).where(eq(userProfiles.userId, userId)).run();
    }
    rmSync(join(publishedDir, "rep0", "index.html"));
    // A page whose whole folder is gone: the republish makes the folder again.
    rmSync(join(publishedDir, "rep2"), { recursive: true });
    createAccount(db, { email: "never@example.com", username: "neverpub", passwordHash: null, emailVerified: true, now: new Date() });
    const qrBefore = join(publishedDir, "rep1", qrFileName("http://old.example/rep1"));
    expect(existsSync(qrBefore)).toBe(true);

    const progress: number[] = [];
    const started = Date.now();
    const done = await republishAll(db, { publishedDir, origin: "http://new.example", threads: 2, onProgress: (n, total) => progress.push(n, total) });
    expect(done).toBe(names.length);
    expect(progress.at(-2)).toBe(names.length);
    expect(progress.at(-1)).toBe(names.length);
    for (const username of names) {
      const html = readFileSync(join(publishedDir, username, "index.html"), "utf8");
      expect(html).toContain(`Published ${username}`);
      expect(html).not.toContain("Unpublished draft");
      expect(html).toContain(`<link rel="canonical" href="http://new.example/${username}">`);
      expect(statSync(join(publishedDir, username, "index.html")).mtimeMs).toBeGreaterThanOrEqual(started - 1);
      const qr = qrFileName(`http://new.example/${username}`);
      expect(html).toContain(`src="/${username}/${qr}"`);
      expect(readFileSync(join(publishedDir, username, qr), "utf8")).toContain(`http://new.example/${username}`);
    }
    // The QR code changed with the address, so the page has a new file; the old one stays for a
    // visitor who still holds the old page.
    expect(existsSync(qrBefore)).toBe(true);
    expect(existsSync(join(publishedDir, "neverpub"))).toBe(false);
    expect(readFileSync(join(publishedDir, "sitemap.xml"), "utf8")).toContain("<loc>http://new.example/rep0</loc>");
  }, 120_000);

  it("fsyncs batch by batch on the main thread alone", async () => {
    const progress: number[] = [];
    const done = await republishAll(db, { publishedDir, origin: "http://third.example", threads: 1, onProgress: (n) => progress.push(n) });
    expect(done).toBe(BATCH_SIZE + 30);
    expect(progress).toEqual([BATCH_SIZE, BATCH_SIZE + 30]);
    for (const username of ["rep0", "rep1", `rep${BATCH_SIZE + 29}`]) {
      expect(readFileSync(join(publishedDir, username, "index.html"), "utf8")).toContain(`<link rel="canonical" href="http://third.example/${username}">`);
    }
    expect(readFileSync(join(publishedDir, "sitemap.xml"), "utf8")).toContain("<loc>http://third.example/rep0</loc>");
  }, 120_000);

  it("reports a sitemap it could not write, after every page is in place", async () => {
    // The sitemap is written while the pages render (ADR 097): its failure still fails the republish,
    // and waits for the pages, which are all written.
    rmSync(join(publishedDir, "sitemap.xml"));
    mkdirSync(join(publishedDir, "sitemap.xml", "blocked"), { recursive: true });
    try {
      const progress: number[] = [];
      await expect(republishAll(db, { publishedDir, origin: "http://fourth.example", threads: 2, onProgress: (n) => progress.push(n) })).rejects.toThrow();
      expect(progress.at(-1)).toBe(BATCH_SIZE + 30);
      for (const username of ["rep0", `rep${BATCH_SIZE + 29}`]) {
        expect(readFileSync(join(publishedDir, username, "index.html"), "utf8")).toContain(`<link rel="canonical" href="http://fourth.example/${username}">`);
      }
    } finally {
      rmSync(join(publishedDir, "sitemap.xml"), { recursive: true, force: true });
    }
  }, 120_000);
});

describe("a republish thread's loop", () => {
  it("lets the event loop turn between batches, so a finished fsync is answered while later batches stage", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plinth-loop-"));
    try {
      // Every batch is ready at once, as for a worker that asked ahead: without a turn of the event
      // loop between them, nothing queued with setImmediate (or an fsync's answer) would run.
      const batches = [0, 1, 2, 3, 4, 5].map((b) => [b]);
      const turned: boolean[] = [];
      let flag = false;
      const finished: number[] = [];
      await workLoop(
        async () => batches.shift() ?? null,
        ([b]) => {
          turned.push(flag);
          flag = false;
          setImmediate(() => (flag = true));
          const page = join(dir, `p${b}`, "index.html");
          return { pages: [{ userId: `u${b}`, version: 1, page, files: stageFiles([{ path: page, content: `page ${b}` }]), plusItems: { lite: false, hidden: false }, withheldJson: null }] };
        },
        // Every page is still at its version: all are swapped.
        (pages, swap) => {
          swap(pages);
          return [];
        },
        (n) => finished.push(n),
      );
      expect(turned).toEqual([false, true, true, true, true, true]);
      expect(finished).toEqual([1, 1, 1, 1, 1, 1]);
      for (const b of [0, 5]) expect(readFileSync(join(dir, `p${b}`, "index.html"), "utf8")).toBe(`page ${b}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
