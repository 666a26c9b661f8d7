/**
 * A bundled module written once under node_modules/.cache/plinth/ (where its packages resolve),
 * named by its content hash: the republish worker, and the child processes tests start many times.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CACHE_DIR = fileURLToPath(new URL("../node_modules/.cache/plinth/", import.meta.url));

/** The file's path; written under a temporary name first, so a concurrent reader never sees half of it. */
export function cachedBundle(name: string, code: Uint8Array): string {
  const path = join(CACHE_DIR, `${name}.${createHash("sha256").update(code).digest("hex").slice(0, 12)}.mjs`);
  if (!existsSync(path)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, path);
  }
  return path;
}
