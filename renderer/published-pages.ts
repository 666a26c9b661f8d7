/**
 * Published pages read in bulk: every published owner's id, and for a batch of them the last
 * published snapshot with the owner's plan as it is now, in one query. Bulk republish and the
 * scheduler's full scan read pages through here.
 */
import { and, eq, inArray, max, sql } from "drizzle-orm";
import type { PagePlan } from "#core/model.ts";
import type { Db } from "#db/client.ts";
import { pageVersions, userProfiles } from "#db/schema.ts";
import { planOf } from "./draft.ts";

export function publishedUserIds(db: Db): string[] {
  return db.select({ id: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.hasPublishedPage, true)).all().map((r) => r.id);
}

export interface PublishedPage {
  userId: string;
  /** The page_versions row's snapshot, as stored: whoever renders or reads the page parses and checks it. */
  snapshotJson: string;
  plan: PagePlan;
}

/** The last published snapshot and the current plan of each of `userIds`, as one query. */
function latestPublished(db: Db, userIds: string[]) {
  const latest = db
    .select({ userId: pageVersions.userId, version: max(pageVersions.version).as("latest_version") })
    .from(pageVersions)
    .where(inArray(pageVersions.userId, userIds))
    .groupBy(pageVersions.userId)
    .as("latest");
  return db
    .select({
      userId: latest.userId,
      snapshotJson: sql<string>`${pageVersions.snapshot}`,
      planType: userProfiles.planType,
      subscriptionStatus: userProfiles.subscriptionStatus,
      currentPeriodEndDate: userProfiles.currentPeriodEndDate,
      trialEndsAt: userProfiles.trialEndsAt,
    })
    .from(latest)
    .innerJoin(pageVersions, and(eq(pageVersions.userId, latest.userId), eq(pageVersions.version, latest.version)))
    .innerJoin(userProfiles, eq(userProfiles.userId, latest.userId));
}

/**
 * The pages of a batch, in one query. The snapshot stays JSON text: whoever renders or reads the
 * page parses and checks it.
 */
export function loadPublishedBatch(db: Db, userIds: string[]): PublishedPage[] {
  if (userIds.length === 0) return [];
  return latestPublished(db, userIds)
    .all()
    .map((r) => ({ userId: r.userId, snapshotJson: r.snapshotJson, plan: planOf(r) }));
}

/**
 * The same pages, one at a time as the query yields them, for bulk republish: each snapshot's text
 * is garbage as soon as its page is rendered, instead of a batch of them outliving a garbage
 * collection and being copied by it. The connection is busy until the iteration ends: nothing else
 * may use it meanwhile (the scheduler, which publishes as it reads, takes the batch whole).
 */
export function* streamPublishedBatch(db: Db, userIds: string[]): Generator<PublishedPage> {
  if (userIds.length === 0) return;
  const query = latestPublished(db, userIds).toSQL();
  const rows = db.$client
    .prepare(query.sql)
    .raw()
    .iterate(...query.params) as IterableIterator<[string, string, PagePlan["planType"], PagePlan["subscriptionStatus"], number | null, number | null]>;
  const date = (ms: number | null) => (ms === null ? null : new Date(ms));
  for (const [userId, snapshotJson, planType, subscriptionStatus, periodEnd, trialEnd] of rows) {
    yield { userId, snapshotJson, plan: planOf({ planType, subscriptionStatus, currentPeriodEndDate: date(periodEnd), trialEndsAt: date(trialEnd) }) };
  }
}
