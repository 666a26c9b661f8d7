/**
 * Pages follow the template by themselves (ADR 097): at start the server lists the published pages
 * whose latest version was rendered with another template fingerprint (or none recorded), oldest
 * publish first, and re-renders them in the background on a worker thread, under the page lock,
 * logging its progress. The main thread only hands out batches, so requests are not held up. With
 * a bucket as the publish target, the pages go through it one by one (ADR 135).
 */
import { asc, eq, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { pageVersions, userProfiles } from "#db/schema.ts";
import { ensureSharedAssets } from "./assets.ts";
import type { PublishTarget } from "./publish-target.ts";
import { republishAll } from "./republish.ts";
import { templateFingerprint } from "./template-fingerprint.ts";
import type { PageOrigins } from "./types.ts";

/** Published owners whose page does not follow `fingerprint`, the longest published first; never a suspended page (ADR 108). */
export function outOfDateOwners(db: Db, fingerprint: string): { userId: string; username: string }[] {
  const latest = db
    .select({ userId: pageVersions.userId, version: sql<number>`max(${pageVersions.version})`.as("latest_version") })
    .from(pageVersions)
    .groupBy(pageVersions.userId)
    .as("latest");
  return db
    .select({ userId: userProfiles.userId, username: userProfiles.username })
    .from(latest)
    .innerJoin(pageVersions, sql`${pageVersions.userId} = ${latest.userId} and ${pageVersions.version} = ${latest.version}`)
    .innerJoin(userProfiles, eq(userProfiles.userId, latest.userId))
    .where(sql`${userProfiles.hasPublishedPage} = 1 and ${userProfiles.pageSuspendedAt} is null and ${or(isNull(pageVersions.templateFingerprint), ne(pageVersions.templateFingerprint, fingerprint))}`)
    .orderBy(asc(pageVersions.publishedAt), asc(userProfiles.username))
    .all();
}

export interface FollowOptions extends PageOrigins {
  /** The server's publish target (ADR 135): the folder when none is given. */
  target?: PublishTarget;
  log?: (line: string) => void;
}

/** Re-render every out-of-date page; resolves with how many were re-rendered. */
export async function followTemplate(db: Db, opts: FollowOptions): Promise<number> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const fingerprint = templateFingerprint(ensureSharedAssets(opts.publishedDir));
  const owners = outOfDateOwners(db, fingerprint);
  if (owners.length === 0) return 0;
  log(`Re-rendering ${owners.length} page(s) for the current template, oldest first…`);
  const started = Date.now();
  let lastLine = started;
  const done = await republishAll(db, {
    publishedDir: opts.publishedDir,
    origin: opts.origin,
    apiOrigin: opts.apiOrigin,
    pagesOrigin: opts.pagesOrigin,
    target: opts.target,
    logFailure: opts.log ?? ((line: string) => console.error(line)),
    owners,
    threads: 1,
    offMainThread: true,
    onProgress(n, total) {
      if (n < total && Date.now() - lastLine < 5000) return;
      lastLine = Date.now();
      log(`Re-rendered ${n}/${total} page(s) for the current template.`);
    },
  });
  log(`All ${done} out-of-date page(s) follow the current template (${Date.now() - started} ms).`);
  return done;
}
