/**
 * Owner-scoped link and list operations shared by the link routes: every lookup filters by the owner,
 * so another owner's ids are simply not found (404) and nothing is changed.
 */
import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { stampSection } from "#db/revisions.ts";
import { linkLists, links, userProfiles } from "#db/schema.ts";
import { ApiError } from "../errors.ts";
import { touchProfile } from "./profile.ts";

export type LinkRow = typeof links.$inferSelect;
export type LinkListRow = typeof linkLists.$inferSelect;

export function ownedLink(db: Db, userId: string, id: string): LinkRow {
  const row = db.select().from(links).where(and(eq(links.id, id), eq(links.userId, userId))).get();
  if (!row) throw new ApiError("not_found", "Link not found");
  return row;
}

export function ownedList(db: Db, userId: string, id: string): LinkListRow {
  const row = db.select().from(linkLists).where(and(eq(linkLists.id, id), eq(linkLists.userId, userId))).get();
  if (!row) throw new ApiError("not_found", "List not found");
  return row;
}

export function listLinks(db: Db, userId: string): LinkRow[] {
  return db.select().from(links).where(eq(links.userId, userId)).orderBy(asc(links.orderIndex), asc(links.createdAt)).all();
}

export function listLists(db: Db, userId: string): LinkListRow[] {
  return db.select().from(linkLists).where(eq(linkLists.userId, userId)).orderBy(asc(linkLists.orderIndex), asc(linkLists.createdAt)).all();
}

/** The owner's links order revision: which links and lists the page has, in which order (ADR 068). */
export function linksOrderRevision(db: Db, userId: string): number {
  return db.select({ r: userProfiles.linksOrderRevision }).from(userProfiles).where(eq(userProfiles.userId, userId)).get()?.r ?? 0;
}

/**
 * Makes one link the main button (docs/product.md section 4): clears the flag on the owner's other links, moves
 * it first and renumbers order_index from 0. Runs inside the caller's transaction, whose revision it
 * stamps on the links whose flag changed and on the links order.
 */
export function makeMainButton(tx: Db, userId: string, id: string, at: Date, revision: number): void {
  tx.update(links).set({ isMainButton: false, updatedAt: at, revision }).where(and(eq(links.userId, userId), ne(links.id, id), eq(links.isMainButton, true))).run();
  const ordered = listLinks(tx, userId);
  const rest = ordered.filter((l) => l.id !== id);
  const target = ordered.find((l) => l.id === id);
  const next = target ? [target, ...rest] : rest;
  next.forEach((l, i) => {
    const patch: Partial<LinkRow> = { orderIndex: i };
    if (l.id === id) Object.assign(patch, { isMainButton: true, updatedAt: at, revision });
    else if (l.orderIndex !== i) patch.updatedAt = at;
    tx.update(links).set(patch).where(and(eq(links.id, l.id), eq(links.userId, userId))).run();
  });
  stampSection(tx, userId, "linksOrder", revision);
  touchProfile(tx, userId, at);
}
