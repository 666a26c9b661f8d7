/**
 * npm run bench: the performance targets of the public page and the publish pipeline, printed as a
 * table (target, measured, pass/fail). Not part of npm test.
 * Covered here: page weight (HTML with inlined CSS, JS, gzip), single publish p50, bulk republish rate
 * and its ratio to merely writing the same bytes. Browser-based figures (third-party requests,
 * Lighthouse) are not measured by this script yet.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { links, socialLinks, userProfiles } from "#db/schema.ts";
import { writeFileAtomic } from "#renderer/atomic-write.ts";
import { publishPage } from "#renderer/publish.ts";
import { publishedUserIds, republishAll } from "#renderer/republish.ts";

const ORIGIN = "http://localhost:4321";
const PLATFORMS = ["instagram", "tiktok", "youtube", "x", "linkedin", "github"] as const;
const rows: { target: string; measured: string; pass: boolean }[] = [];
const row = (target: string, measured: string, pass: boolean) => rows.push({ target, measured, pass });

function seedPage(db: Db, username: string): string {
  const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: new Date() });
  db.update(userProfiles)
    .set({ displayName: `Bench ${username}`, bio: "Links to everything I make.", profilePictureUrl: "/media/bench.webp" })
    .where(eq(userProfiles.userId, userId))
    .run();
  for (let i = 0; i < 20; i++) {
    db.insert(links).values({ id: newId(), userId, title: `Link number ${i + 1}`, url: `https://example.com/${i}`, orderIndex: i }).run();
  }
  PLATFORMS.forEach((platform, i) =>
    db.insert(socialLinks).values({ id: newId(), userId, platform, url: `https://${platform}.com/bench`, displayOrder: i + 1 }).run(),
  );
  return userId;
}

const dir = mkdtempSync(join(tmpdir(), "plinth-bench-"));
const dbPath = join(dir, "db.sqlite");
const publishedDir = join(dir, "published");
const db = openDatabase({ path: dbPath });
try {
  // Page weight.
  const benchUser = seedPage(db, "benchpage");
  publishPage(db, benchUser, { publishedDir, origin: ORIGIN, now: new Date() });
  const html = readFileSync(join(publishedDir, "benchpage", "index.html"));
  const htmlGz = gzipSync(html).length;
  row("HTML + inlined CSS ≤ 14 KB gzip", `${(htmlGz / 1024).toFixed(1)} KB`, htmlGz <= 14 * 1024);
  const scripts = [...html.toString().matchAll(/<script[^>]*src="(\/_p\/[^"]+)"/g)].map((m) => m[1]!);
  const jsGz = scripts.reduce((n, src) => n + gzipSync(readFileSync(join(publishedDir, src))).length, 0);
  row("Total JS ≤ 5 KB gzip", `${(jsGz / 1024).toFixed(1)} KB (${scripts.length} file(s))`, jsGz <= 5 * 1024);

  // Single publish, click to swapped file.
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    db.update(userProfiles).set({ displayName: `Bench run ${i}` }).where(eq(userProfiles.userId, benchUser)).run();
    const t0 = performance.now();
    publishPage(db, benchUser, { publishedDir, origin: ORIGIN, now: new Date() });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)]!;
  row("Single publish p50 ≤ 20 ms", `${p50.toFixed(1)} ms`, p50 <= 20);

  // Bulk republish against writing the same bytes.
  const N = Number(process.env.BENCH_PAGES ?? 2000);
  for (let i = 0; i < N; i++) {
    const id = seedPage(db, `bulk${i}`);
    publishPage(db, id, { publishedDir, origin: ORIGIN, now: new Date() });
  }
  const total = publishedUserIds(db).length;
  const t1 = performance.now();
  await republishAll(db, { dbPath, publishedDir, origin: ORIGIN, threads: 2 });
  const republishMs = performance.now() - t1;
  const rate = total / (republishMs / 1000);
  const files = publishedUserIds(db).map((id) => {
    const u = db.select({ u: userProfiles.username }).from(userProfiles).where(eq(userProfiles.userId, id)).get()!.u;
    const path = join(publishedDir, u, "index.html");
    return { path, bytes: readFileSync(path) };
  });
  mkdirSync(publishedDir, { recursive: true });
  const t2 = performance.now();
  for (const f of files) writeFileAtomic(f.path, f.bytes);
  const writeMs = performance.now() - t2;
  row("Bulk republish ≥ 2,000 pages/s (2 cores)", `${Math.round(rate)} pages/s (${total} pages)`, rate >= 2000);
  row("Bulk republish ≤ 1.5x writing the same bytes", `${(republishMs / writeMs).toFixed(2)}x`, republishMs <= 1.5 * writeMs);
} finally {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
}

const w = Math.max(...rows.map((r) => r.target.length));
const m = Math.max(...rows.map((r) => r.measured.length));
console.log(`${"Target".padEnd(w)}  ${"Measured".padEnd(m)}  Result`);
for (const r of rows) console.log(`${r.target.padEnd(w)}  ${r.measured.padEnd(m)}  ${r.pass ? "pass" : "FAIL"}`);
console.log("Not measured by this script: third-party requests and Lighthouse scores.");
process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
