/**
 * Scheduled rebuilds: the server re-renders a published page at each link schedule boundary and
 * when the owner's Plus ends (trial end, or the end of a cancelled subscription's paid period), so
 * scheduled links appear and disappear with nobody clicking Publish (ADR 031).
 *
 * No job table: what is due comes from the database and the page files. At start (and every hour)
 * a full scan re-renders every page with a boundary after its index.html's mtime (the instant it was
 * rendered for) and not after now, so rebuilds missed while the server was down happen on start.
 * Between scans an in-memory index of each page's future boundaries drives one real timer, and each
 * publish updates only its own page's entry.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { PageSnapshotSchema, type PagePlan, type PageSnapshot } from "#core/model.ts";
import type { Db } from "#db/client.ts";
import { users } from "#db/schema.ts";
import { loadPublishedBatch, publishedUserIds } from "./published-pages.ts";
import { onPublished } from "./publish.ts";
import { rerenderPublishedPage } from "./rerender.ts";

/** The longest sleep: also how often the full scan runs (plan changes made outside a publish). */
export const MAX_SLEEP_MS = 60 * 60 * 1000;
/** Pages the full scan reads per query. */
const SCAN_BATCH = 500;

/** A stored snapshot's object form, or undefined (which the schema refuses) for text that is not JSON. */
function safeDecode(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface SchedulerOptions {
  db: Db;
  publishedDir: string;
  origin: string;
  apiOrigin?: string;
  now?: () => Date;
  /** Told when a page was re-rendered because its owner's trial ended. */
  onTrialEnded?: (owner: { userId: string; email: string; username: string }) => void | Promise<void>;
}

export interface Scheduler {
  /** The start-up scan: pages whose boundaries passed while the server was down, re-rendered. */
  ready: Promise<string[]>;
  /** Run what is due now and re-arm the timer. Resolves with the usernames re-rendered. */
  tick(): Promise<string[]>;
  /** When the timer will next fire, for tests and diagnostics. */
  nextWakeAt(): number | null;
  stop(): void;
}

type PlanTimes = Pick<PagePlan, "trialEndsAt" | "subscriptionStatus" | "currentPeriodEndDate">;

/** The instants at which the owner's plan stops being Plus. */
function planBoundaries(plan: PlanTimes): number[] {
  const out: number[] = [];
  if (plan.trialEndsAt) out.push(Date.parse(plan.trialEndsAt));
  if (plan.subscriptionStatus === "canceled_plus" && plan.currentPeriodEndDate) out.push(Date.parse(plan.currentPeriodEndDate));
  return out;
}

/** Every instant at which what a page shows may change. */
export function scheduleBoundaries(snapshot: PageSnapshot, plan: PlanTimes): number[] {
  const out = planBoundaries(plan);
  for (const l of snapshot.links) {
    if (l.scheduleStartTime) out.push(Date.parse(l.scheduleStartTime));
    if (l.scheduleEndTime) out.push(Date.parse(l.scheduleEndTime));
  }
  return [...new Set(out.filter((t) => Number.isFinite(t)))].sort((a, b) => a - b);
}

function renderedAt(publishedDir: string, username: string): number {
  try {
    return statSync(join(publishedDir, username, "index.html")).mtimeMs;
  } catch {
    return 0;
  }
}

interface Entry {
  username: string;
  /** Boundaries not yet rendered, ascending. */
  pending: number[];
  trialEndsAt: number | null;
}

export function startScheduler(opts: SchedulerOptions): Scheduler {
  const now = opts.now ?? (() => new Date());
  const { db } = opts;
  const entries = new Map<string, Entry>();
  let nextScanAt = 0;
  let wakeAt: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<string[]> | null = null;

  const rebuild = async (userId: string, username: string, trialEnded: boolean): Promise<boolean> => {
    // The last published snapshot, not the draft, under the owner's plan as it is now, swapped
    // under the lock every page writer takes (ADR 097).
    const done = await rerenderPublishedPage(db, userId, { publishedDir: opts.publishedDir, origin: opts.origin, apiOrigin: opts.apiOrigin, now: now() });
    if (done && trialEnded && opts.onTrialEnded) {
      const email = db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get()?.email;
      try {
        if (email) await opts.onTrialEnded({ userId, email, username });
      } catch (err) {
        // The page is already right; a failed notice must not stop the other rebuilds.
        console.warn("Trial-end notice failed", username, err);
      }
    }
    return done;
  };

  /**
   * Every published page: rebuild what is due since its last render, index the rest. Pages are read
   * SCAN_BATCH at a time, one query each, and the server answers requests between batches.
   */
  const scan = async (at: number): Promise<string[]> => {
    const rebuilt: string[] = [];
    const ids = publishedUserIds(db);
    entries.clear();
    for (let i = 0; i < ids.length; i += SCAN_BATCH) {
      if (i > 0) await new Promise((r) => setImmediate(r));
      for (const page of loadPublishedBatch(db, ids.slice(i, i + SCAN_BATCH))) {
        const parsed = PageSnapshotSchema.safeParse(safeDecode(page.snapshotJson));
        if (!parsed.success) {
          // One unreadable snapshot must not stop every other page's schedule.
          console.warn("Scheduled rebuilds: unreadable published snapshot", page.userId);
          continue;
        }
        const username = parsed.data.profile.username;
        const bounds = scheduleBoundaries(parsed.data, page.plan);
        const since = renderedAt(opts.publishedDir, username);
        const trialEnd = page.plan.trialEndsAt ? Date.parse(page.plan.trialEndsAt) : null;
        entries.set(page.userId, { username, pending: bounds.filter((b) => b > at), trialEndsAt: trialEnd });
        if (bounds.some((b) => b > since && b <= at)) {
          const trialEnded = trialEnd !== null && trialEnd > since && trialEnd <= at;
          if (await rebuild(page.userId, username, trialEnded)) rebuilt.push(username);
        }
      }
    }
    nextScanAt = at + MAX_SLEEP_MS;
    return rebuilt;
  };

  /** Pages with a boundary that has now passed. */
  const runDue = async (at: number): Promise<string[]> => {
    const rebuilt: string[] = [];
    for (const [userId, e] of entries) {
      if (e.pending.length === 0 || e.pending[0]! > at) continue;
      const passed = e.pending.filter((b) => b <= at);
      e.pending = e.pending.filter((b) => b > at);
      const trialEnded = e.trialEndsAt !== null && passed.includes(e.trialEndsAt);
      if (await rebuild(userId, e.username, trialEnded)) rebuilt.push(e.username);
    }
    return rebuilt;
  };

  const arm = () => {
    if (stopped) return;
    let next = nextScanAt;
    for (const e of entries.values()) if (e.pending.length && e.pending[0]! < next) next = e.pending[0]!;
    if (timer) clearTimeout(timer);
    wakeAt = next;
    // A few ms past the boundary, so the boundary instant itself counts as passed.
    const ms = Math.min(Math.max(0, next - now().getTime()) + 5, MAX_SLEEP_MS);
    timer = setTimeout(() => void tick().catch((err) => console.error("Scheduled rebuild failed", err)), ms);
    timer.unref?.();
  };

  const run = async (): Promise<string[]> => {
    try {
      const at = now().getTime();
      return at >= nextScanAt ? await scan(at) : await runDue(at);
    } finally {
      arm();
    }
  };

  const tick = (): Promise<string[]> => {
    if (running) return running.then(() => tick());
    running = run().finally(() => {
      running = null;
    });
    return running;
  };

  const unsubscribe = onPublished((ev) => {
    const rendered = ev.renderedAt.getTime();
    const bounds = scheduleBoundaries(ev.snapshot, ev.plan);
    entries.set(ev.userId, {
      username: ev.snapshot.profile.username,
      pending: bounds.filter((b) => b > rendered),
      trialEndsAt: ev.plan.trialEndsAt ? Date.parse(ev.plan.trialEndsAt) : null,
    });
    if (!running) arm();
  });

  const ready = tick();
  return {
    ready,
    tick,
    nextWakeAt: () => wakeAt,
    stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
    },
  };
}
