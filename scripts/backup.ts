/**
 * npm run backup -- <file>: the database and every uploaded file in one archive, taken while the
 * server runs (scripts/lib/backup.ts, ADR 006). Reads DATA_DIR and PUBLISHED_DIR as the server does.
 */
import { parseEnv } from "#api/env.server.ts";
import { createBackup } from "./lib/backup.ts";
import { OperatorError, runOperatorCommand } from "./lib/operator.ts";

await runOperatorCommand(async () => {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith("-")) throw new OperatorError("Usage: npm run backup -- <file>");
  const env = parseEnv();
  const started = Date.now();
  const result = await createBackup({ databasePath: env.DATABASE_PATH, publishedDir: env.PUBLISHED_DIR, siteDir: env.SITE_DIR, out: args[0]! });
  for (const key of result.missingMedia) {
    console.warn(`Warning: ${key} is named in the database but was not in ${env.PUBLISHED_DIR}; the backup does not hold it.`);
  }
  const { migration, counts } = result.manifest;
  console.log(
    `Backed up the database (migration ${migration}) and ${counts.media} media file(s) to ${result.out}: ${(result.bytes / 1e6).toFixed(1)} MB in ${Date.now() - started} ms.`,
  );
});
