/**
 * Generated pages for the plan rules (ADR 136): every link type with the fields the link dialog
 * saves, players, switches, main buttons, thumbnails, schedules before, around and after the instant,
 * lists, social icons over and under the Lite limit, premium and free themes, fonts, branding,
 * long-form text on and off, SEO fields, blank or not, and what Lite keeps as set (custom colours,
 * button shape, icon position, picture style). Deterministic: a failure names the seed
 * that rebuilds the page. And what a visitor stops seeing between two renders of one page, read from
 * their HTML (seenDifference).
 */
import { expect } from "vitest";
import type { PageLink, PagePlan, PageSnapshot, PageSocialLink } from "#core/model.ts";
import type { PlanHiddenItem } from "#core/plan-hides.ts";
import { LINK_TYPES, type LinkType } from "#core/link-types.ts";
import { PLATFORM_IDS } from "#core/platforms.ts";
import { APPEARANCE_DEFAULTS, BUTTON_STYLES, FONT_PAIRING_IDS, FULLWIDTH_SUBTYPES, ICON_SUBTYPES, PICTURE_STYLES, SOCIAL_POSITIONS, THEME_IDS } from "#core/themes.ts";
import { link, list, LITE, NOW, PLUS, snapshot } from "../renderer/fixtures.ts";
import { drawnLinks, seen, type SeenItem } from "../renderer/page-seen.ts";
import { rng } from "#tests/support/rng.ts";

const HOUR = 3_600_000;
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR).toISOString();

