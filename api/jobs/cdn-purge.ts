/**
 * The CDN purge hook (ADR 133). After a step of the pipeline has changed a public page (a publish, a
 * rollback, a re-render, a suspension or its lifting, an account deleted) and the publish target has
 * its files, a `cdn-purge` job is queued for the page; the job POSTs to CDN_PURGE_URL, with {url} and
 * {path} filled in and a JSON body naming the page's address, so the CDN in front of the pages stops
 * serving its cached copy. A failure throws, and the queue's backoff retries it; the publish never
 * waits on the CDN.
 */
import { and, eq, sql } from "drizzle-orm";
import { durably } from "#db/client.ts";
import { jobs } from "#db/schema.ts";
import type { PublishTarget, TargetWriter } from "#renderer/publish-target.ts";
import type { AppDeps } from "../context.ts";
import { pagesOrigin, type Env } from "../env.server.ts";
import { enqueueJob } from "./queue.ts";
import { log } from "../log.ts";

export interface CdnPurgeJob {
  username: string;
}

/** How long one purge request may take before it counts as failed (and is retried). */
const PURGE_TIMEOUT_MS = 10_000;

interface PurgeRequest {
  url: string;
  init: { method: "POST"; headers: Record<string, string>; body: string };
}

/** The request that purges `username`'s page, or null when no purge URL is set. */
function purgeRequest(env: Pick<Env, "CDN_PURGE_URL" | "CDN_PURGE_HEADER" | "PUBLISH_TARGET" | "PUBLIC_PAGES_ORIGIN" | "PUBLIC_ORIGIN">, username: string): PurgeRequest | null {
  if (!env.CDN_PURGE_URL) return null;
  const path = `/${username}`;
  const pageUrl = pagesOrigin(env) + path;
  // {url} is one query value or path segment, so it is encoded; a username needs no encoding.
  const url = env.CDN_PURGE_URL.replaceAll("{url}", encodeURIComponent(pageUrl)).replaceAll("{path}", path);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (env.CDN_PURGE_HEADER) {
    const colon = env.CDN_PURGE_HEADER.indexOf(":");
    headers[env.CDN_PURGE_HEADER.slice(0, colon).trim().toLowerCase()] = env.CDN_PURGE_HEADER.slice(colon + 1).trim();
  }
  // Cloudflare's purge_cache body; Fastly's URL purge ignores it, a webhook reads files[0].
  return { url, init: { method: "POST", headers, body: JSON.stringify({ files: [pageUrl] }) } };
}

/**
 * The `cdn-purge` job: one request, within `timeoutMs`. Anything but a 2xx answer throws (the purge
 * URL itself is left out of the message: it may carry a token).
 */
export async function runCdnPurge(env: Env, job: CdnPurgeJob, timeoutMs = PURGE_TIMEOUT_MS): Promise<void> {
  const request = purgeRequest(env, job.username);
  if (!request) return;
  let res: Response;
  try {
    res = await fetch(request.url, { ...request.init, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const cause = err instanceof Error && err.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : err instanceof Error ? `${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ""}` : String(err);
    throw new Error(`CDN purge of /${job.username} failed: ${cause}`);
  }
  const text = await res.text().catch(() => "");
  if (res.status < 200 || res.status > 299) throw new Error(`CDN purge of /${job.username} answered ${res.status}: ${text.slice(0, 200)}`);
}

/**
 * A purge queued for each page, after its files are in place. A page already waiting for a purge (a
 * CDN that is down while the owner publishes again and again) keeps one job: the newer replaces it.
 */
function queueCdnPurges(deps: Pick<AppDeps, "db" | "now">, usernames: string[]): void {
  const at = deps.now();
  durably(deps.db, (tx) => {
    for (const username of usernames) {
      tx.delete(jobs)
        .where(and(eq(jobs.kind, "cdn-purge"), eq(jobs.state, "pending"), sql`json_extract(${jobs.payload}, '$.username') = ${username}`))
        .run();
      const job: CdnPurgeJob = { username };
      enqueueJob(tx, { kind: "cdn-purge", payload: job }, at);
    }
  });
}

/**
 * `target`, queueing a purge for the pages a step wrote or removed once their writes are finished
 * (for a bucket: put), and for those a bulk re-render of the folder swapped in (ADR 135); `queued`
 * hears of them then. A step that throws, or writes that fail, change no page. A purge that cannot
 * even be queued is logged: the page is published all the same.
 */
export function purgingTarget(target: PublishTarget, deps: Pick<AppDeps, "db" | "now">, queued: (usernames: string[]) => void): PublishTarget {
  const changed = (usernames: string[]) => {
    try {
      queueCdnPurges(deps, usernames);
    } catch (err) {
      log().error({ err, usernames }, "CDN purge could not be queued");
      return;
    }
    queued(usernames);
  };
  return {
    kind: target.kind,
    pagesWritten(usernames) {
      if (usernames.length > 0) changed(usernames);
    },
    writer(): TargetWriter {
      const inner = target.writer();
      const pages = new Set<string>();
      return {
        hasPage: (username) => inner.hasPage(username),
        writePage(username, writes) {
          inner.writePage(username, writes);
          pages.add(username);
        },
        writeUnavailablePage(username, html, now) {
          inner.writeUnavailablePage(username, html, now);
          pages.add(username);
        },
        removePage(username) {
          inner.removePage(username);
          pages.add(username);
        },
        removeAllOf(username) {
          inner.removeAllOf(username);
          pages.add(username);
        },
        // The sitemap, robots.txt and uploads are no page's address: nothing to purge for them.
        putFiles: (paths) => inner.putFiles(paths),
        removeFiles: (paths) => inner.removeFiles(paths),
        async finish() {
          await inner.finish();
          if (pages.size > 0) changed([...pages]);
        },
      };
    },
  };
}
