/**
 * npm run republish: re-render every published page from its last snapshot, with a progress bar on
 * a terminal and plain lines otherwise. Pages go to the publish target the environment names, as
 * the server's do (ADR 135): the folder on all cores, or the bucket a few pages at a time; with
 * CDN_PURGE_URL a purge is queued for each page, which the server's job worker sends. A page the
 * target refuses is reported and the others go on; the command then ends with status 1.
 */
import "./lib/production-mode.ts";
import { parseEnv } from "#api/env.server.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { republishAll, RepublishError } from "#renderer/republish.ts";
import { commandTarget, purgesLine } from "./lib/command-target.ts";
import { progressBar } from "./lib/progress.ts";

const env = parseEnv();
const db = openDatabase({ path: env.DATABASE_PATH });
const { target, pagesOrigin, purgesQueued } = commandTarget(env, db);
const progress = progressBar("republished");
const started = Date.now();
try {
  const done = await republishAll(db, {
    publishedDir: env.PUBLISHED_DIR,
    origin: env.PUBLIC_ORIGIN,
    pagesOrigin,
    target,
    onProgress: progress.update,
    logFailure: (line) => console.error(line),
  });
  progress.stop();
  console.log(`Republished ${done} page(s) ${target.kind === "bucket" ? "to the bucket " : ""}in ${Date.now() - started} ms.`);
} catch (err) {
  progress.stop();
  if (!(err instanceof RepublishError)) throw err;
  console.error(`${err.message} Run npm run republish again once the publish target takes writes.`);
  process.exitCode = 1;
} finally {
  const purges = purgesLine(purgesQueued());
  if (purges) console.log(purges);
  closeDatabase(db);
}
