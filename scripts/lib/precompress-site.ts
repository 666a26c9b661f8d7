/**
 * The last step of `npm run build` (an Astro integration in astro.config.mjs): every text file of
 * the built site gets its brotli and gzip copies beside it, compressed as hard as the formats go,
 * each stamped with its file's modification time, so the server sends them without compressing on
 * each request (ADR 054).
 */
import { readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { compress, ENCODINGS, isCompressible } from "../../renderer/precompress.ts";

/** The paths of the files under `dir`, at any depth, whose names `keep` accepts. */
export async function filesUnder(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && keep(e.name)).map((e) => join(e.parentPath, e.name));
}

/** Compressed copies of every text file under `dir`; resolves with how many files got them. */
export async function precompressFolder(dir: string): Promise<number> {
  const files = await filesUnder(dir, isCompressible);
  await Promise.all(
    files.map(async (file) => {
      const [content, st] = await Promise.all([readFile(file), stat(file)]);
      const copies = await compress(content, "build");
      await Promise.all(
        ENCODINGS.map(async (e, i) => {
          await writeFile(file + e.suffix, copies[i]!);
          await utimes(file + e.suffix, st.atime, st.mtimeMs / 1000);
        }),
      );
    }),
  );
  return files.length;
}

/** The integration: runs once the site is written. */
export function precompressSite(): AstroIntegration {
  return {
    name: "plinth-precompress",
    hooks: {
      "astro:build:done": async ({ dir, logger }) => {
        const n = await precompressFolder(fileURLToPath(dir));
        logger.info(`brotli and gzip copies of ${n} files`);
      },
    },
  };
}
