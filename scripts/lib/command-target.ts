/**
 * The publish target of an operator command (npm run republish, npm run restore), built from the
 * environment as the server builds its own (ADR 135): the folder or the bucket, and with
 * CDN_PURGE_URL a `cdn-purge` job queued for each page written. The command only queues the purges;
 * the server's job worker sends them.
 */
import { createPublishTarget } from "#api/deps.ts";
import { pagesOrigin, type Env } from "#api/env.server.ts";
import { purgingTarget } from "#api/jobs/cdn-purge.ts";
import type { Db } from "#db/client.ts";
import type { PublishTarget } from "#renderer/publish-target.ts";

export interface CommandTarget {
  target: PublishTarget;
  /** Where visitors reach the pages (PUBLIC_PAGES_ORIGIN with a bucket). */
  pagesOrigin: string;
  /** Purges queued so far. */
  purgesQueued(): number;
}

export function commandTarget(env: Env, db: Db): CommandTarget {
  let queued = 0;
  const target = createPublishTarget(env);
  return {
    target: env.CDN_PURGE_URL ? purgingTarget(target, { db, now: () => new Date() }, (usernames) => (queued += usernames.length)) : target,
    pagesOrigin: pagesOrigin(env),
    purgesQueued: () => queued,
  };
}

/** The line a command prints when it queued purges, or null. */
export function purgesLine(n: number): string | null {
  return n > 0 ? `Queued ${n} CDN purge(s); the server's job worker sends them (they wait for it if the server is not running).` : null;
}
