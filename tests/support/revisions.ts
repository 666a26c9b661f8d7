/**
 * The revision an up-to-date dashboard tab would send with a write (ADR 068), read from the test
 * app's database: tests of other rules send their writes as such a tab, and the concurrency tests
 * send older revisions on purpose. An id of another owner's row gives that row's revision, so the
 * request still reaches the ownership check (404).
 */
import { eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { linkLists, links, socialLinks, userProfiles } from "#db/schema.ts";

/** The revision a write to `path` is compared with, or null for a path that takes none. */
export function currentRevision(db: Db, userId: string, path: string): number | null {
  const p = new URL(path, "http://x").pathname;
  const profile = () => db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get()!;
  const row = (table: typeof links | typeof linkLists | typeof socialLinks, id: string) =>
    db.select({ r: table.revision }).from(table).where(eq(table.id, decodeURIComponent(id))).get()?.r ?? 0;
  let m: RegExpMatchArray | null;
  if (p === "/api/links/order") return profile().linksOrderRevision;
  if ((m = p.match(/^\/api\/links\/([^/]+)(?:\/visibility|\/main)?$/)) && m[1] !== "files") return row(links, m[1]!);
  if ((m = p.match(/^\/api\/link-lists\/([^/]+)$/))) return row(linkLists, m[1]!);
  if (p === "/api/social-links/order" || p === "/api/social-links/qr-code") return profile().socialOrderRevision;
  if ((m = p.match(/^\/api\/social-links\/([^/]+)(?:\/visibility)?$/))) return row(socialLinks, m[1]!);
  if (p === "/api/profile/text") return profile().textRevision;
  if (p === "/api/profile/picture-settings" || p === "/api/profile/picture") return profile().pictureRevision;
  if (p === "/api/profile/appearance") return profile().appearanceRevision;
  return null;
}

/**
 * The request an up-to-date tab sends: the current revision added to an object body, or to the query
 * string of a DELETE. Creates (POST to a collection) and bodies that are not objects go as they are.
 */
export function asFreshTab(db: Db, userId: string, method: string, path: string, body: unknown): { path: string; body: unknown } {
  if (method === "GET" || method === "POST") return { path, body };
  const revision = currentRevision(db, userId, path);
  if (revision === null) return { path, body };
  if (method === "DELETE") return { path: `${path}${path.includes("?") ? "&" : "?"}revision=${revision}`, body };
  if (body && typeof body === "object" && !Array.isArray(body) && !("revision" in body)) return { path, body: { ...body, revision } };
  return { path, body };
}
