/**
 * What the Lite rules take off a page, item by item (ADR 136): the list the Publish dialog shows
 * before "Hide Plus items and publish", and the features the publish gate refuses. The plan hides
 * these at render time (core/visible-content.ts) and the draft keeps them, so they come back when
 * the page is rendered under Plus again. Pure: the same answer for the same snapshot and instant.
 *
 * Each item is something a visitor sees with Plus now (or, for a scheduled link, later) and will not
 * see on the Lite page: nothing else is listed, and nothing the Lite page hides is left out.
 * tests/unit/core/plan-hides.test.ts and tests/api/hide-plus.test.ts compare the list with the
 * difference between the HTML of the page rendered with Plus and under Lite, over generated pages.
 */
import { drawnColorsOf } from "./color.ts";
import { playerOf } from "./embeds.ts";
import { LIMITS } from "./limits.ts";
import { LINK_TYPE_LABELS, LINK_TYPES, LITE_LINK_TYPES, PROMOTE_LINK_TYPE, type LinkType } from "./link-types.ts";
import type { PageLink, PageProfile, PageSnapshot } from "./model.ts";
import { ALWAYS_PLUS, FEATURE_KEYS, type FeatureKey } from "./plans.ts";
import { getPlatform } from "./platforms.ts";
import { APPEARANCE_DEFAULTS, getTheme } from "./themes.ts";
import { byOrder, visibleContentOf } from "./visible-content.ts";

/**
 * The plan feature an item needs: a feature key, or for a link of a type Lite refuses, its type
 * (each such type is a feature key of its own today: lead magnets, contact cards, music, tips, …).
 */
export type PlanFeature = FeatureKey | LinkType;
export const PLAN_FEATURES = [...new Set<PlanFeature>([...FEATURE_KEYS, ...LINK_TYPES])] as [PlanFeature, ...PlanFeature[]];

export type PlanHideKind =
  /** A link on the Plus page now that the Lite page leaves out. */
  | "link"
  /** A scheduled link that would appear later with Plus, and never on the Lite page. */
  | "later"
  /** The Plus page's main button, an ordinary link on the Lite page. */
  | "main"
  | "thumbnail"
  /** A list whose every link the Lite page leaves out, heading and all. */
  | "list"
  | "social"
  | "long_form_text"
  | "theme"
  | "font"
  | "branding"
  | "seo_title"
  | "seo_description";

export interface PlanHiddenItem {
  feature: PlanFeature;
  kind: PlanHideKind;
  /** The link, list or social link the item is about. */
  id?: string;
  /** What the visitor will stop seeing, in the dashboard's words. */
  text: string;
}

/**
 * How the public page draws a link (renderer/components/Page.tsx): a button shows its thumbnail before
 * its title and is emphasised as the main button; a label, a text link or a player shows neither, a
 * Social button no thumbnail. Such a link loses nothing a visitor sees with the thumbnail, and as the
 * main button only its place at the top.
 */
const isButton = (l: PageLink) => (l.linkType === "standard_url" ? !playerOf(l) : ["donation", "lead_magnet", "vcf", "social", PROMOTE_LINK_TYPE, "paid_download"].includes(l.linkType));
const drawsThumbnail = (l: PageLink) => isButton(l) && l.linkType !== "social" && l.linkType !== "paid_download";

/**
 * The colours a theme draws the page in under the owner's own colours, as the renderer draws them: a
 * premium theme whose every colour the owner's replace looks like the Lite one.
 */
const coloursOf = (themeId: string, p: PageProfile) =>
  JSON.stringify(drawnColorsOf(getTheme(themeId), { pageBackground: p.customPageBackgroundColor, buttonBackground: p.customButtonBackgroundColor, buttonBorder: p.customButtonBorderColor }));

const scheduled = (l: PageLink) => !!(l.scheduleStartTime || l.scheduleEndTime);
const quoted = (title: string) => `“${title}”`;

/** The Lite rule a link breaks wherever it stands, or null: a Plus-only type, then a schedule. */
function refusedBy(l: PageLink): PlanFeature | null {
  if (!LITE_LINK_TYPES.includes(l.linkType)) return l.linkType;
  return scheduled(l) ? "scheduling" : null;
}

function refusedText(l: PageLink, feature: PlanFeature): string {
  if (feature === "scheduling") return `${quoted(l.title)} will be hidden (scheduled links need Plus)`;
  const type = LINK_TYPE_LABELS[l.linkType];
  return `${quoted(l.title)} will be hidden (${type} links need Plus)`;
}

