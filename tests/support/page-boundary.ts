/**
 * A page's scheduled re-render is a `page-boundary` job due at the boundary (api/jobs/page-schedule.ts).
 * Browser tests make a boundary come "as if the time had come", without waiting on the clock: the
 * instant moves into the past in the database (in the published snapshot for a link, in the profile
 * for a trial), and the job due then moves with it, so the server's job worker runs it at once.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { PageSnapshot } from "#core/model.ts";
import type { Db } from "#db/client.ts";
import { jobs, pageVersions, userProfiles } from "#db/schema.ts";

/** The owner's pending boundary job at `from` becomes due at `to`, a boundary at `to`. */
function moveBoundary(db: Db, userId: string, from: Date, to: Date): void {
  const moved = db
    .update(jobs)
    .set({ runAfter: to, payload: { userId, at: to.getTime() } })
    .where(and(eq(jobs.kind, "page-boundary"), eq(jobs.state, "pending"), eq(jobs.runAfter, from), sql`json_extract(${jobs.payload}, '$.userId') = ${userId}`))
    .run();
  if (moved.changes !== 1) throw new Error(`no boundary job at ${from.toISOString()}`);
}

/** The published link titled `title` starts (or ends) a moment ago instead of at `from`. */
export function linkBoundaryNow(db: Db, userId: string, title: string, which: "scheduleStartTime" | "scheduleEndTime"): void {
  const to = new Date(Date.now() - 1000);
  const last = db.select().from(pageVersions).where(eq(pageVersions.userId, userId)).orderBy(desc(pageVersions.version)).limit(1).get()!;
  const snapshot = last.snapshot as PageSnapshot;
  const link = snapshot.links.find((l) => l.title === title)!;
  const from = new Date(link[which]!);
  link[which] = to.toISOString();
  db.update(pageVersions).set({ snapshot }).where(eq(pageVersions.id, last.id)).run();
  moveBoundary(db, userId, from, to);
}

/** The owner's trial ended a moment ago instead of at its end. */
export function trialEndNow(db: Db, userId: string): void {
  const to = new Date(Date.now() - 1000);
  const from = db.select({ at: userProfiles.trialEndsAt }).from(userProfiles).where(eq(userProfiles.userId, userId)).get()!.at!;
  db.update(userProfiles).set({ trialEndsAt: to }).where(eq(userProfiles.userId, userId)).run();
  moveBoundary(db, userId, from, to);
}
