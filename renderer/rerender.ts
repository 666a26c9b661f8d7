/**
 * Re-render one published page from its last published snapshot under the owner's plan as it is
 * now: for a plan change that happens outside a publish (a subscription that starts or ends), and
 * at a schedule boundary (api/jobs/page-schedule.ts).
 */
import type { Db } from "#db/client.ts";
import { folderTarget, throughTarget, type PublishTarget } from "./publish-target.ts";
import { rerenderLastVersion, withPageLock, type PublishOptions } from "./publish.ts";

/** False when the owner has never published. Written through `target` (ADR 129), the folder by default. */
export function rerenderPublishedPage(db: Db, userId: string, opts: Omit<PublishOptions, "assets" | "writer">, target: PublishTarget = folderTarget(opts.publishedDir)): Promise<boolean> {
  return withPageLock(userId, () => throughTarget(target, (writer) => rerenderLastVersion(db, userId, { ...opts, writer })));
}
