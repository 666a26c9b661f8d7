/**
 * What the Lite rules take off a page (core/plan-hides.ts, ADR 136): the Publish dialog's list names
 * exactly what a visitor stops seeing, item by item, and nothing else changes; the gate refuses
 * exactly those features. Checked against the HTML of the page rendered with Plus and under Lite
 * from the same snapshot, over generated pages (tests/api/hide-plus.test.ts does the same for some
 * of them through the API, the Lite page being the one "Hide Plus items and publish" wrote).
 */
import { describe, expect, it } from "vitest";
import { planHiddenItems } from "#core/plan-hides.ts";
import { publishGate } from "#core/publish-gate.ts";
import { link, list, LITE, NOW, PLUS, render, snapshot, social } from "../renderer/fixtures.ts";
import { itemKey as key, planPage, seenDifference } from "./plan-pages.ts";

const HOUR = 3_600_000;
const SEEDS = 400;

describe("planHiddenItems over generated pages", () => {
  it("lists exactly what a visitor stops seeing between the page rendered with Plus and under Lite, once each, and the gate refuses exactly its features", () => {
    const kinds = new Set<string>();
    let listed = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const s = planPage(seed);
      const items = planHiddenItems(s, NOW);
      const keys = items.map(key);
      expect(new Set(keys).size, `seed ${seed}: an item listed twice`).toBe(keys.length);
      const html = (plan: typeof PLUS, at: Date) => render(s, plan, "published", at).html;
      expect([...keys].sort().join(" "), `seed ${seed}`).toEqual(seenDifference(s, NOW, html(PLUS, NOW), html(LITE, NOW), html, `seed ${seed}`).join(" "));
      const gate = publishGate(s, LITE, NOW);
      expect(gate.ok ? [] : [...gate.features].sort(), `seed ${seed}`).toEqual([...new Set(items.map((i) => i.feature))].sort());
      expect(publishGate(s, PLUS, NOW)).toEqual({ ok: true });
      for (const i of items) expect(i.text, `seed ${seed}`).not.toMatch(/^Hiding the items above/);
      for (const i of items) kinds.add(i.kind);
      listed += items.length;
    }
    // The generator reaches every kind of item.
    expect(listed).toBeGreaterThan(SEEDS);
    expect([...kinds].sort()).toEqual(["branding", "font", "later", "link", "list", "long_form_text", "main", "seo_description", "seo_title", "social", "theme", "thumbnail"]);
  });
});

