/**
 * "Hide Plus items and publish" (ADR 112): the draft edit that takes exactly the items the publish
 * gate counts off a Lite page, and nothing else. Pure: the API applies the returned snapshot as a
 * normal draft change and then publishes it, and the dashboard lists the returned changes first.
 *
 * A Plus-only link type (lead magnet, contact card, promote) is hidden. A main button, a thumbnail
 * or a schedule is reset: a scheduled link showing now stays, without its schedule; one that is not
 * showing now (not started or expired) is hidden, so nothing appears that visitors cannot see today.
 * Links and social icons over the Lite limits are hidden from the last one back. Branding removal
 * and the font pairing go back to the defaults; long-form text has no switch, so it is cleared.
 */
import { LIMITS } from "./limits.ts";
import { PROMOTE_LINK_TYPE } from "./link-types.ts";
import type { PageLink, PageSnapshot } from "./model.ts";
import type { FeatureKey } from "./plans.ts";
import { getPlatform } from "./platforms.ts";
import { linkPlusFeatures, plusOnlyFeaturesUsed } from "./publish-gate.ts";
import { isLive } from "./visible-content.ts";

export interface PlusChange {
  feature: FeatureKey;
  /** What happens to which item, in the dashboard's words. */
  text: string;
}

export interface HidePlusResult {
  snapshot: PageSnapshot;
  changes: PlusChange[];
}

const HIDDEN_TYPES: readonly FeatureKey[] = ["lead_magnet", "vcf", PROMOTE_LINK_TYPE];
const byOrder = <T extends { orderIndex: number; id: string }>(a: T, b: T) => a.orderIndex - b.orderIndex || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Links in the order the page shows them: those outside any list, then each list's. */
function inPageOrder(s: PageSnapshot): PageLink[] {
  const lists = [...s.lists].sort(byOrder);
  const known = new Set(lists.map((l) => l.id));
  const outside = s.links.filter((l) => l.parentListId === null || !known.has(l.parentListId)).sort(byOrder);
  return [...outside, ...lists.flatMap((list) => s.links.filter((l) => l.parentListId === list.id).sort(byOrder))];
}

export function hidePlusItems(s: PageSnapshot, now: Date): HidePlusResult {
  const used = new Set(plusOnlyFeaturesUsed(s));
  const changes: PlusChange[] = [];
  const edited = new Map<string, PageLink>();
  const ordered = inPageOrder(s);

  for (const original of ordered) {
    if (!original.isActive) continue;
    const features = linkPlusFeatures(original);
    if (features.length === 0) continue;
    const name = `“${original.title}”`;
    const hiddenType = features.find((f) => HIDDEN_TYPES.includes(f));
    if (hiddenType) {
      edited.set(original.id, { ...original, isActive: false });
      changes.push({ feature: hiddenType, text: `${name} will be hidden` });
      continue;
    }
    const l = { ...original };
    if (l.scheduleStartTime || l.scheduleEndTime) {
      if (isLive(l, now)) {
        l.scheduleStartTime = null;
        l.scheduleEndTime = null;
        changes.push({ feature: "scheduling", text: `${name} loses its schedule and stays visible` });
      } else {
        l.isActive = false;
        changes.push({ feature: "scheduling", text: `${name} is not showing now and will be hidden` });
        edited.set(l.id, l);
        continue;
      }
    }
    if (l.isMainButton) {
      l.isMainButton = false;
      changes.push({ feature: "main_button", text: `${name} will no longer be the main button` });
    }
    if (l.thumbnailUrl) {
      l.thumbnailUrl = null;
      changes.push({ feature: "thumbnails", text: `${name} loses its thumbnail` });
    }
    edited.set(l.id, l);
  }

  if (used.has("unlimited_links")) {
    let shown = 0;
    for (const original of ordered) {
      const l = edited.get(original.id) ?? original;
      if (!l.isActive) continue;
      shown += 1;
      if (shown <= LIMITS.LITE_MAX_LINKS) continue;
      edited.set(l.id, { ...l, isActive: false });
      changes.push({ feature: "unlimited_links", text: `“${l.title}” will be hidden (over the ${LIMITS.LITE_MAX_LINKS}-link limit)` });
    }
    if (shown <= LIMITS.LITE_MAX_LINKS) changes.push({ feature: "unlimited_links", text: `Hiding the items above leaves ${shown} links, within the limit` });
  }

  let socialLinks = s.socialLinks;
  if (used.has("unlimited_social_links")) {
    const keep = new Set(
      s.socialLinks
        .filter((l) => l.isVisible)
        .sort((a, b) => a.displayOrder - b.displayOrder || (a.id < b.id ? -1 : 1))
        .slice(0, LIMITS.LITE_MAX_VISIBLE_SOCIAL)
        .map((l) => l.id),
    );
    socialLinks = s.socialLinks.map((l) => {
      if (!l.isVisible || keep.has(l.id)) return l;
      changes.push({ feature: "unlimited_social_links", text: `The ${getPlatform(l.platform)?.name ?? l.platform} icon will be hidden (over the ${LIMITS.LITE_MAX_VISIBLE_SOCIAL}-icon limit)` });
      return { ...l, isVisible: false };
    });
  }

  const profile = { ...s.profile };
  if (used.has("remove_branding")) {
    profile.removeBranding = false;
    profile.hidePlatformBranding = false;
    changes.push({ feature: "remove_branding", text: "Plinth branding will show again" });
  }
  if (used.has("custom_fonts")) {
    profile.customFontPairingName = null;
    changes.push({ feature: "custom_fonts", text: "Your font pairing goes back to the theme's fonts" });
  }
  if (used.has("long_form_text")) {
    profile.longFormText = "";
    changes.push({ feature: "long_form_text", text: "Your long-form text will be cleared" });
  }

  return {
    snapshot: { ...s, profile, links: s.links.map((l) => edited.get(l.id) ?? l), socialLinks },
    changes,
  };
}
