/**
 * What a public page shows at a given moment under the owner's plan (spec sections 4 and 6).
 * A stand-in until core/page-rules.ts visibleContent lands; the renderer imports only from here.
 */
import { LIMITS } from "./limits.ts";
import type { PageLink, PagePlan, PageSnapshot, PageSocialLink } from "./model.ts";
import { effectivePlan } from "./plans.ts";
import { planStateOf } from "./publish-gate.ts";
import { LITE_LINK_TYPES } from "./link-types.ts";

export interface VisibleContent {
  plus: boolean;
  links: PageLink[];
  socialLinks: PageSocialLink[];
  showBranding: boolean;
  longFormText: string;
}

export function isLive(l: PageLink, now: Date): boolean {
  if (!l.isActive) return false;
  if (l.scheduleStartTime && new Date(l.scheduleStartTime).getTime() > now.getTime()) return false;
  if (l.scheduleEndTime && new Date(l.scheduleEndTime).getTime() <= now.getTime()) return false;
  return true;
}

export function visibleContentOf(s: PageSnapshot, plan: PagePlan, now: Date): VisibleContent {
  const plus = effectivePlan(planStateOf(plan), now) === "plus";
  let links = s.links.filter((l) => isLive(l, now)).sort((a, b) => a.orderIndex - b.orderIndex);
  let socialLinks = s.socialLinks.filter((l) => l.isVisible).sort((a, b) => a.displayOrder - b.displayOrder);
  if (!plus) {
    links = links
      .filter((l) => LITE_LINK_TYPES.includes(l.linkType))
      .map((l) => ({ ...l, isMainButton: false, thumbnailUrl: null }))
      .slice(0, LIMITS.LITE_MAX_LINKS);
    socialLinks = socialLinks.slice(0, LIMITS.LITE_MAX_VISIBLE_SOCIAL);
  } else {
    const main = links.filter((l) => l.isMainButton).slice(0, 1);
    links = [...main, ...links.filter((l) => !main.includes(l)).map((l) => ({ ...l, isMainButton: false }))];
  }
  const p = s.profile;
  return {
    plus,
    links,
    socialLinks,
    showBranding: !(plus && (p.removeBranding || p.hidePlatformBranding)),
    longFormText: plus ? p.longFormText : "",
  };
}
