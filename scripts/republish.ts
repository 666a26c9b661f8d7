/**
 * npm run republish: re-render every published page from its last snapshot on all cores, with a
 * progress bar on a terminal and plain lines otherwise.
 */
import "./lib/production-mode.ts";
import { parseEnv } from "#api/env.server.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { republishAll } from "#renderer/republish.ts";
import { progressBar } from "./lib/progress.ts";

const env = parseEnv();
const db = openDatabase({ path: env.DATABASE_PATH });
const progress = progressBar("republished");
const started = Date.now();
const done = await republishAll(db, {
  publishedDir: env.PUBLISHED_DIR,
  origin: env.PUBLIC_ORIGIN,
  onProgress: progress.update,
});
progress.stop();
console.log(`Republished ${done} page(s) in ${Date.now() - started} ms.`);
closeDatabase(db);