describe("planHiddenItems", () => {
  it("names each item as the dialog shows it, in page order", () => {
    const g = list("g", "Shop", 0);
    const s = snapshot(
      { selectedThemeName: "ocean-blue", customFontPairingName: "elegant-serif", removeBranding: true, longFormText: "About me", seoTitle: "T", seoDescription: "D" },
      [
        link({ id: "blog", title: "Blog", orderIndex: 0, thumbnailUrl: "/media/t.webp" }),
        link({ id: "shop", title: "Shop", orderIndex: 1, isMainButton: true }),
        link({ id: "card", title: "Card", orderIndex: 2, linkType: "vcf" }),
        link({ id: "sale", title: "Sale", orderIndex: 3, scheduleStartTime: new Date(NOW.getTime() - HOUR).toISOString(), scheduleEndTime: new Date(NOW.getTime() + HOUR).toISOString() }),
        link({ id: "soon", title: "Soon", orderIndex: 4, scheduleStartTime: new Date(NOW.getTime() + HOUR).toISOString() }),
        link({ id: "over", title: "Over", orderIndex: 5, scheduleEndTime: new Date(NOW.getTime() - HOUR).toISOString() }),
        link({ id: "guide", title: "Guide", orderIndex: 0, linkType: "lead_magnet", parentListId: "g" }),
      ],
      [social("github", 1), social("x", 2), social("youtube", 3), social("twitch", 4), social("vimeo", 5)],
      [g],
    );
    expect(planHiddenItems(s, NOW).map((i) => [i.feature, i.text])).toEqual([
      ["vcf", "“Card” will be hidden (Contact Card links need Plus)"],
      ["scheduling", "“Sale” will be hidden (scheduled links need Plus)"],
      ["lead_magnet", "“Guide” will be hidden (Lead Magnet links need Plus)"],
      ["thumbnails", "“Blog” will show without its thumbnail"],
      ["main_button", "“Shop” will show as an ordinary link, not the main button"],
      ["lead_magnet", "The list “Shop” will be hidden (none of its links show)"],
      ["scheduling", "“Soon” will not appear at its scheduled time"],
      ["unlimited_social_links", "The Vimeo icon will be hidden (over the 4-icon limit)"],
      ["long_form_text", "Your long-form text will be hidden"],
      ["premium_themes", "Your theme, Ocean Blue, will show as Minimalist Light"],
      ["custom_fonts", "Your font pairing will show as the theme's fonts"],
      ["remove_branding", "“Powered by Plinth” will show at the foot of your page"],
      ["seo_settings", "Your SEO title will not be used (search results show your name)"],
      ["seo_settings", "Your meta description will not be used (search results show your bio)"],
    ]);
  });

  it("lists a thumbnail or the main button only where the page draws them: no thumbnail on a label, a text link, a Social button or a player, and a plain main button first on the page stays first", () => {
    const thumbnailUrl = "/media/ab/t.webp";
    const player = { title: "Video", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", data: { player: "on" }, isMainButton: true, thumbnailUrl };
    const others = [
      link({ title: "Label", linkType: "label", url: "#", thumbnailUrl, orderIndex: 1 }),
      link({ title: "Text", linkType: "text_link", thumbnailUrl, orderIndex: 2 }),
      link({ title: "Social", linkType: "social", url: "https://github.com/ada", data: { platform: "github" }, thumbnailUrl, orderIndex: 3 }),
    ];
    const first = snapshot({}, [link({ ...player, orderIndex: 0 }), ...others]);
    expect(planHiddenItems(first, NOW)).toEqual([]);
    expect(publishGate(first, LITE, NOW)).toEqual({ ok: true });
    const last = snapshot({}, [link({ ...player, id: "video", orderIndex: 9 }), ...others]);
    expect(planHiddenItems(last, NOW).map((i) => [i.kind, i.text])).toEqual([["main", "“Video” will show in its own place, not first as the main button"]]);
  });

  it("counts the link limit after the links Lite hides anyway: nothing is over it, and no line says so", () => {
    const links = [...Array.from({ length: 7 }, (_, i) => link({ title: `L${i}`, orderIndex: i })), link({ title: "Card", linkType: "vcf", orderIndex: 9 })];
    const items = planHiddenItems(snapshot({}, links), NOW);
    expect(items.map((i) => i.text)).toEqual(["“Card” will be hidden (Contact Card links need Plus)"]);
    expect(publishGate(snapshot({}, links), LITE, NOW)).toEqual({ ok: false, features: ["vcf"] });
  });

  it("hides the links over the limit from the end of the Lite page, the main button back in its place", () => {
    const links = Array.from({ length: 9 }, (_, i) => link({ title: `L${i}`, orderIndex: i, isMainButton: i === 8 }));
    expect(planHiddenItems(snapshot({}, links), NOW).map((i) => i.text)).toEqual(["“L7” will be hidden (over the 7-link limit)", "“L8” will be hidden (over the 7-link limit)"]);
  });

  it("lists nothing for a page Lite shows in full, nor for switched-off items and hidden long-form text", () => {
    const s = snapshot(
      { selectedThemeName: "pastel-soft", longFormText: "Kept, but switched off", longFormTextVisible: false, seoTitle: "  " },
      [link({ isActive: false, linkType: "vcf", isMainButton: true }), link({ linkType: "donation" }), link({ scheduleEndTime: new Date(NOW.getTime() - HOUR).toISOString() })],
      [social("github", 1, { isVisible: false }), social("x", 2)],
    );
    expect(planHiddenItems(s, NOW)).toEqual([]);
    expect(publishGate(s, LITE, NOW)).toEqual({ ok: true });
  });

  it("lists a premium theme only where a visitor would see it change: not when the owner's own colours replace all of its own", () => {
    const own = { customPageBackgroundColor: "#fde68a", customButtonBackgroundColor: "#2a2a2a", customButtonBorderColor: "#0ea5e9" };
    const covered = snapshot({ selectedThemeName: "ocean-blue", ...own });
    expect(render(covered, PLUS).html).toBe(render(covered, LITE).html);
    expect(planHiddenItems(covered, NOW)).toEqual([]);
    expect(publishGate(covered, LITE, NOW)).toEqual({ ok: true });
    // One colour of the theme's left to show (its button border): the theme is listed.
    const shows = snapshot({ selectedThemeName: "ocean-blue", ...own, customButtonBorderColor: null, customButtonBackgroundColor: null });
    expect(planHiddenItems(shows, NOW).map((i) => i.kind)).toEqual(["theme"]);
  });
});
