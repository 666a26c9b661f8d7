/**
 * Child process of the crash-safety test: republishes every page over and over on two threads,
 * alternating the origin (a change of every page's HTML), until it is killed.
 * Arguments: dbPath publishedDir originA originB first (0 or 1: which origin goes first)
 */
import { closeDatabase, openDatabase } from "#db/client.ts";
import { republishAll } from "#renderer/republish.ts";

const [dbPath, publishedDir, originA, originB, first] = process.argv.slice(2) as [string, string, string, string, string];
const db = openDatabase({ path: dbPath, migrate: false });
for (let i = Number(first); ; i++) {
  await republishAll(db, { publishedDir, origin: i % 2 === 0 ? originA : originB, threads: 2 });
  if (i === Number(first)) process.stdout.write("ready\n");
  if (i > 10_000) break;
}
closeDatabase(db);
