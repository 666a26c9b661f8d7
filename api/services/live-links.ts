/**
 * Which links a page's published version shows right now (its schedule and the owner's plan applied,
 * as on the page). A click beacon counts only for one of these: a hidden, unscheduled, deleted or
 * another page's link was never clickable there.
 */
import { and, eq, max } from "drizzle-orm";
import type { PageSnapshot } from "#core/model.ts";
import { visibleContentOf } from "#core/visible-content.ts";
import type { Db } from "#db/client.ts";
import { links, pageVersions, userProfiles } from "#db/schema.ts";
import { planOf } from "#renderer/draft.ts";
import { lastPublishedSnapshot } from "#renderer/publish.ts";

/** Parsed published snapshots by owner, kept while the version stays the newest. */
export function createLiveLinks(db: Db, capacity = 500) {
  const cache = new Map<string, { version: number; snapshot: PageSnapshot }>();
  const snapshotOf = (userId: string) => {
    const version = db.select({ v: max(pageVersions.version) }).from(pageVersions).where(eq(pageVersions.userId, userId)).get()?.v ?? null;
    if (version === null) return null;
    const hit = cache.get(userId);
    if (hit && hit.version === version) return hit.snapshot;
    const last = lastPublishedSnapshot(db, userId);
    if (!last) return null;
    if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
    cache.set(userId, last);
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
