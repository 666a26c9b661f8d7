/**
 * Reading an owner's draft from the database as a PageSnapshot (the publish step is the one place the
 * renderer touches the database), and writing a snapshot back (discard, rollback).
 */
import { and, asc, eq, isNotNull, notInArray } from "drizzle-orm";
import { type PagePlan, type PageSnapshot, PageSnapshotSchema } from "#core/model.ts";
import { transaction, type Db } from "#db/client.ts";
import { stampAllSections, takeRevision } from "#db/revisions.ts";
import { customDomains, linkLists, links, socialLinks, userProfiles } from "#db/schema.ts";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface Draft {
  userId: string;
  snapshot: PageSnapshot;
  plan: PagePlan;
  hasPublishedPage: boolean;
  lastPublishedAt: Date | null;
  /** The owner's verified custom domain (ADR 240), or null. */
  customDomain: string | null;
}

type PlanColumns = Pick<typeof userProfiles.$inferSelect, "planType" | "subscriptionStatus" | "currentPeriodEndDate" | "trialEndsAt">;

/** The plan a page is rendered under, from the owner's profile row. */
export function planOf(p: PlanColumns): PagePlan {
  return {
    planType: p.planType,
    subscriptionStatus: p.subscriptionStatus,
    currentPeriodEndDate: iso(p.currentPeriodEndDate),
    trialEndsAt: iso(p.trialEndsAt),
  };
}

/** The owner's verified custom domain (ADR 240), ASCII form, or null. */
export function verifiedDomainOf(db: Db, userId: string): string | null {
  return db.select({ name: customDomains.name }).from(customDomains).where(and(eq(customDomains.userId, userId), isNotNull(customDomains.verifiedAt))).get()?.name ?? null;
}

export function loadDraft(db: Db, userId: string): Draft | null {
  const p = db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get();
  if (!p) return null;
  const linkRows = db.select().from(links).where(eq(links.userId, userId)).orderBy(asc(links.orderIndex), asc(links.id)).all();
  const listRows = db.select().from(linkLists).where(eq(linkLists.userId, userId)).orderBy(asc(linkLists.orderIndex), asc(linkLists.id)).all();
  const socialRows = db
    .select()
    .from(socialLinks)
    .where(eq(socialLinks.userId, userId))
    .orderBy(asc(socialLinks.displayOrder), asc(socialLinks.id))
    .all();
  // The schema keeps each row's page fields, in its own order, and drops the rest (plan, revisions, times).
  const snapshot: PageSnapshot = PageSnapshotSchema.parse({
    profile: p,
    links: linkRows.map((l) => ({ ...l, data: l.linkSpecificData, scheduleStartTime: iso(l.scheduleStartTime), scheduleEndTime: iso(l.scheduleEndTime) })),
    lists: listRows,
    socialLinks: socialRows,
  });
  return {
    userId,
    snapshot,
    plan: planOf(p),
    hasPublishedPage: p.hasPublishedPage,
    lastPublishedAt: p.lastPublishedAt,
    customDomain: verifiedDomainOf(db, userId),
  };
}

const date = (s: string | null) => (s ? new Date(s) : null);

/**
 * Make the draft exactly the given snapshot, in one transaction: rows are updated in place or
 * re-inserted with their ids, and rows the snapshot does not hold are deleted. The username and
 * referral id are account facts, not page content, and are left alone. The profile's updated_at
 * moves to `now` so open dashboards see the change (ADR 060), and everything restored takes a new
 * revision, so a tab still showing the draft from before gets 409 instead of overwriting it (ADR 068).
 */
export function restoreDraft(db: Db, userId: string, s: PageSnapshot, now: Date): void {
  transaction(db, (tx) => {
    const revision = takeRevision(tx, userId);
    stampAllSections(tx, userId, revision);
    const { username: _u, referralId: _r, ...profile } = s.profile;
    tx.update(userProfiles).set({ ...profile, updatedAt: now }).where(eq(userProfiles.userId, userId)).run();

    const listIds = s.lists.map((l) => l.id);
    for (const l of s.lists) {
      const row = { title: l.title, orderIndex: l.orderIndex, revision };
      tx.insert(linkLists)
        .values({ id: l.id, userId, ...row })
        .onConflictDoUpdate({ target: linkLists.id, set: row, setWhere: eq(linkLists.userId, userId) })
        .run();
    }

    const linkIds = s.links.map((l) => l.id);
    tx.delete(links).where(and(eq(links.userId, userId), notInArray(links.id, linkIds))).run();
    for (const { id, data, scheduleStartTime, scheduleEndTime, ...fields } of s.links) {
      const row = { ...fields, linkSpecificData: data, scheduleStartTime: date(scheduleStartTime), scheduleEndTime: date(scheduleEndTime), revision };
      tx.insert(links)
        .values({ id, userId, ...row })
        .onConflictDoUpdate({ target: links.id, set: row, setWhere: eq(links.userId, userId) })
        .run();
    }
    tx.delete(linkLists).where(and(eq(linkLists.userId, userId), notInArray(linkLists.id, listIds))).run();

    const socialIds = s.socialLinks.map((l) => l.id);
    tx.delete(socialLinks).where(and(eq(socialLinks.userId, userId), notInArray(socialLinks.id, socialIds))).run();
    for (const l of s.socialLinks) {
      const row = { platform: l.platform, url: l.url, displayOrder: l.displayOrder, isVisible: l.isVisible, revision };
      tx.insert(socialLinks)
        .values({ id: l.id, userId, ...row })
        .onConflictDoUpdate({ target: socialLinks.id, set: row, setWhere: eq(socialLinks.userId, userId) })
        .run();
    }
  });
}
