/**
 * npm run restore -- <file> [--force]: puts a backup back into DATA_DIR and PUBLISHED_DIR and
 * re-renders every published page for PUBLIC_ORIGIN (scripts/lib/restore.ts, ADR 006).
 * Run it with the server stopped and the server's configuration.
 */
import "./lib/production-mode.ts";
import { parseEnv } from "#api/env.server.ts";
import { OperatorError, runOperatorCommand } from "./lib/operator.ts";
import { restoreBackup } from "./lib/restore.ts";

await runOperatorCommand(async () => {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const files = args.filter((a) => a !== "--force");
  if (files.length !== 1 || files[0]!.startsWith("-")) throw new OperatorError("Usage: npm run restore -- <file> [--force]");
  const env = parseEnv();
  const started = Date.now();
  const result = await restoreBackup({ archive: files[0]!, databasePath: env.DATABASE_PATH, publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, force });
  for (const folder of result.movedAside) console.log(`Moved the data it replaced to ${folder}`);
  const { createdAt, migration, counts } = result.manifest;
  console.log(
    `Restored the backup of ${createdAt} (migration ${migration}) with ${counts.media} media file(s) and re-rendered ${result.pages} page(s) for ${env.PUBLIC_ORIGIN} in ${Date.now() - started} ms.`,
  );
});
