/**
 * Which links a page's published version shows right now (its schedule and the owner's plan applied,
 * as on the page). A click beacon counts only for one of these: a hidden, unscheduled, deleted or
 * another page's link was never clickable there.
 */
import { and, desc, eq } from "drizzle-orm";
import type { PageSnapshot } from "#core/model.ts";
import { visibleContentOf } from "#core/visible-content.ts";
import type { Db } from "#db/client.ts";
import { links, pageVersions, userProfiles } from "#db/schema.ts";
import { planOf } from "#renderer/draft.ts";
import { lastPublishedSnapshot } from "#renderer/publish.ts";

/**
 * Parsed published snapshots by owner, as visitors are shown them, kept while the version stays the
 * newest and withholds the same items (ADR 259: a re-render under Plus may record them on the version).
 */
export function createLiveLinks(db: Db, capacity = 500) {
  const cache = new Map<string, { version: string; snapshot: PageSnapshot }>();
  const snapshotOf = (userId: string) => {
    const newest = db
      .select({ v: pageVersions.version, w: pageVersions.withheldItems })
      .from(pageVersions)
      .where(eq(pageVersions.userId, userId))
      .orderBy(desc(pageVersions.version))
      .limit(1)
      .get();
    if (!newest) return null;
    const version = JSON.stringify([newest.v, newest.w]);
    const hit = cache.get(userId);
    if (hit && hit.version === version) return hit.snapshot;
    const last = lastPublishedSnapshot(db, userId);
    if (!last) return null;
    if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
    cache.set(userId, { version, snapshot: last.snapshot });
    return last.snapshot;
  };

  /** True when `linkId` is live on `userId`'s published page at `now` and still exists. */
  return function isLive(userId: string, linkId: string, now: Date): boolean {
    const profile = db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get();
    if (!profile?.hasPublishedPage) return false;
    const snapshot = snapshotOf(userId);
    if (!snapshot) return false;
    if (!visibleContentOf(snapshot, planOf(profile), now).links.some((l) => l.id === linkId)) return false;
    return !!db.select({ id: links.id }).from(links).where(and(eq(links.id, linkId), eq(links.userId, userId))).get();
  };
}
