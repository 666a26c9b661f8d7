/**
 * What a render of the last published version under Plus withholds (core/plan-hides.ts withheldItems
 * and withholdItems, ADR 259): of the items the plan hid, those the owner removed or changed in the
 * draft since, each drawn as the Lite page draws it, and nothing else. Checked over generated pages
 * against the HTML: the page with everything withheld shown differs from the Plus page by exactly the
 * withheld items, and from the Lite page by exactly the rest.
 */
import { describe, expect, it } from "vitest";
import type { PageSnapshot } from "#core/model.ts";
import { planHiddenItems, withheldItems, type PlanHiddenItem } from "#core/plan-hides.ts";
import { withholdItems } from "#core/withhold-items.ts";
import { FONT_PAIRING_IDS, THEME_IDS } from "#core/themes.ts";
import { rng } from "#tests/support/rng.ts";
import { link, LITE, NOW, PLUS, render, snapshot } from "../renderer/fixtures.ts";
import { itemKey, planPage, seenDifference } from "./plan-pages.ts";

const SEEDS = 150;

/**
 * A generated page as the API keeps one: at most one main button (makeMainButton clears the others).
 * The generator sets the flag on several links; the first one keeps it.
 */
function publishedPage(seed: number): PageSnapshot {
  const s = planPage(seed);
  let main = false;
  const links = s.links.map((l) => {
    const keep = l.isMainButton && !main;
    if (keep) main = true;
    return keep === l.isMainButton ? l : { ...l, isMainButton: false };
  });
  return { ...s, links };
}

/** A copy of `s` where the owner removed or changed `item` (each way the dashboard can). */
function changeItem(s: PageSnapshot, item: PlanHiddenItem, pick: () => number): PageSnapshot {
  const remove = pick() < 0.5;
  const other = <T,>(xs: readonly T[], than: T) => xs.filter((x) => x !== than)[Math.floor(pick() * (xs.length - 1))]!;
  const p = s.profile;
  switch (item.kind) {
    case "link":
    case "later":
    case "main":
    case "thumbnail":
      return { ...s, links: remove ? s.links.filter((l) => l.id !== item.id) : s.links.map((l) => (l.id === item.id ? { ...l, title: `${l.title} (edited)` } : l)) };
    case "list":
      return { ...s, lists: remove ? s.lists.filter((l) => l.id !== item.id) : s.lists.map((l) => (l.id === item.id ? { ...l, title: `${l.title} (edited)` } : l)) };
    case "social":
      return { ...s, socialLinks: remove ? s.socialLinks.filter((l) => l.id !== item.id) : s.socialLinks.map((l) => (l.id === item.id ? { ...l, url: `${l.url}/edited` } : l)) };
    case "long_form_text":
      return { ...s, profile: remove ? { ...p, longFormTextVisible: false } : { ...p, longFormText: `${p.longFormText} More.` } };
    case "theme":
      return { ...s, profile: { ...p, selectedThemeName: other(THEME_IDS, p.selectedThemeName) } };
    case "font":
      return { ...s, profile: { ...p, customFontPairingName: remove ? null : other(FONT_PAIRING_IDS, p.customFontPairingName!) } };
    case "branding":
      return { ...s, profile: { ...p, removeBranding: false, hidePlatformBranding: false } };
    case "seo_title":
      return { ...s, profile: { ...p, seoTitle: remove ? "" : `${p.seoTitle} more` } };
    case "seo_description":
      return { ...s, profile: { ...p, seoDescription: remove ? "" : `${p.seoDescription} more` } };
  }
}

/** A change the owner makes to nothing the plan hid: the draft's bio, a link the Lite page shows. */
function unrelatedChange(s: PageSnapshot, hidden: PlanHiddenItem[]): PageSnapshot {
  const touched = new Set(hidden.map((i) => i.id));
  return { ...s, profile: { ...s.profile, bio: `${s.profile.bio} edited` }, links: s.links.map((l) => (touched.has(l.id) ? l : { ...l, title: `${l.title}!` })) };
}

