/**
 * Bulk re-renders into a bucket (ADR 135): page by page through the publish target, under the page
 * lock, a few pages in flight at once (each is a few PUTs on the network). The folder keeps its
 * worker threads (republish.ts). A page whose objects cannot be put is logged by its username and
 * counted, and the run goes on; its template fingerprint is recorded only once the bucket has it, so
 * a failed page is re-rendered again by the next pass.
 */
import { transaction, type Db } from "#db/client.ts";
import { loadDraft } from "./draft.ts";
import { pool } from "./pool.ts";
import { throughTarget, type PublishTarget } from "./publish-target.ts";
import { noteRendered, versionToShow, withPageLock, writePage } from "./publish.ts";
import { isPageSuspended, writeUnavailablePage } from "./suspension.ts";
import type { AssetManifest, PageOrigins } from "./types.ts";

/** Pages whose objects are being put at once. */
const PAGES_IN_FLIGHT = 6;
/** Renders of one page when another process keeps changing it while its objects are put. */
const ATTEMPTS = 3;

export interface TargetRenderSettings extends PageOrigins {
  assets: AssetManifest;
  target: PublishTarget;
  now: Date;
}

/**
 * What a page shows depends on: whether it is suspended, its last version and what a render of it
 * withholds (ADR 259), its owner's plan.
 */
function pageState(db: Db, userId: string, now: Date) {
  const draft = loadDraft(db, userId);
  if (!draft) return null;
  const suspended = isPageSuspended(db, userId);
  const last = versionToShow(db, userId, draft, now);
  if (!suspended && !last) return null;
  return { draft, suspended, last, key: JSON.stringify({ suspended, version: last?.version ?? null, withheld: last?.withheld ?? null, plan: draft.plan, domain: draft.customDomain }) };
}

/**
 * Put one page as it is now: the unavailable page when it is suspended, else its last published
 * version under the plan as it is now. Nothing is recorded before the objects are put; then, if the
 * page is still what was put, its version is recorded as following the template. A page that a
 * publish or a suspension in another process changed meanwhile (whose own put may have landed
 * first) is put again. False when the owner has no page.
 */
export function rerenderIntoTarget(db: Db, userId: string, settings: TargetRenderSettings): Promise<boolean> {
  return withPageLock(userId, async () => {
    for (let attempt = 1; ; attempt++) {
      const state = await throughTarget(settings.target, (writer) =>
        transaction(db, (tx) => {
          const s = pageState(tx, userId, settings.now);
          if (!s) return null;
          if (s.suspended) writeUnavailablePage(settings.publishedDir, s.draft.snapshot.profile.username, settings.now, writer);
          else writePage(s.last!.shown, s.draft.plan, { ...settings, writer, customDomain: s.draft.customDomain });
          return s;
        }),
      );
      if (!state) return false;
      const settled = transaction(db, (tx) => {
        if (pageState(tx, userId, settings.now)?.key !== state.key) return false;
        // As a single re-render records it (ADR 136, 201, 259).
        if (!state.suspended) noteRendered(tx, userId, state.last!, state.draft.plan, settings.now, settings.assets);
        return true;
      });
      if (settled || attempt === ATTEMPTS) return true;
    }
  });
}

interface TargetRunResult {
  /** Pages put. */
  done: number;
  /** The usernames of the pages that could not be put. */
  failed: string[];
}

/**
 * Every owner's page through the target, PAGES_IN_FLIGHT at once; `onProgress` hears of each page
 * handled, put or failed. A failure is logged with the page's username and the run goes on.
 */
export async function republishIntoTarget(
  db: Db,
  owners: { userId: string; username: string }[],
  settings: TargetRenderSettings,
  onProgress: (handled: number, total: number) => void,
  logFailure: (line: string) => void,
): Promise<TargetRunResult> {
  let handled = 0;
  const result: TargetRunResult = { done: 0, failed: [] };
  // Each page's failure is caught here, so one refused page never stops the others.
  await pool(owners, PAGES_IN_FLIGHT, async (owner) => {
    try {
      if (await rerenderIntoTarget(db, owner.userId, settings)) result.done++;
    } catch (err) {
      result.failed.push(owner.username);
      logFailure(`Could not re-render /${owner.username}: ${err instanceof Error ? err.message : String(err)}`);
    }
    onProgress(++handled, owners.length);
  });
  return result;
}
