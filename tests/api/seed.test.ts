/**
 * `npm run seed` as an operator runs it, into the publish target the environment names: with a
 * bucket (a real S3-protocol server) the demo page is put into the bucket; with a bucket that cannot
 * be reached it fails clearly, and the database holds no half-made demo. (The folder target is
 * walked by tests/api/readme-start.test.ts, which runs the README's start command.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { pageVersions, userProfiles, users } from "#db/schema.ts";
import { npmRun } from "#tests/support/npm-run.ts";
import { startTestBucket, type TestBucket } from "#tests/support/s3.ts";

let bucket: TestBucket;
let dir: string;
beforeAll(async () => {
  bucket = await startTestBucket();
  dir = mkdtempSync(join(tmpdir(), "plinth-seed-"));
});
afterAll(async () => {
  await bucket.stop();
  rmSync(dir, { recursive: true, force: true });
});

const seed = (name: string, env: Record<string, string>) =>
  npmRun("seed", [], { ...process.env, DATA_DIR: join(dir, name, "data"), PUBLISHED_DIR: join(dir, name, "published"), PUBLIC_ORIGIN: "http://localhost:4321", DEMO_PASSWORD: "Seeded-demo-password-1!", ...env });

/** The demo owner's rows in the database the seed wrote. */
function demoRows(name: string) {
  const db = openDatabase({ path: join(dir, name, "data", "plinth.db") });
  try {
    return { users: db.select().from(users).all(), profiles: db.select().from(userProfiles).all(), versions: db.select().from(pageVersions).all() };
  } finally {
    closeDatabase(db);
  }
}

// Each run starts npm, tsx and the visitor script's build: seconds on a quiet machine, far more on a busy one.
describe("npm run seed", { timeout: 180_000 }, () => {
  it("publishes the demo page into the bucket when the bucket is the publish target, and again when run again", async () => {
    for (let run = 0; run < 2; run++) {
      const out = await seed("bucket", bucket.env("seeded/"));
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toContain("Demo page published at https://pages.plinth.test/demo (in the bucket)");
      const page = await bucket.object("seeded/demo/index.html");
      expect(page?.contentType).toBe("text/html; charset=utf-8");
      expect(page?.body.toString("utf8")).toContain("Demo Creator");
    }
    const rows = demoRows("bucket");
    expect(rows.users.map((u) => u.email)).toEqual(["demo@plinth.localhost"]);
    expect(rows.profiles).toMatchObject([{ username: "demo", hasPublishedPage: true }]);
    expect(rows.versions).toHaveLength(1);
  });

  it("fails clearly when the bucket cannot be reached, and leaves no half-made demo behind", async () => {
    const down = await startTestBucket();
    await down.stop();
    const out = await seed("down", down.env());
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("The demo was not seeded, and nothing of it was kept");
    expect(demoRows("down")).toEqual({ users: [], profiles: [], versions: [] });
  });
});