/** What each type's link holds as the link dialog saves it: the address, and the type's fields. */
const FIELDS: Partial<Record<LinkType, Pick<PageLink, "url" | "data">>> = {
  label: { url: "#", data: {} },
  vcf: { url: "#", data: { name: "Ada Lovelace", email: "ada@example.com" } },
  tip: { url: "#", data: { currency: "usd", amounts: "300,500", custom: "on", min: "100", max: "20000" } },
  paid_download: { url: "#", data: { currency: "eur", price: "900", file: "file_1", fileName: "pack.zip", description: "Twelve presets" } },
  music: { url: "https://open.spotify.com/album/1", data: { services: JSON.stringify([{ service: "spotify", url: "https://open.spotify.com/album/1" }]) } },
  lead_magnet: { url: "#", data: { description: "A free guide" } },
};
/** Custom colours: dark, light and between. */
const COLOURS = ["#2a2a2a", "#ffffff", "#0ea5e9", "#fde68a"];
/** A standard link shown as a player (ADR 212). */
const PLAYER: Pick<PageLink, "url" | "data"> = { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", data: { player: "on" } };

/** Schedules relative to NOW: none, running, to come, over, open-ended either way, and an empty window. */
const SCHEDULES: [start: string | null, end: string | null][] = [
  [null, null],
  [null, null],
  [null, null],
  [at(-2), at(2)],
  [at(2), at(4)],
  [at(-4), at(-2)],
  [at(3), null],
  [at(-3), null],
  [null, at(5)],
  [null, at(-5)],
  [at(6), at(6)],
];

export function planPage(seed: number): PageSnapshot {
  const r = rng(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const lists = Array.from({ length: Math.floor(r() * 3) }, (_, i) => list(`g${seed}-${i}`, `List ${i}`, Math.floor(r() * 4)));
  const links: PageLink[] = Array.from({ length: Math.floor(r() * 14) }, (_, i) => {
    const [scheduleStartTime, scheduleEndTime] = pick(SCHEDULES);
    const linkType = r() < 0.7 ? "standard_url" : pick(LINK_TYPES);
    return link({
      id: `l${seed}-${i}`,
      title: `Link ${i}`,
      linkType,
      ...(linkType === "standard_url" && r() < 0.15 ? PLAYER : (FIELDS[linkType] ?? {})),
      isMainButton: r() < 0.2,
      isActive: r() < 0.85,
      orderIndex: Math.floor(r() * 10),
      thumbnailUrl: r() < 0.25 ? "/media/ab/thumb.webp" : null,
      scheduleStartTime,
      scheduleEndTime,
      parentListId: lists.length && r() < 0.4 ? pick(lists).id : r() < 0.05 ? "gone-list" : null,
    });
  });
  const platforms = [...PLATFORM_IDS].sort(() => r() - 0.5);
  const socials: PageSocialLink[] = Array.from({ length: Math.floor(r() * 8) }, (_, i) => ({
    id: `s${seed}-${i}`,
    platform: platforms[i]!,
    url: `https://example.com/${i}`,
    displayOrder: Math.floor(r() * 6),
    isVisible: r() < 0.8,
  }));
  return snapshot(
    {
      selectedThemeName: pick(THEME_IDS),
      customFontPairingName: r() < 0.3 ? pick(FONT_PAIRING_IDS) : null,
      removeBranding: r() < 0.2,
      hidePlatformBranding: r() < 0.15,
      longFormText: pick(["", "  \n ", "About me", "## Hello\n\nA longer text."]),
      longFormTextVisible: r() < 0.7,
      seoTitle: pick(["", " ", "My page"]),
      seoDescription: pick(["", "Everything I make", "  "]),
      // What Lite keeps as the owner set it: the Lite page must draw these as the Plus page does.
      buttonShapeStyle: pick(BUTTON_STYLES),
      socialLinksPosition: pick(SOCIAL_POSITIONS),
      profilePictureStyle: pick(PICTURE_STYLES),
      profilePictureIconSubtype: pick(ICON_SUBTYPES),
      profilePictureFullwidthSubtype: pick(FULLWIDTH_SUBTYPES),
      profilePictureFullwidthUrl: r() < 0.5 ? "/media/ab/wide.webp" : null,
      customPageBackgroundColor: r() < 0.3 ? pick(COLOURS) : null,
      customButtonBackgroundColor: r() < 0.3 ? pick(COLOURS) : null,
      customButtonBorderColor: r() < 0.3 ? pick(COLOURS) : null,
    },
    links,
    socials,
    lists,
  );
}


/** A listed item as seenDifference names it: its kind, and the id of what it is about. */
export const itemKey = (i: Pick<PlanHiddenItem, "kind" | "id">) => (i.id ? `${i.kind}:${i.id}` : i.kind);

/** The page rendered under `plan` at `at`, as the HTML a visitor gets. */
export type RenderAt = (plan: PagePlan, at: Date) => string;

/**
 * What a visitor sees on the page with Plus at `now` (`plusHtml`) and not on the Lite page
 * (`liteHtml`), item by item, named as itemKey names the dialog's items; and the scheduled links the
 * Plus page shows at their start that the Lite page then does not (`renderAt` draws both then). Read
 * from the rendered HTML alone: `s` only names the lists and social icons the pages draw by their
 * headings and platforms, and gives the instants the schedules start at.
 *
 * It also checks that nothing else differs: what the Lite page shows instead of an item is the Lite
 * default, every item both pages draw is drawn alike in the same order (but the main button, back in
 * its own place), and the rest of the page is the same, byte for byte.
 */
export function seenDifference(s: PageSnapshot, now: Date, plusHtml: string, liteHtml: string, renderAt: RenderAt, label: string): string[] {
  const plus = seen(plusHtml);
  const lite = seen(liteHtml);
  const out: string[] = [];

  const liteItems = new Map(lite.items.map((i) => [i.id, i]));
  for (const i of lite.items) expect(plus.items.some((p) => p.id === i.id), `${label}: the Lite page shows ${i.id}, the Plus page does not`).toBe(true);
  const shared = (items: SeenItem[]) => items.map((i) => i.id).filter((id) => liteItems.has(id));
  // The main button stands first on the Plus page, emphasised if it is drawn as a button; the Lite
  // page draws it in its own place, as any other.
  const top = plus.items[0];
  const topThere = top ? liteItems.get(top.id) : undefined;
  const main = top && topThere && ((top.main && !topThere.main) || topThere.list !== top.list || shared(lite.items)[0] !== top.id) ? top : null;
  if (main) out.push(`main:${main.id}`);

  for (const i of plus.items) {
    const there = liteItems.get(i.id);
    if (!there) {
      out.push(`link:${i.id}`);
      continue;
    }
    const lostThumb = i.thumb !== null && there.thumb === null;
    if (lostThumb) out.push(`thumbnail:${i.id}`);
    expect(there.face, `${label}: ${i.id} is drawn otherwise`).toBe(i.face);
    // Without its thumbnail a button shows its type's icon, if it has one; else the same as with Plus.
    if (lostThumb) expect(there.mark, `${label}: ${i.id}`).not.toMatch(/^<img/);
    else expect(there.mark, `${label}: ${i.id}'s thumbnail or icon`).toBe(i.mark);
    if (i === main) continue;
    expect(there.main, `${label}: ${i.id} emphasised on one page only`).toBe(i.main);
    expect(there.list, `${label}: ${i.id} moved to another list`).toBe(i.list);
  }
  // The items both pages draw stand in the same order, but the main button.
  const order = (items: SeenItem[]) => shared(items).filter((id) => id !== main?.id);
  expect(order(lite.items), `${label}: the links' order`).toEqual(order(plus.items));

  const only = <T,>(found: T[], what: string): T => {
    expect(found, `${label}: ${what}`).toHaveLength(1);
    return found[0]!;
  };
  for (const heading of plus.lists) if (!lite.lists.includes(heading)) out.push(`list:${only(s.lists.filter((l) => l.title === heading), heading).id}`);
  // A heading shows on the Lite page only where the Plus page shows it, or where the main button goes back into its list.
  const mainList = main ? liteItems.get(main.id)!.list : null;
  expect(lite.lists.filter((h) => plus.lists.includes(h) || h !== mainList), `${label}: the lists`).toEqual(plus.lists.filter((h) => lite.lists.includes(h)));
  for (const platform of plus.socials) if (!lite.socials.includes(platform)) out.push(`social:${only(s.socialLinks.filter((l) => l.platform === platform), platform).id}`);
  expect(lite.socials, `${label}: the social icons`).toEqual(plus.socials.filter((p) => lite.socials.includes(p)));

  // Each of these the Lite page draws as the Plus page does, or else as a page without the feature.
  if (lite.longForm !== plus.longForm) {
    out.push("long_form_text");
    expect(lite.longForm, `${label}: long-form text`).toBe("");
  }
  // The stylesheet: the Lite page draws no rule the Plus page lacks, in the same order, and leaves out
  // only the rules of link types it no longer shows; a theme shows in the colours of the rules both draw.
  const shapes = (rules: typeof plus.rules) => rules.map((r) => r.shape);
  const liteShapes = new Set(shapes(lite.rules));
  const bothRules = plus.rules.filter((r) => liteShapes.has(r.shape));
  expect(shapes(bothRules), `${label}: the stylesheet's shapes, sizes and places`).toEqual(shapes(lite.rules));
  if (!out.some((k) => k.startsWith("link:"))) expect(shapes(lite.rules), `${label}: the stylesheet`).toEqual(shapes(plus.rules));
  const colours = (rules: typeof plus.rules) => rules.map((r) => r.colours).join(" ");
  if (colours(lite.rules) !== colours(bothRules)) {
    out.push("theme");
    // Drawn in the Lite theme's colours (checked where the owner has no colours of their own).
    const p = s.profile;
    if (!p.customPageBackgroundColor && !p.customButtonBackgroundColor && !p.customButtonBorderColor) expect(lite.theme, `${label}: theme`).toBe(APPEARANCE_DEFAULTS.theme);
  } else expect(lite.theme, `${label}: theme`).toBe(plus.theme);
  if (lite.font !== plus.font) {
    out.push("font");
    expect(lite.font, `${label}: font`).toBeNull();
  }
  if (lite.branding !== plus.branding) {
    out.push("branding");
    expect(lite.branding, `${label}: branding`).toBe(true);
  }
  if (lite.title !== plus.title) {
    out.push("seo_title");
    expect(lite.title, `${label}: title`).toBe(lite.name);
  }
  if (lite.description !== plus.description) {
    out.push("seo_description");
    expect(lite.description, `${label}: description`).toBe(lite.bio || `${lite.name} on Plinth`);
  }
  expect(lite.rest, `${label}: the rest of the page`).toBe(plus.rest);
  expect(lite.head, `${label}: the rest of the head`).toBe(plus.head);

  // A link still to come: the Plus page shows it from its start, the Lite page never.
  const drawnAt = new Map<string, { plus: Set<string>; lite: Set<string> }>();
  const ids = (plan: PagePlan, at: Date) => drawnLinks(renderAt(plan, at));
  for (const l of s.links) {
    if (!l.scheduleStartTime || new Date(l.scheduleStartTime) <= now) continue;
    const start = l.scheduleStartTime;
    if (!drawnAt.has(start)) drawnAt.set(start, { plus: ids(PLUS, new Date(start)), lite: ids(LITE, new Date(start)) });
    const then = drawnAt.get(start)!;
    expect(then.lite.has(l.id), `${label}: the Lite page shows the scheduled ${l.id}`).toBe(false);
    if (then.plus.has(l.id)) out.push(`later:${l.id}`);
  }
  return out.sort();
}
