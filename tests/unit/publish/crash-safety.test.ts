/**
 * A publishing process killed at random instants (SIGKILL) always leaves the page on disk as the
 * complete old or the complete new version.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { loadDraft } from "#renderer/draft.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { renderPage } from "#renderer/render.tsx";

const TRIALS = 50;
const NOW = "2026-01-01T12:00:00.000Z";
const NAME_A = "Crash Version Alpha";
const NAME_B = "Crash Version Bravo";

let dir: string;
let db: Db;
let userId: string;
let username: string;
let childJs: string;
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
    assets: ensureSharedAssets(publishedDir),
  }).html;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plinth-crash-"));
  db = openDatabase({ path: join(dir, "db.sqlite") });
  username = "crashowner";
  ({ userId } = createAccount(db, { email: "crash@example.com", username, passwordHash: null, emailVerified: true, now: new Date(NOW) }));
  expected.push(expectedHtml(NAME_A, join(dir, "published")), expectedHtml(NAME_B, join(dir, "published")));
  childJs = join(import.meta.dirname, "crash-child.ts");
}, 60_000);

afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

function runAndKill(publishedDir: string, delayMs: number, first: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", childJs, join(dir, "db.sqlite"), publishedDir, userId, NOW, NAME_A, NAME_B, String(first)], {
      stdio: ["ignore", "pipe", "pipe"],
      cwd: join(import.meta.dirname, "../../.."),
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.stdout.on("data", () => setTimeout(() => child.kill("SIGKILL"), delayMs));
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve();
      else reject(new Error(`child exited with ${code}: ${stderr}`));
    });
  });
}

describe("crash safety", () => {
  it(`leaves a complete version after ${TRIALS} SIGKILLs at random points`, async () => {
    const publishedDir = join(dir, "published");
    const page = join(publishedDir, username, "index.html");
    const seen = new Set<number>();
    for (let trial = 0; trial < TRIALS; trial++) {
      await runAndKill(publishedDir, Math.random() * 100, trial % 2);
      expect(existsSync(page)).toBe(true);
      const html = readFileSync(page, "utf8");
      const which = expected.indexOf(html);
      expect(which, `trial ${trial}: page on disk is not a complete version`).toBeGreaterThanOrEqual(0);
      seen.add(which);
      // Leftover temp files never take the page's name.
      for (const f of readdirSync(join(publishedDir, username))) {
        if (f !== "index.html") expect(f.endsWith(".html")).toBe(false);
      }
    }
    expect(seen.size).toBe(2);
  }, 120_000);
});
