/**
 * npm run republish: re-render every published page from its last snapshot on all cores, with a
 * progress bar on a terminal and plain lines otherwise.
 */
import "./lib/production-mode.ts";
import { parseEnv } from "#api/env.server.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { republishAll } from "#renderer/republish.ts";

const env = parseEnv();
const db = openDatabase({ path: env.DATABASE_PATH });
const tty = process.stdout.isTTY;
let lastLine = 0;
const started = Date.now();
const done = await republishAll(db, {
  publishedDir: env.PUBLISHED_DIR,
  origin: env.PUBLIC_ORIGIN,
  onProgress(n, total) {
    if (tty) {
      const width = 30;
      const filled = Math.round((n / Math.max(total, 1)) * width);
      process.stdout.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${n}/${total}`);
    } else if (n === total || Date.now() - lastLine > 1000) {
      lastLine = Date.now();
      console.log(`republished ${n}/${total}`);
    }
  },
});
if (tty) process.stdout.write("\n");
console.log(`Republished ${done} page(s) in ${Date.now() - started} ms.`);
closeDatabase(db);
