/**
 * Once per `vitest run`: builds the visitor script the tests publish with, and gives the run one
 * temporary folder (TMPDIR, which the test workers inherit) that is removed when the run ends, so
 * the folders tests make under os.tmpdir() do not pile up from run to run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildVisitorScript } from "#scripts/build-visitor.ts";

export default async function setup(): Promise<() => void> {
  await buildVisitorScript();
  const root = mkdtempSync(join(tmpdir(), "plinth-vitest-"));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
