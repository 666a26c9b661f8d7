/**
 * Child process of the crash-safety test: publishes one page over and over, alternating two drafts,
 * until it is killed. Arguments: dbPath publishedDir userId nowIso nameA nameB first (0 or 1: which
 * draft goes first) assetsJson (the shared assets, already on disk).
 */
import { eq } from "drizzle-orm";
import { openDatabase } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import type { AssetManifest } from "#renderer/types.ts";

const [dbPath, publishedDir, userId, nowIso, nameA, nameB, first, assetsJson] = process.argv.slice(2) as [string, string, string, string, string, string, string, string];
const db = openDatabase({ path: dbPath, migrate: false });
const now = new Date(nowIso);
const assets = JSON.parse(assetsJson) as AssetManifest;
for (let i = Number(first); ; i++) {
  db.update(userProfiles).set({ displayName: i % 2 === 0 ? nameA : nameB }).where(eq(userProfiles.userId, userId)).run();
  publishPage(db, userId, { publishedDir, origin: "http://localhost:4321", now, assets });
  if (i === Number(first)) process.stdout.write("ready\n");
}
