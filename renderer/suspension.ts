/**
 * Suspended pages (ADR 108). While an admin keeps a page suspended, `published/{username}` holds one
 * static "This page is unavailable" page (so a static host serves it), its QR code and contact cards
 * are gone, the built-in server answers the page's URL and files with it and 410, the sitemap leaves
 * it out, and nothing re-renders the page: not a publish, nor a scheduled or bulk re-render.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { folderTarget, type TargetWriter } from "./publish-target.ts";

/** The status a suspended page answers with where the server chooses it (ADR 108). */
export const SUSPENDED_STATUS = 410;

/** The page a suspended page's URL shows: the same bytes for every page, naming nobody. */
export const UNAVAILABLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="robots" content="noindex">
<title>This page is unavailable</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;font-family:system-ui,sans-serif;color:#1e293b;background:#f8fafc}main{max-width:32rem;padding:2rem 1.5rem;text-align:center}h1{font-size:1.5rem;margin:0 0 .75rem}p{margin:0;color:#475569;line-height:1.5}</style>
</head>
<body>
<main>
<h1>This page is unavailable</h1>
<p>This page has been suspended for breaking the terms of service.</p>
</main>
</body>
</html>
`;

/** Whether the owner's page is suspended now. */
export function isPageSuspended(db: Db, userId: string): boolean {
  return db.select({ id: userProfiles.userId }).from(userProfiles).where(and(eq(userProfiles.userId, userId), isNotNull(userProfiles.pageSuspendedAt))).get() !== undefined;
}

/**
 * Swap the unavailable page in as `published/{username}/index.html` (through the renderer's atomic
 * new-file swap, like every page without compressed copies, ADR 121), then remove the page's own
 * files; a restore's re-render writes them again. `writer` is the target's (ADR 129); the folder's
 * own when none is given.
 */
export function writeUnavailablePage(publishedDir: string, username: string, now: Date, writer: TargetWriter = folderTarget(publishedDir).writer()): void {
  writer.writeUnavailablePage(username, UNAVAILABLE_HTML, now);
}

/** The owners whose page is suspended. */
export function suspendedOwners(db: Db): { userId: string; username: string }[] {
  return db.select({ userId: userProfiles.userId, username: userProfiles.username }).from(userProfiles).where(isNotNull(userProfiles.pageSuspendedAt)).all();
}

/**
 * Every suspended page's folder as a suspension leaves it, for a republish of the whole folder (a
 * restored backup, `npm run republish`): a fresh `published/` shows them unavailable, not missing.
 */
export function writeSuspendedPages(db: Db, publishedDir: string, now: Date): number {
  const suspended = suspendedOwners(db);
  for (const { username } of suspended) writeUnavailablePage(publishedDir, username, now);
  return suspended.length;
}
