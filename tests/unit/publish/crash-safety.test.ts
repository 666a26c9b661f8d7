/**
 * A publishing process killed at random instants (SIGKILL) always leaves the page on disk as the
 * complete old or the complete new version. The children are plain JavaScript bundles, so a trial
 * costs a Node startup and not a TypeScript compile; the timeouts leave room for a machine several
 * times busier.
 *
 * The kill points come from a seeded random source: a failure names the seed, and CRASH_SEED=<seed>
 * kills at the same points again. `npm run test:soak` runs the full trials (50, 30 and 16); every
 * other run, CI's included, a quarter of them, with a new seed each time.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { links, pageVersions, userProfiles } from "#db/schema.ts";
import { loadDraft } from "#renderer/draft.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { renderPage } from "#renderer/render.tsx";
import { BATCH_SIZE } from "#renderer/republish.ts";
import type { AssetManifest } from "#renderer/types.ts";
import { bundleForNode } from "#tests/support/node-bundle.ts";
import { rng } from "#tests/support/rng.ts";
import { startTestBucket } from "#tests/support/s3.ts";

const SOAK = process.env.PLINTH_SOAK === "1";
/** Trials of a run: all of them in the soak, a quarter otherwise. */
const trials = (full: number) => (SOAK ? full : Math.ceil(full / 4));
const SEED = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : Math.floor(Math.random() * 2 ** 32);
/** Each kind of trial draws from its own sequence, so one kind's kill points do not depend on another's. */
const killPoints = (kind: number) => rng(SEED + kind);
/** Where a failure happened, and how to repeat it. */
const at = (trial: number) => `trial ${trial} (seed ${SEED}; CRASH_SEED=${SEED} kills at the same points)`;
const TRIALS = trials(50);
const NOW = "2026-01-01T12:00:00.000Z";
const NAME_A = "Crash Version Alpha";
const NAME_B = "Crash Version Bravo";

let dir: string;
let db: Db;
let userId: string;
let username: string;
let publishChild: string;
let republishChild: string;
let bucketChild: string;
let assets: AssetManifest;
const expected: string[] = [];

function expectedHtml(name: string, publishedDir: string): string {
  db.update(userProfiles).set({ displayName: name }).where(eq(userProfiles.userId, userId)).run();
  const draft = loadDraft(db, userId)!;
  return renderPage({
    snapshot: draft.snapshot,
    plan: draft.plan,
    now: new Date(NOW),
    origin: "http://localhost:4321",
    apiOrigin: "http://localhost:4321",
    mode: "published",
    assets,
  }).html;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plinth-crash-"));
  db = openDatabase({ path: join(dir, "db.sqlite") });
  username = "crashowner";
  ({ userId } = createAccount(db, { email: "crash@example.com", username, passwordHash: null, emailVerified: true, now: new Date(NOW) }));
  assets = ensureSharedAssets(join(dir, "published"));
  expected.push(expectedHtml(NAME_A, join(dir, "published")), expectedHtml(NAME_B, join(dir, "published")));
  [publishChild, republishChild, bucketChild] = await Promise.all([
    bundleForNode(join(import.meta.dirname, "crash-child.ts")),
    bundleForNode(join(import.meta.dirname, "crash-republish-child.ts")),
    bundleForNode(join(import.meta.dirname, "crash-bucket-child.ts")),
  ]);
}, 120_000);

afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

function runAndKill(publishedDir: string, delayMs: number, first: number): Promise<void> {
  return spawnAndKill([publishChild, join(dir, "db.sqlite"), publishedDir, userId, NOW, NAME_A, NAME_B, String(first), JSON.stringify(assets)], delayMs);
}

function spawnAndKill(args: string[], delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      stdio: ["ignore", "pipe", "pipe"],
      cwd: join(import.meta.dirname, "../../.."),
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.stdout.on("data", () => setTimeout(() => child.kill("SIGKILL"), delayMs));
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve();
      else reject(new Error(`child exited with ${code} (seed ${SEED}): ${stderr}`));
    });
  });
}

describe("crash safety", () => {
  it(`leaves a complete version after ${TRIALS} SIGKILLs at random points`, async () => {
    const publishedDir = join(dir, "published");
    const page = join(publishedDir, username, "index.html");
    const seen = new Set<number>();
    const random = killPoints(1);
    for (let trial = 0; trial < TRIALS; trial++) {
      await runAndKill(publishedDir, random() * 100, trial % 2);
      expect(existsSync(page), at(trial)).toBe(true);
      const html = readFileSync(page, "utf8");
      const which = expected.indexOf(html);
      expect(which, `${at(trial)}: page on disk is not a complete version`).toBeGreaterThanOrEqual(0);
      seen.add(which);
      // Leftover temporary files are dot files, which are never served.
      for (const f of readdirSync(join(publishedDir, username))) {
        if (f !== "index.html" && f.endsWith(".html")) expect(f.startsWith("."), at(trial)).toBe(true);
      }
    }
    expect(seen.size, `both versions seen (seed ${SEED})`).toBe(2);
  }, 900_000);
});

