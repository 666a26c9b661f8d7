/**
 * npm run restore -- <file> [--force]: puts a backup back into DATA_DIR and PUBLISHED_DIR and
 * re-renders every published page for PUBLIC_ORIGIN (api/backup/restore.ts, ADR 006), into the
 * publish target the environment names, queueing CDN purges with CDN_PURGE_URL (ADR 135).
 * Run it with the server stopped and the server's configuration.
 */
import "./lib/production-mode.ts";
import { bucketOf } from "#api/deps.ts";
import { pagesOrigin, parseEnv } from "#api/env.server.ts";
import { RepublishError } from "#renderer/republish.ts";
import { commandTarget, purgesLine, type CommandTarget } from "./lib/command-target.ts";
import { secretsFor } from "./lib/backup-secrets.ts";
import { OperatorError, runOperatorCommand } from "./lib/operator.ts";
import { syncFolderToBucket } from "./lib/publish-target-sync.ts";
import { restoreBackup } from "#api/backup/restore.ts";

await runOperatorCommand(async () => {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const files = args.filter((a) => a !== "--force");
  if (files.length !== 1 || files[0]!.startsWith("-")) throw new OperatorError("Usage: npm run restore -- <file> [--force]");
  const env = parseEnv();
  const started = Date.now();
  let target: CommandTarget | undefined;
  const bucket = bucketOf(env);
  const restoring = restoreBackup({
    archive: files[0]!,
    // An encrypted backup: BACKUP_PASSPHRASE or BACKUP_AGE_IDENTITY_FILE, or asked for (ADR 160).
    secrets: await secretsFor(files[0]!),
    databasePath: env.DATABASE_PATH,
    publishedDir: env.PUBLISHED_DIR,
    origin: env.PUBLIC_ORIGIN,
    pagesOrigin: pagesOrigin(env),
    target: (db) => (target = commandTarget(env, db)).target,
    // The uploads of the backup, into the bucket (only those it lacks), before the pages naming them.
    beforePages: bucket
      ? async () => {
          const put = await syncFolderToBucket(bucket).catch((err: unknown) => {
            throw new OperatorError(`The database is restored, but the bucket refused the uploads: ${(err as Error).message} Run npm run publish-target:sync -- to-bucket, then npm run republish.`);
          });
          console.log(`Put ${put.copied} upload(s) into the bucket; ${put.unchanged} were there already.`);
        }
      : undefined,
    force,
  });
  const result = await restoring.catch((err: unknown) => {
    if (!(err instanceof RepublishError)) throw err;
    throw new OperatorError(`The backup is restored, but not every page is re-rendered: ${err.message} Run npm run republish once the publish target takes writes.`);
  }).finally(() => {
    const purges = purgesLine(target?.purgesQueued() ?? 0);
    if (purges) console.log(purges);
  });
  for (const folder of result.movedAside) console.log(`Moved the data it replaced to ${folder}`);
  const { createdAt, migration, counts } = result.manifest;
  console.log(
    `Restored the backup of ${createdAt} (migration ${migration}) with ${counts.media} media file(s) and ${counts.downloads} sold file(s) and re-rendered ${result.pages} page(s) for ${env.PUBLIC_ORIGIN} in ${Date.now() - started} ms.`,
  );
});