/** Every item the Lite rules take off the page at `now`, in the order the page shows them. */
export function planHiddenItems(s: PageSnapshot, now: Date): PlanHiddenItem[] {
  const plus = visibleContentOf(s, ALWAYS_PLUS, now);
  const items: PlanHiddenItem[] = [];

  // Links on the Plus page now: a Plus-only type or a schedule is hidden wherever it stands; the rest
  // keep their place on the Lite page up to the link limit, in the Lite page's order (the main button
  // back in its own place among the links outside lists, then each list's).
  const listIndex = new Map([...s.lists].sort(byOrder).map((l, i) => [l.id, i]));
  const place = (l: PageLink) => (l.parentListId !== null && listIndex.has(l.parentListId) ? listIndex.get(l.parentListId)! : -1);
  const kept: PageLink[] = [];
  for (const l of plus.links) {
    const feature = refusedBy(l);
    if (feature) items.push({ feature, kind: "link", id: l.id, text: refusedText(l, feature) });
    else kept.push(l);
  }
  kept.sort((a, b) => place(a) - place(b) || byOrder(a, b));
  kept.forEach((l, i) => {
    if (i < LIMITS.LITE_MAX_LINKS) return;
    items.push({ feature: "unlimited_links", kind: "link", id: l.id, text: `${quoted(l.title)} will be hidden (over the ${LIMITS.LITE_MAX_LINKS}-link limit)` });
  });
  const liteLinks = kept.slice(0, LIMITS.LITE_MAX_LINKS);
  for (const l of liteLinks) {
    // The main button stands first, emphasised if it is a button: a link drawn plain that is first on
    // the Lite page too, outside any list, shows the same there.
    const samePlace = liteLinks[0] === l && place(l) === -1;
    if (plus.main?.id === l.id && (isButton(l) || !samePlace)) {
      const text = isButton(l) ? `${quoted(l.title)} will show as an ordinary link, not the main button` : `${quoted(l.title)} will show in its own place, not first as the main button`;
      items.push({ feature: "main_button", kind: "main", id: l.id, text });
    }
    if (l.thumbnailUrl && drawsThumbnail(l)) items.push({ feature: "thumbnails", kind: "thumbnail", id: l.id, text: `${quoted(l.title)} will show without its thumbnail` });
  }
  // A list the Lite page shows none of the links of goes, heading and all. (The main button goes back
  // into its own list on the Lite page, so that list may stay.)
  const liteLists = new Set(liteLinks.map((l) => l.parentListId));
  for (const g of plus.groups) {
    if (liteLists.has(g.list.id)) continue;
    const cause = items.find((i) => i.kind === "link" && i.id === g.links[0]!.id)!;
    items.push({ feature: cause.feature, kind: "list", id: g.list.id, text: `The list ${quoted(g.list.title)} will be hidden (none of its links show)` });
  }

  // Scheduled links still to come: Plus shows them in their window, the Lite page never.
  const comes = (l: PageLink) => {
    const start = l.scheduleStartTime ? new Date(l.scheduleStartTime).getTime() : null;
    const end = l.scheduleEndTime ? new Date(l.scheduleEndTime).getTime() : null;
    return l.isActive && start !== null && start > now.getTime() && (end === null || end > start);
  };
  const later = s.links.filter(comes);
  for (const l of later.sort(byOrder)) {
    const type = LITE_LINK_TYPES.includes(l.linkType) ? null : l.linkType;
    items.push({ feature: type ?? "scheduling", kind: "later", id: l.id, text: `${quoted(l.title)} will not appear at its scheduled time` });
  }

  plus.socialLinks.slice(LIMITS.LITE_MAX_VISIBLE_SOCIAL).forEach((l) => {
    const name = getPlatform(l.platform)?.name ?? l.platform;
    items.push({ feature: "unlimited_social_links", kind: "social", id: l.id, text: `The ${name} icon will be hidden (over the ${LIMITS.LITE_MAX_VISIBLE_SOCIAL}-icon limit)` });
  });

  if (plus.longFormText) items.push({ feature: "long_form_text", kind: "long_form_text", text: "Your long-form text will be hidden" });
  if (!getTheme(plus.themeId).free && coloursOf(plus.themeId, s.profile) !== coloursOf(APPEARANCE_DEFAULTS.theme, s.profile)) {
    const text = `Your theme, ${getTheme(plus.themeId).name}, will show as ${getTheme(APPEARANCE_DEFAULTS.theme).name}`;
    items.push({ feature: "premium_themes", kind: "theme", text });
  }
  if (plus.fontPairing) items.push({ feature: "custom_fonts", kind: "font", text: "Your font pairing will show as the theme's fonts" });
  if (!plus.showBranding) items.push({ feature: "remove_branding", kind: "branding", text: "“Powered by Plinth” will show at the foot of your page" });
  if (plus.seoTitle) items.push({ feature: "seo_settings", kind: "seo_title", text: "Your SEO title will not be used (search results show your name)" });
  if (plus.seoDescription) items.push({ feature: "seo_settings", kind: "seo_description", text: "Your meta description will not be used (search results show your bio)" });
  return items;
}

/** The features of `items`, once each, in the order they first appear. */
export function featuresOf(items: readonly PlanHiddenItem[]): PlanFeature[] {
  return [...new Set(items.map((i) => i.feature))];
}

/** What a render tells about the owner's Plus items (ADR 136, 201): whether a Lite render leaves some out. */
export type PlusItemsState = "none" | "hidden" | "back";

/**
 * Whether a render of `version` shows the owner Plus items a Lite render leaves out: under Lite,
 * whether the Lite rules take anything off it; under Plus, whether the page shown (the version less
 * what it withholds, ADR 259) holds any, which are then back.
 */
