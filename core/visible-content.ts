/**
 * What a public page shows at a given moment under the owner's plan (docs/product.md sections 4 and 6): the one
 * place the renderer, the preview and the visitor API learn which links are on the page and which
 * Plus features apply. Pure: the same answer for the same snapshot, plan and instant.
 *
 * Under Lite the plan hides, and never changes, what it refuses (ADR 136): exactly the items
 * core/plan-hides.ts lists, which tests/unit/core/plan-hides.test.ts checks over generated pages.
 */
import { LIMITS } from "./limits.ts";
import type { PageLink, PageLinkList, PagePlan, PageSnapshot, PageSocialLink } from "./model.ts";
import { effectivePlan, planStateOf } from "./plans.ts";
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

export const byOrder = <T extends { orderIndex: number; id: string }>(a: T, b: T) => a.orderIndex - b.orderIndex || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const bySocialOrder = (a: PageSocialLink, b: PageSocialLink) => a.displayOrder - b.displayOrder || (a.id < b.id ? -1 : 1);

// Written as plain loops over arrays built with push, not filter/map/find chains: bulk republish
// runs this for every page, and an array made by map() has a different hidden class when the call
// is optimized than when it is not, so optimized code elsewhere kept meeting arrays it had not seen
// and was thrown away and compiled again (ADR 097).

/** The links of `links` for which `keep` holds, in order, sorted. */
function sortedWhere(links: PageLink[], keep: (l: PageLink) => boolean): PageLink[] {
  const out: PageLink[] = [];
  for (let i = 0; i < links.length; i++) if (keep(links[i]!)) out.push(links[i]!);
  return out.sort(byOrder);
}

export function visibleContentOf(s: PageSnapshot, plan: PagePlan, now: Date): VisibleContent {
  const plus = effectivePlan(planStateOf(plan), now) === "plus";
  const p = s.profile;
  const lists: PageLinkList[] = [];
  for (let i = 0; i < s.lists.length; i++) lists.push(s.lists[i]!);
  lists.sort(byOrder);
  const listIds = new Set<string>();
  for (let i = 0; i < lists.length; i++) listIds.add(lists[i]!.id);

  // Live links in snapshot order. Lite: only Lite link types, no emphasis, no thumbnails (docs/product.md section
  // 6), and no scheduled link at all: showing it outside its window would go against the owner's wish,
  // and honouring the window would be the Plus feature itself (ADR 136).
  const live: PageLink[] = [];
  for (let i = 0; i < s.links.length; i++) {
    const l = s.links[i]!;
    if (!isLive(l, now)) continue;
    if (plus) live.push(l);
    else if (LITE_LINK_TYPES.includes(l.linkType) && !l.scheduleStartTime && !l.scheduleEndTime) live.push({ ...l, isMainButton: false, thumbnailUrl: null });
  }
  // The main button: the first in display order that asks to be it (Plus only).
  let mainLink: PageLink | null = null;
  if (plus) for (let i = 0; i < live.length; i++) if (live[i]!.isMainButton && (mainLink === null || byOrder(live[i]!, mainLink) < 0)) mainLink = live[i]!;
  const rest: PageLink[] = [];
  for (let i = 0; i < live.length; i++) {
    const l = live[i]!;
    if (l !== mainLink) rest.push(l.isMainButton ? { ...l, isMainButton: false } : l);
  }

  // Display order: the main button, links outside lists, then each list with its links; Lite stops at its limit.
  const max = plus ? Infinity : LIMITS.LITE_MAX_LINKS;
  const links: PageLink[] = [];
  const ungrouped: PageLink[] = [];
  const groups: VisibleGroup[] = [];
  if (mainLink) links.push(mainLink);
  const outside = sortedWhere(rest, (l) => l.parentListId === null || !listIds.has(l.parentListId));
  for (let i = 0; i < outside.length && links.length < max; i++) {
    links.push(outside[i]!);
    ungrouped.push(outside[i]!);
  }
  for (let j = 0; j < lists.length && links.length < max; j++) {
    const list = lists[j]!;
    const inside = sortedWhere(rest, (l) => l.parentListId === list.id);
    let group: VisibleGroup | null = null;
    for (let i = 0; i < inside.length && links.length < max; i++) {
      links.push(inside[i]!);
      if (group === null) {
        const last = groups.length > 0 ? groups[groups.length - 1]! : null;
        group = last !== null && last.list.id === list.id ? last : { list, links: [] };
        if (group !== last) groups.push(group);
      }
      group.links.push(inside[i]!);
    }
  }

  const visibleSocial: PageSocialLink[] = [];
  for (let i = 0; i < s.socialLinks.length; i++) if (s.socialLinks[i]!.isVisible) visibleSocial.push(s.socialLinks[i]!);
  visibleSocial.sort(bySocialOrder);
  let socialLinks = visibleSocial;
  if (!plus && visibleSocial.length > LIMITS.LITE_MAX_VISIBLE_SOCIAL) {
    socialLinks = [];
    for (let i = 0; i < LIMITS.LITE_MAX_VISIBLE_SOCIAL; i++) socialLinks.push(visibleSocial[i]!);
  }

  const theme = getTheme(p.selectedThemeName);
  return {
    plus,
    main: mainLink,
    ungrouped,
    groups,
    links,
    socialLinks,
    showBranding: !(plus && (p.removeBranding || p.hidePlatformBranding)),
    longFormText: plus && p.longFormTextVisible ? p.longFormText.trim() : "",
    // Premium themes, fonts and SEO fields are Plus features: under Lite they fall back to defaults.
    themeId: plus || theme.free ? (theme.id as ThemeId) : APPEARANCE_DEFAULTS.theme,
    fontPairing: plus ? p.customFontPairingName : null,
    seoTitle: plus ? p.seoTitle.trim() : "",
    seoDescription: plus ? p.seoDescription.trim() : "",
  };
}
