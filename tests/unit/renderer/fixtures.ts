import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PageLink, PageLinkList, PagePlan, PageSnapshot, PageSocialLink } from "#core/model.ts";
import { getPlatform } from "#core/platforms.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { renderPage } from "#renderer/render.tsx";
import type { RenderInput } from "#renderer/types.ts";

export const NOW = new Date("2026-06-01T12:00:00Z");
export const ORIGIN = "https://plinth.example";
export const API_ORIGIN = "https://api.plinth.example";
export const PLUS: PagePlan = { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: "2027-01-01T00:00:00Z", trialEndsAt: null };
export const TRIAL: PagePlan = { planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null, trialEndsAt: "2026-06-05T00:00:00Z" };
export const LITE: PagePlan = { planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null, trialEndsAt: "2026-05-01T00:00:00Z" };

let n = 0;
export function link(over: Partial<PageLink> = {}): PageLink {
  n += 1;
  return {
    id: `l${n}`, title: `Link ${n}`, url: "https://example.com/", linkType: "standard_url", data: {}, isMainButton: false,
    isActive: true, orderIndex: n, thumbnailUrl: null, scheduleStartTime: null, scheduleEndTime: null, parentListId: null, ...over,
  };
}
export function list(id: string, title: string, orderIndex: number): PageLinkList {
  return { id, title, orderIndex };
}
export function social(platform: PageSocialLink["platform"], i: number, over: Partial<PageSocialLink> = {}): PageSocialLink {
  return { id: `s${i}`, platform, url: `${getPlatform(platform)!.baseUrl}handle${i}`, displayOrder: i, isVisible: true, ...over };
}
export function snapshot(over: Partial<PageSnapshot["profile"]> = {}, links: PageLink[] = [], socialLinks: PageSocialLink[] = [], lists: PageLinkList[] = []): PageSnapshot {
  return {
    profile: {
      username: "alice", displayName: "Alice", bio: "Hello there", seoTitle: "", seoDescription: "", longFormText: "", longFormTextVisible: true,
      profilePictureUrl: "/media/alice.webp", profilePictureFullwidthUrl: null, profilePictureStyle: "icon", profilePictureIconSubtype: "rounded",
      profilePictureFullwidthSubtype: "portrait", initialsText: "AL", initialsBgColor: "#6366f1", selectedThemeName: "minimalist-light",
      customPageBackgroundColor: null, customButtonBackgroundColor: null, customButtonBorderColor: null, buttonShapeStyle: "rounded",
      socialLinksPosition: "top", customFontPairingName: null, hidePlatformBranding: false, removeBranding: false, qrCodeVisible: true, referralId: "",
      ...over,
    },
    links, lists, socialLinks,
  };
}

export const publishedDir = mkdtempSync(join(tmpdir(), "plinth-render-"));
export const assets = ensureSharedAssets(publishedDir);
export function render(s: PageSnapshot, plan: PagePlan = PLUS, mode: RenderInput["mode"] = "published", now = NOW) {
  return renderPage({ snapshot: s, plan, now, origin: ORIGIN, apiOrigin: API_ORIGIN, mode, assets });
}
