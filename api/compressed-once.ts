/**
 * The compressed form of a text file that has no copy beside it (every page and its own files,
 * ADR 121), made once per version of the file and kept in memory: a visitor is never sent a page
 * uncompressed, and nothing is compressed again while the file stays the same. A version is its
 * path, inode, size and modification time; a publish replaces the file, so its new version gets
 * its own entry and the old one ages out. Bounded by bytes, least recently used first out.
 */
import { readSync } from "node:fs";
import { compress, type Encoding, ENCODINGS } from "#renderer/precompress.ts";

/** Compressed bytes kept at most: about 5,000 typical pages in both encodings. */
export const COMPRESSED_ONCE_BUDGET = 48 * 1024 * 1024;

export interface FileVersion {
  fd: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

interface Entry {
  copies: Promise<Buffer[]>;
  /** Bytes held, once compressed. */
  size: number;
}

/** Least recently used first: a Map keeps insertion order, and a hit moves its entry to the end. */
const cache = new Map<string, Entry>();
let bytes = 0;
/** How many versions were compressed since the process started (the tests count them). */
export const compressedOnceStats = { compressions: 0 };

function readWhole(file: FileVersion): Buffer {
  const buf = Buffer.allocUnsafe(file.size);
  for (let off = 0; off < file.size; ) {
    const n = readSync(file.fd, buf, off, file.size - off, off);
    if (n === 0) return buf.subarray(0, off);
    off += n;
  }
  return buf;
}

function evict(): void {
  for (const [key, entry] of cache) {
    if (bytes <= COMPRESSED_ONCE_BUDGET) return;
    cache.delete(key);
    bytes -= entry.size;
  }
}

/** The file's content in `encoding`, compressed on the thread pool the first time it is asked for. */
export async function compressedOnce(path: string, file: FileVersion, encoding: Encoding): Promise<Buffer> {
  const key = `${path}\0${file.ino}\0${file.size}\0${file.mtimeMs}`;
  let entry = cache.get(key);
  if (entry) {
    cache.delete(key);
    cache.set(key, entry);
  } else {
    compressedOnceStats.compressions += 1;
    const made: Entry = { copies: compress(readWhole(file), "quick"), size: 0 };
    entry = made;
    cache.set(key, made);
    made.copies.then(
      (copies) => {
        if (cache.get(key) !== made) return;
        made.size = copies.reduce((n, c) => n + c.length, 0);
        bytes += made.size;
        evict();
      },
      () => cache.delete(key),
    );
  }
  const copies = await entry.copies;
  return copies[ENCODINGS.findIndex((e) => e.name === encoding)]!;
}
