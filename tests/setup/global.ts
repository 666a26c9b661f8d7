/**
 * Once per `vitest run`: builds the visitor script the tests publish with, and gives the run one
 * temporary folder (TMPDIR, which the test workers inherit) that is removed when the run ends, so
 * the folders tests make under os.tmpdir() do not pile up from run to run.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildVisitorScript } from "#scripts/build-visitor.ts";

export default async function setup(): Promise<() => void> {
  await buildVisitorScript();
  const root = mkdtempSync(join(tmpdir(), "plinth-vitest-"));
  // Open to other users, as /tmp is: nginx's workers run unprivileged and serve folders made in it.
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