export const rendersPlusItems = (version: PageSnapshot, shown: PageSnapshot, lite: boolean, now: Date): boolean => planHiddenItems(lite ? version : shown, now).length > 0;

/**
 * The owner's plus_items_state after a render under a plan that is Lite (`lite`) or not, of a snapshot
 * that has Plus items the Lite rules take off (`plusItems`, rendersPlusItems) or not:
 * "hidden" while a Lite render leaves items out; "back" when a render under Plus shows again what a
 * Lite render hid, which the dashboard announces once; "none" when there is nothing to hide. Every
 * render of a page, one publish or a bulk re-render, records it through this one rule.
 */
export function plusItemsStateAfter(current: PlusItemsState, lite: boolean, plusItems: boolean): PlusItemsState {
  if (lite) return plusItems ? "hidden" : "none";
  if (current === "hidden") return plusItems ? "back" : "none";
  return current;
}

/**
 * An item the plan hid, named by its kind and, for a link, a list or a social icon, its id: how a
 * version records what it withholds (page_versions.withheld_items, ADR 259).
 */
export interface PlanItemKey {
  kind: PlanHideKind;
  id?: string;
}

/** Every kind, once: the Record makes a kind added to PlanHideKind and left out here a type error. */
const KINDS: Record<PlanHideKind, true> = { link: true, later: true, main: true, thumbnail: true, list: true, social: true, long_form_text: true, theme: true, font: true, branding: true, seo_title: true, seo_description: true };
export const PLAN_HIDE_KINDS = Object.keys(KINDS) as [PlanHideKind, ...PlanHideKind[]];

/** The same value, whatever order its objects' keys were written in. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The profile fields each page-wide item is drawn from: the owner changed the item when one of them differs. */
const PROFILE_FIELDS: Record<Exclude<PlanHideKind, "link" | "later" | "main" | "thumbnail" | "list" | "social">, (keyof PageSnapshot["profile"])[]> = {
  long_form_text: ["longFormText", "longFormTextVisible"],
  theme: ["selectedThemeName"],
  font: ["customFontPairingName"],
  branding: ["removeBranding", "hidePlatformBranding"],
  seo_title: ["seoTitle"],
  seo_description: ["seoDescription"],
};

/**
 * What a render of the last published version under Plus keeps as the Lite page showed it (ADR 259):
 * of the items the plan hid (planHiddenItems of `published` at `now`), those the owner has removed or
 * changed in `draft` since. A link, list or social icon is changed when it is gone from the draft or
 * any of its fields but its place in the order differs; a page-wide item when the profile field it is
 * drawn from differs. A list withheld keeps its links off the page, so they are withheld with it; a
 * list all of whose links on the page are withheld shows no more, and is withheld too. Everything
 * else comes back.
 */
export function withheldItems(published: PageSnapshot, draft: PageSnapshot, now: Date): PlanItemKey[] {
  const hidden = planHiddenItems(published, now);
  if (hidden.length === 0) return [];
  const byId = <T extends { id: string }>(rows: readonly T[]) => new Map(rows.map((r) => [r.id, r]));
  const [pubLinks, draftLinks] = [byId(published.links), byId(draft.links)];
  const [pubLists, draftLists] = [byId(published.lists), byId(draft.lists)];
  const [pubSocial, draftSocial] = [byId(published.socialLinks), byId(draft.socialLinks)];
  // Its place in the order is not the item: dragging another link renumbers them all.
  const unordered = (row: object | undefined) => row && { ...row, orderIndex: undefined, displayOrder: undefined };
  const changedRow = <T extends { id: string }>(was: Map<string, T>, is: Map<string, T>, id: string | undefined) => !id || !is.has(id) || !sameValue(unordered(was.get(id)), unordered(is.get(id)));

  const changed = (i: PlanHiddenItem): boolean => {
    switch (i.kind) {
      case "link":
      case "later":
      case "main":
      case "thumbnail":
        return changedRow(pubLinks, draftLinks, i.id);
      case "list":
        return changedRow(pubLists, draftLists, i.id);
      case "social":
        return changedRow(pubSocial, draftSocial, i.id);
      default:
        return PROFILE_FIELDS[i.kind].some((f) => !sameValue(published.profile[f], draft.profile[f]));
    }
  };
  const withheld = new Set(hidden.filter(changed));
  const listOf = (i: PlanHiddenItem) => ((i.kind === "link" || i.kind === "later") && i.id ? (pubLinks.get(i.id)?.parentListId ?? null) : null);
  for (const list of hidden.filter((i) => i.kind === "list")) {
    const inside = hidden.filter((i) => listOf(i) === list.id);
    const shown = inside.filter((i) => i.kind === "link");
    if (withheld.has(list)) for (const i of inside) withheld.add(i);
    else if (shown.length > 0 && shown.every((i) => withheld.has(i))) {
      withheld.add(list);
      for (const i of inside) withheld.add(i);
    }
  }
  return hidden.filter((i) => withheld.has(i)).map((i) => (i.id ? { kind: i.kind, id: i.id } : { kind: i.kind }));
}
