/**
 * How a page draws what its version withholds (ADR 259), apart from core/plan-hides.ts, which decides
 * what is withheld: this file is part of the template's fingerprint (renderer/template-fingerprint.ts),
 * so a change here re-renders the pages, and a change to the Publish dialog's list does not.
 */
import type { PageLink, PageSnapshot } from "./model.ts";
import type { PlanHideKind, PlanItemKey } from "./plan-hides.ts";
import { APPEARANCE_DEFAULTS } from "./themes.ts";

/**
 * The snapshot a visitor is shown when the version withholds `keys` (ADR 259): each withheld item as
 * the Lite page shows it (core/visible-content.ts), the rest as published. A link, a scheduled link to
 * come or a list's links are not on the page; a main button is an ordinary link; a thumbnail is not
 * drawn; a social icon is not shown; long-form text is hidden; a premium theme is the Lite theme; a
 * font pairing is the theme's fonts; "Powered by Plinth" shows; the SEO title and description are not
 * used. Pure, and the snapshot is not changed.
 */
export function withholdItems(s: PageSnapshot, keys: readonly PlanItemKey[]): PageSnapshot {
  if (keys.length === 0) return s;
  const ids = (...kinds: PlanHideKind[]) => new Set(keys.filter((k) => kinds.includes(k.kind) && k.id).map((k) => k.id!));
  const has = (kind: PlanHideKind) => keys.some((k) => k.kind === kind);
  const [gone, lists, main, thumbs, social] = [ids("link", "later"), ids("list"), ids("main"), ids("thumbnail"), ids("social")];
  const links: PageLink[] = [];
  for (const l of s.links) {
    if (gone.has(l.id) || (l.parentListId !== null && lists.has(l.parentListId))) continue;
    // The Lite page has no main button: with one withheld, no link stands in for it.
    const plain = main.size > 0 && l.isMainButton;
    links.push(plain || thumbs.has(l.id) ? { ...l, ...(plain ? { isMainButton: false } : {}), ...(thumbs.has(l.id) ? { thumbnailUrl: null } : {}) } : l);
  }
  const p = s.profile;
  const profile = {
    ...p,
    ...(has("long_form_text") ? { longFormTextVisible: false } : {}),
    ...(has("theme") ? { selectedThemeName: APPEARANCE_DEFAULTS.theme } : {}),
    ...(has("font") ? { customFontPairingName: null } : {}),
    ...(has("branding") ? { removeBranding: false, hidePlatformBranding: false } : {}),
    ...(has("seo_title") ? { seoTitle: "" } : {}),
    ...(has("seo_description") ? { seoDescription: "" } : {}),
  };
  return {
    profile,
    links,
    lists: s.lists,
    socialLinks: s.socialLinks.map((l) => (social.has(l.id) ? { ...l, isVisible: false } : l)),
  };
}