describe("crash safety with a bucket target", () => {
  it(`leaves the page object whole, old or new, after ${trials(30)} SIGKILLs during publishes to the bucket`, async () => {
    const s3 = await startTestBucket();
    try {
      const publishedDir = join(dir, "bucket-work");
      const seen = new Set<number>();
      const random = killPoints(2);
      for (let trial = 0; trial < trials(30); trial++) {
        await spawnAndKill([bucketChild, join(dir, "db.sqlite"), publishedDir, userId, NOW, NAME_A, NAME_B, String(trial % 2), s3.endpoint, s3.bucket], random() * 100);
        const object = await s3.object(`${username}/index.html`);
        expect(object, `${at(trial)}: no page object`).not.toBeNull();
        const which = expected.indexOf(object!.body.toString("utf8"));
        expect(which, `${at(trial)}: the page object is not a complete version`).toBeGreaterThanOrEqual(0);
        expect(object!.contentType, at(trial)).toBe("text/html; charset=utf-8");
        seen.add(which);
      }
      expect(seen.size, `both versions seen (seed ${SEED})`).toBe(2);
      // Only the page, its own files, the shared assets, the sitemap and robots.txt: no temporary keys.
      for (const key of await s3.keys()) expect(key, `a temporary key left (seed ${SEED})`).toMatch(new RegExp(`^(${username}/(index\\.html|qr-[0-9a-z]+\\.svg)|_p/.+|(sitemap\\.xml|robots\\.txt)(\\.br|\\.gz)?)$`));
    } finally {
      await s3.stop();
    }
  }, 600_000);
});

describe("crash safety of republishing every page", () => {
  const ORIGINS = ["http://origin-a.example", "http://origin-b.example"];
  const PAGES = BATCH_SIZE + 20;

  it(`leaves every page complete, old or new, after ${trials(16)} SIGKILLs during bulk republishes`, async () => {
    const published = join(dir, "republish");
    const dbPath = join(dir, "republish.sqlite");
    const rdb = openDatabase({ path: dbPath });
    const expectedByPage = new Map<string, string[]>();
    const republishAssets = ensureSharedAssets(published);
    for (let i = 0; i < PAGES; i++) {
      const name = `bulkcrash${i}`;
      const { userId: id } = createAccount(rdb, { email: `${name}@example.com`, username: name, passwordHash: null, emailVerified: true, now: new Date(NOW) });
      rdb.insert(links).values({ id: newId(), userId: id, title: `Link of ${name}`, url: "https://example.com/", orderIndex: 0 }).run();
      const draft = loadDraft(rdb, id)!;
      rdb.insert(pageVersions).values({ id: newId(), userId: id, version: 1, snapshot: draft.snapshot, contentHash: "x", htmlFile: "x", publishedAt: new Date(NOW) }).run();
      rdb.update(userProfiles).set({ hasPublishedPage: true }).where(eq(userProfiles.userId, id)).run();
      expectedByPage.set(
        name,
        ORIGINS.map((origin) => renderPage({ snapshot: draft.snapshot, plan: draft.plan, now: new Date(), origin, apiOrigin: origin, mode: "published", assets: republishAssets }).html),
      );
    }
    closeDatabase(rdb);
    const seen = new Set<number>();
    const random = killPoints(3);
    for (let trial = 0; trial < trials(16); trial++) {
      await spawnAndKill([republishChild, dbPath, published, ORIGINS[0]!, ORIGINS[1]!, String(trial % 2)], random() * 300);
      for (const [name, versions] of expectedByPage) {
        const html = readFileSync(join(published, name, "index.html"), "utf8");
        const which = versions.indexOf(html);
        expect(which, `${at(trial)}, ${name}: not a complete version`).toBeGreaterThanOrEqual(0);
        seen.add(which);
        for (const f of readdirSync(join(published, name))) if (f !== "index.html" && f.endsWith(".html")) expect(f.startsWith("."), at(trial)).toBe(true);
      }
    }
    expect(seen.size, `both versions seen (seed ${SEED})`).toBe(2);
  }, 600_000);
});
