/**
 * Live updates for the dashboard (ADR 060): a cheap stamp of the owner's draft that the dashboard
 * polls; when it differs from the last one seen, another tab or device changed something and the
 * dashboard reloads its data.
 */
import { eq, max } from "drizzle-orm";
import { Hono } from "hono";
import type { Db } from "#db/client.ts";
import { linkLists, links, socialLinks, userProfiles } from "#db/schema.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";

export function draftStamp(db: Db, userId: string): string {
  const p = db.select({ u: userProfiles.updatedAt, pub: userProfiles.lastPublishedAt }).from(userProfiles).where(eq(userProfiles.userId, userId)).get();
  const l = db.select({ u: max(links.updatedAt) }).from(links).where(eq(links.userId, userId)).get();
  const ll = db.select({ u: max(linkLists.updatedAt) }).from(linkLists).where(eq(linkLists.userId, userId)).get();
  const s = db.select({ u: max(socialLinks.updatedAt) }).from(socialLinks).where(eq(socialLinks.userId, userId)).get();
  const ms = (v: Date | number | null | undefined) => (v == null ? 0 : typeof v === "number" ? v : v.getTime());
  return [ms(p?.u), ms(p?.pub), ms(l?.u), ms(ll?.u), ms(s?.u)].join(".");
}

export function eventRoutes({ db }: AppDeps) {
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // GET /api/events/stamp - a stamp that changes whenever the owner's draft or publish state does
      .get("/stamp", (c) => c.json({ stamp: draftStamp(db, currentUser(c).id) }))
  );
}
