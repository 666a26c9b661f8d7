/**
 * Scheduled re-renders (ADR 031, 102): a published page changes by itself at each boundary, the start
 * or end of a scheduled link and the instant the owner's Plus ends (a trial end, a cancelled
 * subscription's period end), so scheduled links appear and disappear with nobody clicking Publish.
 *
 * Each boundary is a `page-boundary` job on the one job queue, written in the publish's transaction
 * (publishPage's `onPublished`), which replaces the page's boundaries queued before. When its time
 * comes the job re-renders the last published version under the plan as it is then; at the trial's
 * end the owner is told. A boundary that passes while the server is down is still a pending job and
 * runs at start; a pass at start queues the boundaries of every published page again, for pages
 * published before this queue or whose plan changed outside a publish.
 */
import { sitemapAfterPlanChange } from "../services/domains.ts";
import { and, eq, gt, sql } from "drizzle-orm";
import { PageSnapshotSchema, type PagePlan, type PageSnapshot } from "#core/model.ts";
import { durably, type Db } from "#db/client.ts";
import { jobs } from "#db/schema.ts";
import { loadPublishedBatch, publishedUserIds } from "#renderer/published-pages.ts";
import type { PublishedEvent, PublishOptions } from "#renderer/publish.ts";
import { rerenderPublishedPage } from "#renderer/rerender.ts";
import type { AppDeps } from "../context.ts";
import { pagesOrigin } from "../env.server.ts";
import { queueTrialEndedMail } from "../services/trial-end.ts";
import { enqueueJob } from "./queue.ts";
import { log } from "../log.ts";

/** Pages the start-up pass reads per query; the server answers requests between batches. */
const PASS_BATCH = 500;

export interface PageBoundaryJob {
  userId: string;
  /** The boundary, in ms since the epoch. */
  at: number;
}

type PlanTimes = Pick<PagePlan, "trialEndsAt" | "subscriptionStatus" | "currentPeriodEndDate">;

/** Every instant at which what a page shows may change, ascending. */
export function scheduleBoundaries(snapshot: PageSnapshot, plan: PlanTimes): number[] {
  const out: number[] = [];
  if (plan.trialEndsAt) out.push(Date.parse(plan.trialEndsAt));
  if (plan.subscriptionStatus === "canceled_plus" && plan.currentPeriodEndDate) out.push(Date.parse(plan.currentPeriodEndDate));
  for (const l of snapshot.links) {
    if (l.scheduleStartTime) out.push(Date.parse(l.scheduleStartTime));
    if (l.scheduleEndTime) out.push(Date.parse(l.scheduleEndTime));
  }
  return [...new Set(out.filter((t) => Number.isFinite(t)))].sort((a, b) => a - b);
}

/**
 * The page's boundaries after `at`, queued in `tx`; those queued before for a later instant are
 * replaced. One due already (a boundary that passed while the server was down) stays and runs.
 */
export function queuePageBoundaries(tx: Db, page: Pick<PublishedEvent, "userId" | "snapshot" | "plan">, at: Date): void {
  tx.delete(jobs)
    .where(and(eq(jobs.kind, "page-boundary"), eq(jobs.state, "pending"), gt(jobs.runAfter, at), sql`json_extract(${jobs.payload}, '$.userId') = ${page.userId}`))
    .run();
  for (const t of scheduleBoundaries(page.snapshot, page.plan)) {
    if (t <= at.getTime()) continue;
    const job: PageBoundaryJob = { userId: page.userId, at: t };
    enqueueJob(tx, { kind: "page-boundary", payload: job }, at, new Date(t));
  }
}

/** Publish options whose publish queues the page's boundaries with the new version. */
export function withSchedule<O extends PublishOptions>(opts: O): O {
  return { ...opts, onPublished: (tx: Db, page: PublishedEvent) => queuePageBoundaries(tx, page, opts.now) };
}

/** A stored snapshot's object form, or undefined (which the schema refuses) for text that is not JSON. */
function safeDecode(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** At start: every published page's future boundaries queued again. Resolves with the pages seen. */
export async function requeuePageBoundaries(db: Db, now: () => Date): Promise<number> {
  const ids = publishedUserIds(db);
  let seen = 0;
  for (let i = 0; i < ids.length; i += PASS_BATCH) {
    if (i > 0) await new Promise((r) => setImmediate(r));
    const pages = loadPublishedBatch(db, ids.slice(i, i + PASS_BATCH));
    durably(db, (tx) => {
      for (const page of pages) {
        const parsed = PageSnapshotSchema.safeParse(safeDecode(page.snapshotJson));
        if (!parsed.success) {
          // One unreadable snapshot must not stop every other page's schedule.
          log().warn({ userId: page.userId }, "Scheduled re-renders: unreadable published snapshot");
          continue;
        }
        queuePageBoundaries(tx, { userId: page.userId, snapshot: parsed.data, plan: page.plan }, now());
        seen++;
      }
    });
  }
  return seen;
}

/**
 * The `page-boundary` job: the last published version re-rendered under the plan as it is now, in
 * the lock every page writer takes (ADR 097); at the trial's end, the owner's e-mail is queued.
 */
export async function runPageBoundary(deps: AppDeps, job: PageBoundaryJob): Promise<void> {
  const { env } = deps;
  const done = await rerenderPublishedPage(deps.db, job.userId, { publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(env), now: deps.now() }, deps.target);
  if (done) queueTrialEndedMail(deps, job.userId, job.at);
  if (done) await sitemapAfterPlanChange(deps, job.userId);
}
