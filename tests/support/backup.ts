/**
 * Helpers for the backup and restore tests: a target's two folders, and a folder's files with
 * their SHA-256, to compare a tree before and after.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface Folders {
  data: string;
  published: string;
}

/** Every file under root by its path relative to root (with / separators), sorted; filter picks paths. */
export function treeOf(root: string, filter: (path: string) => boolean = () => true): Map<string, string> {
  if (!existsSync(root)) return new Map();
  const paths = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter(filter)
    .sort();
  return new Map(paths.map((p) => [p, createHash("sha256").update(readFileSync(join(root, p))).digest("hex")]));
}

/**
 * Not a compressed copy (ADR 054): a restore re-renders pages in bulk, without copies (ADR 057), so
 * pages are compared by their files, and copies only where restore writes them.
 */
export const notACopy = (path: string): boolean => !/\.(br|gz)$/.test(path);

/** A path no part of which is a dot file (what a static host serves). */
export function served(path: string): boolean {
  return !path.split("/").some((part) => part.startsWith("."));
}