describe("withheldItems and withholdItems over generated pages", () => {
  it("withhold exactly what the owner changed (and a list's links with it), each drawn as on the Lite page, and bring back the rest", () => {
    const kinds = new Set<string>();
    let withheldCount = 0;
    let backCount = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const published = publishedPage(seed);
      const hidden = planHiddenItems(published, NOW);
      const label = `seed ${seed}`;
      // Changes to what the plan did not hide withhold nothing.
      expect(withheldItems(published, unrelatedChange(published, hidden), NOW), label).toEqual([]);
      if (hidden.length === 0) continue;

      const pick = rng(seed * 7919);
      let draft = unrelatedChange(published, hidden);
      const changed: PlanHiddenItem[] = [];
      for (const item of hidden) {
        if (pick() >= 0.4) continue;
        draft = changeItem(draft, item, pick);
        changed.push(item);
      }
      const keys = withheldItems(published, draft, NOW);
      const named = keys.map(itemKey).sort();
      const hiddenKeys = hidden.map(itemKey);
      // Every changed item is withheld; whatever else is, is about a link changed for another item
      // (its thumbnail and its place as the main button), or a list's or its links'.
      for (const c of changed) expect(named, label).toContain(itemKey(c));
      for (const k of keys) {
        expect(hiddenKeys, label).toContain(itemKey(k));
        const why = changed.some((c) => itemKey(c) === itemKey(k) || (c.id !== undefined && c.id === k.id)) || k.kind === "list" || published.links.find((l) => l.id === k.id)?.parentListId;
        expect(why, `${label}: ${itemKey(k)} withheld unchanged`).toBeTruthy();
      }
      // Under the same items, the same answer: withheldItems reads the draft only for the items.
      expect(withheldItems(published, published, NOW), label).toEqual([]);

      const shown = withholdItems(published, keys);
      const back = hiddenKeys.filter((k) => !named.includes(k)).sort();
      const plusHtml = (at: Date) => render(published, PLUS, "published", at).html;
      const shownHtml = (at: Date) => render(shown, PLUS, "published", at).html;
      const liteHtml = (at: Date) => render(published, LITE, "published", at).html;
      // Against the Plus page: a visitor misses exactly the withheld items, each drawn as on the Lite
      // page. (Contact cards' dialogs are numbered in page order: a card withheld renumbers the next.
      // seenDifference reads a scheduled link to come on the second page as a fault: the links to come
      // that are back, which the next comparison checks, are left out of both pages here.)
      const unnumbered = (html: string) => html.replace(/d-vcf-\d+/g, "d-vcf-n");
      const laterBack = hidden.filter((i) => i.kind === "later" && !named.includes(itemKey(i)));
      const fromPlus = (plan: typeof PLUS, at: Date) => unnumbered(render(withholdItems(plan === PLUS ? published : shown, laterBack), PLUS, "published", at).html);
      const [plusNow, withheldNow] = [fromPlus(PLUS, NOW), fromPlus(LITE, NOW)];
      const [shownNow, liteNow] = [shownHtml(NOW), liteHtml(NOW)];
      expect(plusNow, label).toBe(unnumbered(plusHtml(NOW)));
      expect(withheldNow, label).toBe(unnumbered(shownNow));
      expect(seenDifference(published, NOW, plusNow, withheldNow, fromPlus, label), label).toEqual(named);
      // Against the Lite page: exactly the rest is back.
      const fromLite = (plan: typeof PLUS, at: Date) => (plan === PLUS ? shownHtml(at) : liteHtml(at));
      expect(seenDifference(published, NOW, shownNow, liteNow, fromLite, label), label).toEqual(back);
      // What the Lite rules would take off the page shown is what came back (the dashboard's "back").
      expect(planHiddenItems(shown, NOW).map(itemKey).sort(), label).toEqual(back);
      // Under Lite the page shown is the Lite page.
      expect(render(shown, LITE, "published", NOW).html, label).toBe(liteNow);
      for (const k of keys) kinds.add(k.kind);
      withheldCount += keys.length;
      backCount += back.length;
    }
    expect(withheldCount).toBeGreaterThan(100);
    expect(backCount).toBeGreaterThan(100);
    // The seeds withhold every kind of item.
    expect([...kinds].sort()).toEqual(["branding", "font", "later", "link", "list", "long_form_text", "main", "seo_description", "seo_title", "social", "theme", "thumbnail"]);
  });
});

describe("withheldItems", () => {
  it("compares rows by their fields whatever order the keys were written in; a new place in the order is no change, a new title is", () => {
    const card = link({ id: "card", title: "Card", linkType: "vcf", url: "#", data: { name: "Ada", email: "a@example.com" } });
    const s = snapshot({}, [card]);
    const reordered = { ...s, links: [{ ...card, data: { email: "a@example.com", name: "Ada" } }] };
    expect(withheldItems(s, reordered, NOW)).toEqual([]);
    expect(withheldItems(s, { ...s, links: [{ ...card, orderIndex: 3 }] }, NOW)).toEqual([]);
    expect(withheldItems(s, { ...s, links: [{ ...card, orderIndex: 3, title: "My card" }] }, NOW)).toEqual([{ kind: "link", id: "card" }]);
    expect(withholdItems(s, [])).toBe(s);
  });
});
