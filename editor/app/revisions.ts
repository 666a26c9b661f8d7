/**
 * Revisions in the dashboard (ADR 069). This tab's writes of one thing go one at a time, each based on
 * the revision the screen showed when the owner acted. A write that had to wait behind this tab's own
 * earlier write of the same thing is based on that write's answer instead: what changed meanwhile was
 * this tab's own doing, not another tab's, so it must not come back as a conflict. After a conflict,
 * mergeLatest decides what a reloaded form shows.
 */

const queues = new Map<string, Promise<unknown>>();
/** `${key}@${from}` -> the revision this tab's own write moved the thing to. */
const movedTo = new Map<string, number>();

/** The revision to send: `base`, moved past this tab's own writes since. Revisions only grow, so this ends. */
function rebased(key: string, base: number): number {
  let revision = base;
  for (let next = movedTo.get(`${key}@${revision}`); next !== undefined; next = movedTo.get(`${key}@${revision}`)) revision = next;
  return revision;
}

/**
 * Sends a write of `key` (a link, a list, a profile section...) based on revision `base`, after this
 * tab's earlier writes of the same key have been answered. `revisionOf` reads the new revision from
 * the answer.
 */
export function versionedWrite<T>(key: string, base: number, send: (revision: number) => Promise<T>, revisionOf: (answer: T) => number | undefined): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve())
    .catch(() => undefined)
    .then(async () => {
      const revision = rebased(key, base);
      const answer = await send(revision);
      const next = revisionOf(answer);
      if (next !== undefined && next !== revision) movedTo.set(`${key}@${revision}`, next);
      return answer;
    });
  queues.set(key, run);
  return run;
}

/**
 * The owner's values after a reload: a field another tab changed takes the latest value; every other
 * field keeps what the owner has on screen, typed or not. Also answers which fields came in.
 */
export function mergeLatest<T extends Record<string, unknown>>(mine: T, base: T, latest: T): { values: T; changed: (keyof T)[] } {
  const values = { ...mine };
  const changed: (keyof T)[] = [];
  for (const key of Object.keys(latest) as (keyof T)[]) {
    if (!Object.is(latest[key], base[key])) {
      values[key] = latest[key];
      changed.push(key);
    }
  }
  return { values, changed };
}
