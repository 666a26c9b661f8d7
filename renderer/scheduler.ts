/**
 * Scheduled rebuilds: the server re-renders a published page at each link schedule boundary and when
 * a trial ends, so scheduled links appear and disappear with nobody clicking Publish. What is due is
 * computed from the database and the page files at every wake-up (a boundary after the page's last
 * render and not after now), so rebuilds missed while the server was down happen on start. A real
 * timer sleeps until the next boundary, capped at an hour to resist clock drift.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { PageSnapshot } from "#core/model.ts";
import type { Db } from "#db/client.ts";
import { userProfiles, users } from "#db/schema.ts";
import { loadDraft } from "./draft.ts";
import { lastPublishedSnapshot, onPublished, writePage, withPageLock } from "./publish.ts";

export const MAX_SLEEP_MS = 60 * 60 * 1000;

export interface SchedulerOptions {
  db: Db;
  publishedDir: string;
  origin: string;
  now?: () => Date;
  /** Told when a page was re-rendered because its owner's trial ended. */
  onTrialEnded?: (owner: { userId: string; email: string; username: string }) => void | Promise<void>;
}

export interface Scheduler {
  /** The start-up run: pages whose boundaries passed while the server was down, re-rendered. */
  ready: Promise<string[]>;
  /** Run what is due now and re-arm the timer. Resolves with the usernames re-rendered. */
  tick(): Promise<string[]>;
  stop(): void;
}

/** Every instant at which what a page shows may change. */
export function scheduleBoundaries(snapshot: PageSnapshot, trialEndsAt: Date | null): number[] {
  const out: number[] = [];
  for (const l of snapshot.links) {
    if (l.scheduleStartTime) out.push(Date.parse(l.scheduleStartTime));
    if (l.scheduleEndTime) out.push(Date.parse(l.scheduleEndTime));
  }
  if (trialEndsAt) out.push(trialEndsAt.getTime());
  return out.filter((t) => Number.isFinite(t));
}

function renderedAt(publishedDir: string, username: string): number {
  try {
    return statSync(join(publishedDir, username, "index.html")).mtimeMs;
  } catch {
    return 0;
  }
}

export function startScheduler(opts: SchedulerOptions): Scheduler {
  const now = opts.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<string[]> | null = null;

  const run = async (): Promise<string[]> => {
    const at = now();
    const t = at.getTime();
    let next = t + MAX_SLEEP_MS;
    const rebuilt: string[] = [];
    const pages = opts.db
      .select({ userId: userProfiles.userId, username: userProfiles.username, trialEndsAt: userProfiles.trialEndsAt, email: users.email })
      .from(userProfiles)
      .innerJoin(users, eq(users.id, userProfiles.userId))
      .where(eq(userProfiles.hasPublishedPage, true))
      .all();
    for (const page of pages) {
      const last = lastPublishedSnapshot(opts.db, page.userId);
      if (!last) continue;
      const since = renderedAt(opts.publishedDir, last.snapshot.profile.username);
      const bounds = scheduleBoundaries(last.snapshot, page.trialEndsAt);
      const due = bounds.some((b) => b > since && b <= t);
      for (const b of bounds) if (b > t && b < next) next = b;
      if (!due) continue;
      const trialEnded = page.trialEndsAt !== null && page.trialEndsAt.getTime() > since && page.trialEndsAt.getTime() <= t;
      await withPageLock(page.userId, () => {
        const draft = loadDraft(opts.db, page.userId);
        if (!draft) return;
        // The last published snapshot, not the draft, under the owner's plan as it is now.
        writePage(last.snapshot, draft.plan, { publishedDir: opts.publishedDir, origin: opts.origin, now: now() });
      });
      rebuilt.push(page.username);
      if (trialEnded && opts.onTrialEnded) {
        try {
          await opts.onTrialEnded({ userId: page.userId, email: page.email, username: page.username });
        } catch {
          // A failed notice never stops the rebuilds; the page is already right.
        }
      }
    }
    arm(Math.max(0, next - now().getTime()));
    return rebuilt;
  };

  const arm = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    // A few ms past the boundary, so the boundary instant itself counts as passed.
    timer = setTimeout(() => void tick(), Math.min(ms + 5, MAX_SLEEP_MS));
    timer.unref?.();
  };

  const tick = (): Promise<string[]> => {
    if (running) return running.then(() => tick());
    running = run().finally(() => {
      running = null;
    });
    return running;
  };

  const unsubscribe = onPublished(() => void tick());
  const ready = tick();
  return {
    ready,
    tick,
    stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
    },
  };
}
