/**
 * Published pages read in bulk: every published owner's id, and for a batch of them the last
 * published snapshot with the owner's plan as it is now, in one query. Bulk republish and the
 * start-up pass that queues scheduled re-renders read pages through here.
 */
import type { Statement } from "better-sqlite3";
import { and, asc, eq, isNotNull, isNull, max, sql } from "drizzle-orm";
import type { PagePlan } from "#core/model.ts";
import { plusItemsStateAfter, type PlusItemsState } from "#core/plan-hides.ts";
import { transaction, type Db } from "#db/client.ts";
import type { PageToRender, RenderSettings, UnderPageLock } from "./republish-batch.ts";
import { customDomains, pageVersions, userProfiles } from "#db/schema.ts";
import { planOf } from "./draft.ts";
import { rerenderLastVersion } from "./publish.ts";

export function publishedUserIds(db: Db): string[] {
  return publishedOwners(db).map((r) => r.userId);
}

/**
 * A statement prepared once per connection and `cache`, its rows read as arrays: the bulk reads here
 * run thousands of times a republish, and drizzle's query building and row mapping cost more than
 * the queries themselves (ADR 097).
 */
function preparedOnce<P extends unknown[], R>(cache: WeakMap<Db["$client"], Statement<P, R>>, db: Db, prepare: () => Statement<P, R>): Statement<P, R> {
  let stmt = cache.get(db.$client);
  if (stmt === undefined) {
    stmt = prepare().raw(true);
    cache.set(db.$client, stmt);
  }
  return stmt;
}

const ownerStatements = new WeakMap<Db["$client"], Statement<[], [userId: string, username: string]>>();

/**
 * Every owner with a published page that is not suspended (ADR 108), with the username that names
 * the page's folder, in username order (the sitemap's). A republish of thousands of pages starts
 * with this list.
 */
export function publishedOwners(db: Db): { userId: string; username: string }[] {
  const stmt = preparedOnce(ownerStatements, db, () => {
    const query = db
      .select({ userId: userProfiles.userId, username: userProfiles.username })
      .from(userProfiles)
      .where(and(eq(userProfiles.hasPublishedPage, true), isNull(userProfiles.pageSuspendedAt)))
      .orderBy(asc(userProfiles.username))
      .toSQL();
    // The query's parameters are constants, bound once.
    return db.$client.prepare<unknown[], [string, string]>(query.sql).bind(...query.params) as unknown as Statement<[], [string, string]>;
  });
  return stmt.all().map(([userId, username]) => ({ userId, username }));
}

/**
 * The last published snapshot and the current plan of each of a batch of owners, as one statement
 * prepared once per connection: the owners' ids go in as one JSON array parameter, so the SQL text
 * is the same for every batch. (Building the query anew for each batch cost every republish thread
 * its query builder's time and, as that code warmed up, its compilation; ADR 097.)
 */
function latestPublishedSql(db: Db): string {
  const latest = db
    .select({ userId: pageVersions.userId, version: max(pageVersions.version).as("latest_version") })
    .from(pageVersions)
    .where(sql`${pageVersions.userId} in (select value from json_each(${sql.placeholder("ids")}))`)
    .groupBy(pageVersions.userId)
    .as("latest");
  return db
    .select({
      userId: latest.userId,
      version: latest.version,
      snapshotJson: sql<string>`${pageVersions.snapshot}`,
      withheldJson: sql<string | null>`${pageVersions.withheldItems}`,
      planType: userProfiles.planType,
      subscriptionStatus: userProfiles.subscriptionStatus,
      currentPeriodEndDate: userProfiles.currentPeriodEndDate,
      trialEndsAt: userProfiles.trialEndsAt,
      customDomain: customDomains.name,
    })
    .from(latest)
    .innerJoin(pageVersions, and(eq(pageVersions.userId, latest.userId), eq(pageVersions.version, latest.version)))
    .innerJoin(userProfiles, eq(userProfiles.userId, latest.userId))
    .leftJoin(customDomains, and(eq(customDomains.userId, latest.userId), isNotNull(customDomains.verifiedAt)))
    .toSQL().sql;
}

type LatestRow = [userId: string, version: number, snapshotJson: string, withheldJson: string | null, planType: PagePlan["planType"], subscriptionStatus: PagePlan["subscriptionStatus"], periodEnd: number | null, trialEnd: number | null, customDomain: string | null];

