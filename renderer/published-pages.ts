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

/**
 * The last published snapshot and the current plan of each page, in one query. The snapshot stays
 * JSON text: bulk republish's main thread, which also answers the workers, does less, and a batch
 * crosses to a worker as strings, which copy cheaply.
 */
export function loadPublishedBatch(db: Db, userIds: string[]): PublishedPage[] {
  if (userIds.length === 0) return [];
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
    .innerJoin(userProfiles, eq(userProfiles.userId, latest.userId))
    .all()
    .map((r) => ({ userId: r.userId, snapshotJson: r.snapshotJson, plan: planOf(r) }));
}
