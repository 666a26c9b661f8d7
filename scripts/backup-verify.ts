/**
 * npm run backup:verify -- <file>: restores the backup into a temporary folder as npm run restore
 * would, runs SQLite's integrity check, renders every page and prints what it found (ADR 160).
 * Exits 1 when the backup would not restore whole. An encrypted archive is read with
 * BACKUP_PASSPHRASE or BACKUP_AGE_IDENTITY_FILE, or asks for them in a terminal. Touches nothing
 * of the server's: run it anywhere, with the server's PUBLIC_ORIGIN for the pages' links.
 */
import "./lib/production-mode.ts";
import { verifyBackup, reportLines } from "#api/backup/verify.ts";
import { pagesOrigin, parseEnv } from "#api/env.server.ts";
import { secretsFor } from "./lib/backup-secrets.ts";
import { OperatorError, runOperatorCommand } from "./lib/operator.ts";

await runOperatorCommand(async () => {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith("-")) throw new OperatorError("Usage: npm run backup:verify -- <file>");
  const env = parseEnv();
  const started = Date.now();
  const report = await verifyBackup({ archive: args[0]!, origin: env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(env), secrets: await secretsFor(args[0]!) });
  const lines = reportLines(report);
  for (const line of lines.slice(0, -1)) console.log(line);
  if (report.problems.length) {
    console.error(lines.at(-1));
    process.exitCode = 1;
    return;
  }
  console.log(`${lines.at(-1)} (${Date.now() - started} ms)`);
});
