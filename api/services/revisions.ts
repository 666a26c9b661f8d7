/**
 * Refusing writes based on an old version (ADR 068): the routes compare the revision a request was
 * based on with the row's or section's own, inside the write's transaction, and answer 409 with
 * STALE_WRITE when they differ. `details.stale` tells the dashboard to offer its Reload.
 */
import { REVISION_REQUIRED, STALE_WRITE } from "#core/schemas/revision.ts";
import type { Db } from "#db/client.ts";
import { stampSection, takeRevision, type ProfileSection } from "#db/revisions.ts";
import { ApiError } from "../errors.ts";

export const staleWrite = () => new ApiError("conflict", STALE_WRITE, { details: { stale: true } });
/** 400 for a write that does not say which revision it was based on. */
export const revisionRequired = () => new ApiError("validation_failed", REVISION_REQUIRED, { fields: { revision: REVISION_REQUIRED } });

/** 409 unless the row is still at the revision the request was based on. */
export function expectRevision(row: { revision: number }, base: number): void {
  if (row.revision !== base) throw staleWrite();
}

/** 409 unless an UPDATE guarded by the base revision changed its row. */
export function expectChanged(result: { changes: number }): void {
  if (result.changes === 0) throw staleWrite();
}

/**
 * Takes the owner's next revision and stamps a profile section with it, if the section is still at
 * `base` (409 otherwise, and the transaction rolls back). Answers the new revision.
 */
export function claimSection(tx: Db, userId: string, section: ProfileSection, base: number): number {
  const revision = takeRevision(tx, userId);
  if (!stampSection(tx, userId, section, revision, base)) throw staleWrite();
  return revision;
}
