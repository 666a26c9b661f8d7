import type { PageLink, PagePlan, PageSnapshot, PageSocialLink } from "#core/model.ts";
import { APPEARANCE_DEFAULTS } from "#core/themes.ts";

export const NOW = new Date("2026-06-01T12:00:00Z");
export const PLUS: PagePlan = { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: "2027-01-01T00:00:00Z", trialEndsAt: null };
export const LITE: PagePlan = { planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null, trialEndsAt: null };

let n = 0;
export function link(over: Partial<PageLink> = {}): PageLink {
  n += 1;
  return {
    id: `l${n}`, title: `Link ${n}`, url: "https://example.com/", linkType: "standard_url", data: {}, isMainButton: false,
    isActive: true, orderIndex: n, thumbnailUrl: null, scheduleStartTime: null, scheduleEndTime: null, parentListId: null, ...over,
  };
}
export function social(platform: PageSocialLink["platform"], i: number): PageSocialLink {
  return { id: `s${i}`, platform, url: `https://example.com/${platform}`, displayOrder: i, isVisible: true };
}
export function snapshot(over: Partial<PageSnapshot["profile"]> = {}, links: PageLink[] = [], socialLinks: PageSocialLink[] = []): PageSnapshot {
  return {
    profile: {
      username: "alice", displayName: "Alice", bio: "Hello there", seoTitle: "", seoDescription: "", longFormText: "",
      profilePictureUrl: "/media/alice.webp", profilePictureStyle: APPEARANCE_DEFAULTS.pictureStyle, profilePictureIconSubtype: "rounded",
      profilePictureFullwidthSubtype: "portrait", initialsText: "AL", initialsBgColor: "#6366f1", selectedThemeName: "minimalist-light",
      customPageBackgroundColor: null, customButtonBackgroundColor: null, customButtonBorderColor: null, buttonShapeStyle: "rounded",
      socialLinksPosition: "top", customFontPairingName: null, hidePlatformBranding: false, removeBranding: false, qrCodeVisible: true, referralId: "",
      ...over,
    },
    links, lists: [], socialLinks,
  };
}
