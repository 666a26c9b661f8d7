/**
 * npm's postinstall: keeps the better-sqlite3 addon that `npm ci` compiled in npm's own cache of
 * prebuilt binaries (~/.npm/_prebuilds), under the name its installer looks for first, so the next
 * `npm ci` on this machine (another clone, CI) unpacks it in a second instead of compiling SQLite
 * for a minute and more (ADR 258). Only an addon that opens a database is kept; the installer loads
 * what it unpacks and compiles when that does not load. Nothing here fails an install: a problem is
 * one line of warning.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
let partial = "";

try {
  const addonDir = dirname(require.resolve("better-sqlite3/package.json"));
  const binary = "build/Release/better_sqlite3.node";
  // The installer's own modules name the file, as better-sqlite3's install script runs them.
  const fromAddon = createRequire(join(addonDir, "package.json"));
  const pkg = JSON.parse(readFileSync(join(addonDir, "package.json"), "utf8"));
  const rc = fromAddon("prebuild-install/rc")(pkg);
  const util = fromAddon("prebuild-install/util");
  const cached: string = util.cachedPrebuild(util.getDownloadUrl({ ...rc, pkg }));
  if (existsSync(join(addonDir, binary)) && !existsSync(cached)) {
    const Database = require("better-sqlite3");
    new Database(":memory:").close();
    mkdirSync(dirname(cached), { recursive: true });
    partial = `${cached}.${process.pid}.tmp`;
    execFileSync("tar", ["-czf", partial, "-C", addonDir, binary]);
    renameSync(partial, cached);
    console.log(`Kept the compiled better-sqlite3 addon for the next install: ${cached}`);
  }
} catch (err) {
  if (partial) rmSync(partial, { force: true });
  console.warn(`The compiled better-sqlite3 addon was not kept for the next install (${(err as Error).message}); it is compiled again then.`);
}
