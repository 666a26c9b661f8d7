import "./lib/production-mode.ts";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement as h } from "react";
import { PageBody } from "#renderer/components/Page.tsx";
import { visibleContentOf } from "#core/visible-content.ts";
import type { PageSnapshot, PagePlan } from "#core/model.ts";
const snapshot: PageSnapshot = { profile: { username: "benchpage", displayName: "Bench", bio: "Links", seoTitle: "", seoDescription: "", longFormText: "", profilePictureUrl: "/media/bench.webp", profilePictureStyle: "icon", profilePictureIconSubtype: "rounded", profilePictureFullwidthSubtype: "portrait", initialsText: "", initialsBgColor: "#6366f1", selectedThemeName: "minimalist-light", customPageBackgroundColor: null, customButtonBackgroundColor: null, customButtonBorderColor: null, buttonShapeStyle: "rounded", socialLinksPosition: "top", customFontPairingName: "modern-sans", hidePlatformBranding: false, removeBranding: false, qrCodeVisible: true, referralId: "x" },
  links: Array.from({ length: 20 }, (_, i) => ({ id: `link${i}abcdefghij`, title: `Link number ${i} to something I made`, url: `https://example.com/things/${i}`, linkType: "standard_url" as const, data: {}, isMainButton: false, isActive: true, orderIndex: i, thumbnailUrl: null, scheduleStartTime: null, scheduleEndTime: null, parentListId: null })),
  lists: [], socialLinks: (["instagram","tiktok","youtube","x","linkedin","github"] as const).map((p, i) => ({ id: `s${i}`, platform: p, url: `https://example.com/${p}`, displayOrder: i, isVisible: true })) };
const plan: PagePlan = { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: "2030-01-01T00:00:00.000Z", trialEndsAt: null };
const now = new Date();
const v = visibleContentOf(snapshot, plan, now);
const n = Number(process.env.N ?? 5000);
for (let i = 0; i < 300; i++) renderToStaticMarkup(h(PageBody, { snapshot, plan, now, origin: "http://x", content: v }));
const s = performance.now();
for (let i = 0; i < n; i++) renderToStaticMarkup(h(PageBody, { snapshot, plan, now, origin: "http://x", content: v }));
console.log("PageBody", ((performance.now() - s) / n * 1000).toFixed(1), "µs");
