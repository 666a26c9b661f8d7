/**
 * Reading an owner's draft from the database as a PageSnapshot (the publish step is the one place the
 * renderer touches the database), and writing a snapshot back (discard, rollback).
 */
import { asc, eq } from "drizzle-orm";
import { type PagePlan, type PageSnapshot, PageSnapshotSchema } from "#core/model.ts";
import type { Db } from "#db/client.ts";
import { linkLists, links, socialLinks, userProfiles } from "#db/schema.ts";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface Draft {
  userId: string;
  snapshot: PageSnapshot;
  plan: PagePlan;
  hasPublishedPage: boolean;
  lastPublishedAt: Date | null;
}

export function loadDraft(db: Db, userId: string): Draft | null {
  const p = db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get();
  if (!p) return null;
  const linkRows = db.select().from(links).where(eq(links.userId, userId)).orderBy(asc(links.orderIndex), asc(links.createdAt)).all();
  const listRows = db.select().from(linkLists).where(eq(linkLists.userId, userId)).orderBy(asc(linkLists.orderIndex)).all();
  const socialRows = db
    .select()
    .from(socialLinks)
    .where(eq(socialLinks.userId, userId))
    .orderBy(asc(socialLinks.displayOrder), asc(socialLinks.createdAt))
    .all();
  const snapshot: PageSnapshot = PageSnapshotSchema.parse({
    profile: {
      username: p.username,
      displayName: p.displayName,
      bio: p.bio,
      seoTitle: p.seoTitle,
      seoDescription: p.seoDescription,
      longFormText: p.longFormText,
      profilePictureUrl: p.profilePictureUrl,
      profilePictureStyle: p.profilePictureStyle,
      profilePictureIconSubtype: p.profilePictureIconSubtype,
      profilePictureFullwidthSubtype: p.profilePictureFullwidthSubtype,
      initialsText: p.initialsText,
      initialsBgColor: p.initialsBgColor,
      selectedThemeName: p.selectedThemeName,
      customPageBackgroundColor: p.customPageBackgroundColor,
      customButtonBackgroundColor: p.customButtonBackgroundColor,
      customButtonBorderColor: p.customButtonBorderColor,
      buttonShapeStyle: p.buttonShapeStyle,
      socialLinksPosition: p.socialLinksPosition,
      customFontPairingName: p.customFontPairingName,
      hidePlatformBranding: p.hidePlatformBranding,
      removeBranding: p.removeBranding,
      qrCodeVisible: p.qrCodeVisible,
      referralId: p.referralId,
    },
    links: linkRows.map((l) => ({
      id: l.id,
      title: l.title,
      url: l.url,
      linkType: l.linkType,
      data: l.linkSpecificData,
      isMainButton: l.isMainButton,
      isActive: l.isActive,
      orderIndex: l.orderIndex,
      thumbnailUrl: l.thumbnailUrl,
      scheduleStartTime: iso(l.scheduleStartTime),
      scheduleEndTime: iso(l.scheduleEndTime),
      parentListId: l.parentListId,
    })),
    lists: listRows.map((l) => ({ id: l.id, title: l.title, orderIndex: l.orderIndex })),
    socialLinks: socialRows.map((s) => ({
      id: s.id,
      platform: s.platform,
      url: s.url,
      displayOrder: s.displayOrder,
      isVisible: s.isVisible,
    })),
  });
  return {
    userId,
    snapshot,
    plan: {
      planType: p.planType,
      subscriptionStatus: p.subscriptionStatus,
      currentPeriodEndDate: iso(p.currentPeriodEndDate),
      trialEndsAt: iso(p.trialEndsAt),
    },
    hasPublishedPage: p.hasPublishedPage,
    lastPublishedAt: p.lastPublishedAt,
  };
}