const statements = new WeakMap<Db["$client"], Statement<[string], LatestRow>>();
function latestPublished(db: Db): Statement<[string], LatestRow> {
  return preparedOnce(statements, db, () => db.$client.prepare<[string], LatestRow>(latestPublishedSql(db)));
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));
const pageOf = ([userId, version, snapshotJson, withheldJson, planType, subscriptionStatus, periodEnd, trialEnd, customDomain]: LatestRow): PageToRender => ({
  userId,
  version,
  snapshotJson,
  withheldJson,
  plan: planOf({ planType, subscriptionStatus, currentPeriodEndDate: date(periodEnd), trialEndsAt: date(trialEnd) }),
  customDomain,
});

/**
 * The pages of a batch, in one query. The snapshot stays JSON text: whoever renders or reads the
 * page parses and checks it.
 */
export function loadPublishedBatch(db: Db, userIds: string[]): PageToRender[] {
  return [...streamPublishedBatch(db, userIds)];
}

/**
 * The same pages, one at a time as the query yields them, for bulk republish: each snapshot's text
 * is garbage as soon as its page is rendered, instead of a batch of them outliving a garbage
 * collection and being copied by it. The connection is busy until the iteration ends: nothing else
 * may use it meanwhile (the start-up pass of scheduled re-renders, which writes as it reads, takes
 * the batch whole).
 */
export function* streamPublishedBatch(db: Db, userIds: string[]): Generator<PageToRender> {
  if (userIds.length === 0) return;
  for (const row of latestPublished(db).iterate(JSON.stringify(userIds))) yield pageOf(row);
}

const versionStatements = new WeakMap<Db["$client"], Statement<[string], [userId: string, version: number, withheldJson: string | null]>>();

/**
 * The page lock for bulk re-renders on this connection (ADR 097): a write transaction (BEGIN
 * IMMEDIATE, which waits for any other writer, in any process) in which each page's latest published
 * version is read again, and only the pages still at the version they were rendered from, and not
 * suspended meanwhile (ADR 108), are swapped and recorded as rendered with the settings' fingerprint,
 * each with what its render tells of the owner's Plus items, as a single publish records it (ADR 136,
 * 201). A page whose version's withheld items changed since it was staged (another process re-rendered
 * or published it), or rendered under Plus while its owner's Lite page hid items ("hidden"), is
 * re-rendered here by the single re-render instead, which decides what it withholds (ADR 259), before
 * any staged page is swapped in; the lock answers with those pages.
 */
export function pageLockOf(db: Db, settings: RenderSettings): UnderPageLock {
  const { fingerprint } = settings;
  const latest = preparedOnce(versionStatements, db, () =>
    db.$client.prepare<[string], [string, number, string | null]>(
      "SELECT v.user_id, v.version, v.withheld_items FROM page_versions v WHERE v.user_id IN (SELECT value FROM json_each(?)) AND v.version = (SELECT max(version) FROM page_versions WHERE user_id = v.user_id) AND v.user_id NOT IN (SELECT user_id FROM user_profiles WHERE page_suspended_at IS NOT NULL)",
    ),
  );
  const mark = db.$client.prepare<[string, string, number]>("UPDATE page_versions SET template_fingerprint = ? WHERE user_id = ? AND version = ?");
  const states = db.$client.prepare<[string], [string, PlusItemsState]>("SELECT user_id, plus_items_state FROM user_profiles WHERE user_id IN (SELECT value FROM json_each(?))").raw(true);
  const setState = db.$client.prepare<[PlusItemsState, string]>("UPDATE user_profiles SET plus_items_state = ? WHERE user_id = ?");
  return (pages, swap) =>
    transaction(db, () => {
      const now = new Map(latest.all(JSON.stringify(pages.map((p) => p.userId))).map(([userId, version, withheld]) => [userId, { version, withheld }]));
      const fresh = pages.filter((p) => now.get(p.userId)?.version === p.version);
      const was = new Map(states.all(JSON.stringify(fresh.map((p) => p.userId))));
      // What a Lite render hid comes back under Plus, or the version withholds otherwise than when the
      // page was staged: the single re-render decides what it withholds.
      const back = fresh.filter((p) => (!p.plusItems.lite && was.get(p.userId) === "hidden") || now.get(p.userId)!.withheld !== p.withheldJson);
      const current = fresh.filter((p) => !back.includes(p));
      const { fingerprint: _f, ...origins } = settings;
      for (const p of back) rerenderLastVersion(db, p.userId, { ...origins, now: new Date() });
      swap(current);
      // Each page swapped in now follows the template it was rendered with.
      for (const p of current) mark.run(fingerprint, p.userId, p.version);
      for (const p of current) {
        const state = was.get(p.userId);
        const next = state && plusItemsStateAfter(state, p.plusItems.lite, p.plusItems.hidden);
        if (next && next !== state) setState.run(next, p.userId);
      }
      return back.map((p) => p.userId);
    });
}
