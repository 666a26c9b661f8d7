/**
 * npm run backup -- <file>: the database, every uploaded file and every sold file in one archive, taken while the
 * server runs (api/backup/create.ts, ADR 006), encrypted when BACKUP_PASSPHRASE or
 * BACKUP_AGE_RECIPIENT is set (ADR 160). Reads DATA_DIR and PUBLISHED_DIR as the server does.
 */
import { backupEncryption, parseEnv } from "#api/env.server.ts";
import { createBackup } from "#api/backup/create.ts";
import { downloadsDir } from "#api/services/download-files.ts";
import { OperatorError, runOperatorCommand } from "./lib/operator.ts";

await runOperatorCommand(async () => {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith("-")) throw new OperatorError("Usage: npm run backup -- <file>");
  const env = parseEnv();
  const started = Date.now();
  // Encrypted with BACKUP_PASSPHRASE or for BACKUP_AGE_RECIPIENT when set, and then put together in
  // DATA_DIR, so no plain copy is written where the archive goes (ADR 160).
  const encryption = backupEncryption(env);
  const result = await createBackup({
    databasePath: env.DATABASE_PATH,
    publishedDir: env.PUBLISHED_DIR,
    downloadsDir: downloadsDir(env.DATA_DIR),
    siteDir: env.SITE_DIR,
    out: args[0]!,
    encryption,
    stagingDir: encryption ? env.DATA_DIR : undefined,
  });
  for (const key of result.missingMedia) {
    console.warn(`Warning: ${key} is named in the database but was not in ${env.PUBLISHED_DIR}; the backup does not hold it.`);
  }
  const { migration, counts } = result.manifest;
  const how = !encryption ? "" : "passphrase" in encryption ? " encrypted with BACKUP_PASSPHRASE" : " encrypted for BACKUP_AGE_RECIPIENT";
  console.log(
    `Backed up the database (migration ${migration}), ${counts.media} media file(s) and ${counts.downloads} sold file(s) to ${result.out}${how}: ${(result.bytes / 1e6).toFixed(1)} MB in ${Date.now() - started} ms.`,
  );
});
