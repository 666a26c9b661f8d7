/**
 * Generated pages for the plan rules (ADR 136): every link type, switches, main buttons, thumbnails,
 * schedules before, around and after the instant, lists, social icons over and under the Lite limit,
 * premium and free themes, fonts, branding, long-form text on and off, and SEO fields, blank or not.
 * Deterministic: a failure names the seed that rebuilds the page.
 */
import { expect } from "vitest";
import type { PageLink, PageSnapshot, PageSocialLink } from "#core/model.ts";
import type { PlanHiddenItem } from "#core/plan-hides.ts";
import { visibleContentOf } from "#core/visible-content.ts";
import { LINK_TYPES } from "#core/link-types.ts";
import { PLATFORM_IDS } from "#core/platforms.ts";
import { FONT_PAIRING_IDS, THEME_IDS } from "#core/themes.ts";
import { link, list, LITE, NOW, PLUS, snapshot } from "../renderer/fixtures.ts";
import { rng } from "#tests/support/rng.ts";

const HOUR = 3_600_000;
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR).toISOString();

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
    return link({
      id: `l${seed}-${i}`,
      title: `Link ${i}`,
      linkType: r() < 0.7 ? "standard_url" : pick(LINK_TYPES),
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
    },
    links,
    socials,
    lists,
  );
}

/** A listed item as `stopsSeeing` names it: its kind, and the id of what it is about. */
export const itemKey = (i: Pick<PlanHiddenItem, "kind" | "id">) => (i.id ? `${i.kind}:${i.id}` : i.kind);

/**
 * What a visitor sees with Plus at `now` and not on the Lite page, worked out from the two renders
 * alone; and the scheduled links Plus would show later (at their start) that Lite never shows.
 */
export function stopsSeeing(s: PageSnapshot, now: Date): string[] {
  const plus = visibleContentOf(s, PLUS, now);
  const lite = visibleContentOf(s, LITE, now);
  const liteLinks = new Map(lite.links.map((l) => [l.id, l]));
  const out: string[] = [];
  for (const l of plus.links) {
    const there = liteLinks.get(l.id);
    if (!there) out.push(`link:${l.id}`);
    else if (l.thumbnailUrl && !there.thumbnailUrl) out.push(`thumbnail:${l.id}`);
  }
  if (plus.main && liteLinks.has(plus.main.id) && lite.main?.id !== plus.main.id) out.push(`main:${plus.main.id}`);
  const liteLists = new Set(lite.groups.map((g) => g.list.id));
  for (const g of plus.groups) if (!liteLists.has(g.list.id)) out.push(`list:${g.list.id}`);
  for (const l of s.links) {
    if (plus.links.some((p) => p.id === l.id) || !l.scheduleStartTime) continue;
    const start = new Date(l.scheduleStartTime);
    if (start <= now) continue;
    const shownThen = visibleContentOf(s, PLUS, start).links.some((p) => p.id === l.id);
    const liteThen = visibleContentOf(s, LITE, start).links.some((p) => p.id === l.id);
    expect(liteThen, `Lite never shows a scheduled link (${l.id})`).toBe(false);
    if (shownThen) out.push(`later:${l.id}`);
  }
  const liteSocial = new Set(lite.socialLinks.map((l) => l.id));
  for (const l of plus.socialLinks) if (!liteSocial.has(l.id)) out.push(`social:${l.id}`);
  if (plus.longFormText !== lite.longFormText) out.push("long_form_text");
  if (plus.themeId !== lite.themeId) out.push("theme");
  if (plus.fontPairing !== lite.fontPairing) out.push("font");
  if (plus.showBranding !== lite.showBranding) out.push("branding");
  if (plus.seoTitle !== lite.seoTitle) out.push("seo_title");
  if (plus.seoDescription !== lite.seoDescription) out.push("seo_description");
  // The Lite page shows nothing Plus does not.
  for (const l of lite.links) expect(plus.links.some((p) => p.id === l.id), `Lite shows ${l.id} that Plus does not`).toBe(true);
  for (const l of lite.socialLinks) expect(plus.socialLinks.some((p) => p.id === l.id)).toBe(true);
  return out.sort();
}

