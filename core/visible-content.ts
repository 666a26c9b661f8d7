/**
 * What a public page shows at a given moment under the owner's plan (spec sections 4 and 6): the one
 * place the renderer, the preview and the visitor API learn which links are on the page and which
 * Plus features apply. Pure: the same answer for the same snapshot, plan and instant.
 */
import { LIMITS } from "./limits.ts";
import type { PageLink, PageLinkList, PagePlan, PageSnapshot, PageSocialLink } from "./model.ts";
import { effectivePlan } from "./plans.ts";
import { planStateOf } from "./publish-gate.ts";
import { LITE_LINK_TYPES } from "./link-types.ts";
import { APPEARANCE_DEFAULTS, getTheme, type FontPairingId, type ThemeId } from "./themes.ts";

export interface VisibleGroup {
  list: PageLinkList;
  links: PageLink[];
}

export interface VisibleContent {
  plus: boolean;
  /** The emphasised main button, shown before everything else (Plus only). */
  main: PageLink | null;
  /** Links outside any list, in order. */
  ungrouped: PageLink[];
  /** Lists with at least one visible link, in order. */
  groups: VisibleGroup[];
  /** Every visible link in display order (main, ungrouped, then each list's). */
  links: PageLink[];
  socialLinks: PageSocialLink[];
  showBranding: boolean;
  longFormText: string;
  themeId: ThemeId;
  fontPairing: FontPairingId | null;
  seoTitle: string;
  seoDescription: string;
}

type ScheduledLink = Pick<PageLink, "isActive" | "scheduleStartTime" | "scheduleEndTime">;

/** Shown now: active, and inside its schedule window [start, end). */
export function isLive(l: ScheduledLink, now: Date): boolean {
  if (!l.isActive) return false;
  if (l.scheduleStartTime && new Date(l.scheduleStartTime).getTime() > now.getTime()) return false;
  if (l.scheduleEndTime && new Date(l.scheduleEndTime).getTime() <= now.getTime()) return false;
  return true;
}

const byOrder = <T extends { orderIndex: number; id: string }>(a: T, b: T) => a.orderIndex - b.orderIndex || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function visibleContentOf(s: PageSnapshot, plan: PagePlan, now: Date): VisibleContent {
  const plus = effectivePlan(planStateOf(plan), now) === "plus";
  const p = s.profile;
  const lists = [...s.lists].sort(byOrder);
  const listIds = new Set(lists.map((l) => l.id));
  const inList = (l: PageLink) => l.parentListId !== null && listIds.has(l.parentListId);

  let live = s.links.filter((l) => isLive(l, now));
  if (!plus) {
    // Lite: only Lite link types, no emphasis, no thumbnails (spec section 6).
    live = live.filter((l) => LITE_LINK_TYPES.includes(l.linkType)).map((l) => ({ ...l, isMainButton: false, thumbnailUrl: null }));
  }
  const mainLink = plus ? ([...live].sort(byOrder).find((l) => l.isMainButton) ?? null) : null;
  const rest = live.filter((l) => l !== mainLink).map((l) => (l.isMainButton ? { ...l, isMainButton: false } : l));

  // Display order: the main button, links outside lists, then each list with its links.
  const ordered: { link: PageLink; list: PageLinkList | null }[] = [];
  if (mainLink) ordered.push({ link: mainLink, list: null });
  for (const l of rest.filter((l) => !inList(l)).sort(byOrder)) ordered.push({ link: l, list: null });
  for (const list of lists) for (const l of rest.filter((x) => x.parentListId === list.id).sort(byOrder)) ordered.push({ link: l, list });

  const shown = plus ? ordered : ordered.slice(0, LIMITS.LITE_MAX_LINKS);
  const groups: VisibleGroup[] = [];
  for (const { link, list } of shown) {
    if (!list) continue;
    const last = groups.at(-1);
    if (last && last.list.id === list.id) last.links.push(link);
    else groups.push({ list, links: [link] });
  }

  let socialLinks = s.socialLinks.filter((l) => l.isVisible).sort((a, b) => a.displayOrder - b.displayOrder || (a.id < b.id ? -1 : 1));
  if (!plus) socialLinks = socialLinks.slice(0, LIMITS.LITE_MAX_VISIBLE_SOCIAL);

  const theme = getTheme(p.selectedThemeName);
  return {
    plus,
    main: shown[0]?.link === mainLink ? mainLink : null,
    ungrouped: shown.filter((x) => !x.list && x.link !== mainLink).map((x) => x.link),
    groups,
    links: shown.map((x) => x.link),
    socialLinks,
    showBranding: !(plus && (p.removeBranding || p.hidePlatformBranding)),
    longFormText: plus ? p.longFormText.trim() : "",
    // Premium themes, fonts and SEO fields are Plus features: under Lite they fall back to defaults.
    themeId: plus || theme.free ? (theme.id as ThemeId) : APPEARANCE_DEFAULTS.theme,
    fontPairing: plus ? p.customFontPairingName : null,
    seoTitle: plus ? p.seoTitle.trim() : "",
    seoDescription: plus ? p.seoDescription.trim() : "",
  };
}
