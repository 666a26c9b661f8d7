/**
 * Child process of the page-lock test: re-renders every published page on two worker threads, round
 * after round, until its standard input closes; then it finishes the round and exits.
 * Arguments: dbPath publishedDir origin
 */
import { closeDatabase, openDatabase } from "#db/client.ts";
import { republishAll } from "#renderer/republish.ts";

const [dbPath, publishedDir, origin] = process.argv.slice(2) as [string, string, string];
const db = openDatabase({ path: dbPath, migrate: false });
let open = true;
process.stdin.on("end", () => (open = false));
process.stdin.resume();
let rounds = 0;
while (open) {
  await republishAll(db, { publishedDir, origin, threads: 2 });
  if (rounds++ === 0) process.stdout.write("ready\n");
}
closeDatabase(db);
process.stdout.write(`rounds ${rounds}\n`);
