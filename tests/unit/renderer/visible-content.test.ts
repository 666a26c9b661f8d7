/**
 * What a page shows (core/visible-content.ts): the one rule the renderer, the preview and the
 * visitor API share.
 */
import { describe, expect, it } from "vitest";
import { visibleContentOf } from "#core/visible-content.ts";
import { link, list, LITE, NOW, PLUS, snapshot, social, TRIAL } from "./fixtures.ts";

describe("visibleContentOf", () => {
  it("orders main button, ungrouped links, then lists, and caps Lite at 7 links in that order", () => {
    const links = [
      link({ title: "g1", parentListId: "g", orderIndex: 0 }),
      link({ title: "g2", parentListId: "g", orderIndex: 1 }),
      ...Array.from({ length: 6 }, (_, i) => link({ title: `u${i}`, orderIndex: 10 + i })),
      link({ title: "main", isMainButton: true, orderIndex: 50 }),
    ];
    const s = snapshot({}, links, [], [list("g", "G", 0)]);
    const plus = visibleContentOf(s, PLUS, NOW);
    expect(plus.links.map((l) => l.title)).toEqual(["main", "u0", "u1", "u2", "u3", "u4", "u5", "g1", "g2"]);
    expect(plus.main?.title).toBe("main");
    const lite = visibleContentOf(s, LITE, NOW);
    expect(lite.main).toBeNull();
    // Under Lite the main button is an ordinary link in its place.
    expect(lite.links.map((l) => l.title)).toEqual(["u0", "u1", "u2", "u3", "u4", "u5", "main"]);
    expect(lite.groups).toEqual([]);
    const fewer = visibleContentOf(snapshot({}, links.slice(0, 7), [], [list("g", "G", 0)]), LITE, NOW);
    expect(fewer.links.map((l) => l.title)).toEqual(["u0", "u1", "u2", "u3", "u4", "g1", "g2"]);
    expect(fewer.groups.map((g) => g.links.map((l) => l.title))).toEqual([["g1", "g2"]]);
    expect(lite.links.every((l) => !l.isMainButton)).toBe(true);
  });

  it("keeps only one main button, the first in order", () => {
    const v = visibleContentOf(snapshot({}, [link({ title: "a", isMainButton: true, orderIndex: 2 }), link({ title: "b", isMainButton: true, orderIndex: 1 })]), PLUS, NOW);
    expect(v.links.map((l) => [l.title, l.isMainButton])).toEqual([["b", true], ["a", false]]);
  });

  it("caps Lite at 4 visible social links, hidden ones not counted", () => {
    const socials = [social("x", 1, { isVisible: false }), social("github", 2), social("tiktok", 3), social("twitch", 4), social("vimeo", 5), social("etsy", 6)];
    expect(visibleContentOf(snapshot({}, [], socials), LITE, NOW).socialLinks.map((s) => s.platform)).toEqual(["github", "tiktok", "twitch", "vimeo"]);
    expect(visibleContentOf(snapshot({}, [], socials), TRIAL, NOW).socialLinks).toHaveLength(5);
  });

  it("falls back to defaults for Plus-only appearance and SEO under Lite", () => {
    const s = snapshot({ selectedThemeName: "rose-gold", customFontPairingName: "tech-mono", seoTitle: "T", seoDescription: "D", longFormText: " L ", removeBranding: true });
    expect(visibleContentOf(s, LITE, NOW)).toMatchObject({ themeId: "minimalist-light", fontPairing: null, seoTitle: "", seoDescription: "", longFormText: "", showBranding: true });
    expect(visibleContentOf(s, PLUS, NOW)).toMatchObject({ themeId: "rose-gold", fontPairing: "tech-mono", seoTitle: "T", seoDescription: "D", longFormText: "L", showBranding: false });
    expect(visibleContentOf(snapshot({ selectedThemeName: "pastel-soft" }), LITE, NOW).themeId).toBe("pastel-soft");
  });

  it("shows no scheduled link under Lite, in its window or not, and keeps it in the snapshot (ADR 136)", () => {
    const running = link({ title: "running", scheduleStartTime: "2026-06-01T11:00:00.000Z", scheduleEndTime: "2026-06-01T13:00:00.000Z" });
    const plain = link({ title: "plain" });
    const s = snapshot({}, [running, plain]);
    expect(visibleContentOf(s, PLUS, NOW).links.map((l) => l.title)).toEqual(["running", "plain"]);
    expect(visibleContentOf(s, LITE, NOW).links.map((l) => l.title)).toEqual(["plain"]);
    expect(s.links).toHaveLength(2);
  });

  it("shows long-form text only while its switch is on", () => {
    expect(visibleContentOf(snapshot({ longFormText: "About me", longFormTextVisible: false }), PLUS, NOW).longFormText).toBe("");
    expect(visibleContentOf(snapshot({ longFormText: "About me", longFormTextVisible: true }), PLUS, NOW).longFormText).toBe("About me");
  });

  it("treats a schedule as [start, end)", () => {
    const at = (iso: string) => new Date(iso);
    const l = link({ scheduleStartTime: "2026-06-01T12:00:00.000Z", scheduleEndTime: "2026-06-01T13:00:00.000Z" });
    const shown = (t: string) => visibleContentOf(snapshot({}, [l]), PLUS, at(t)).links.length;
    expect([shown("2026-06-01T11:59:59.999Z"), shown("2026-06-01T12:00:00.000Z"), shown("2026-06-01T12:59:59.999Z"), shown("2026-06-01T13:00:00.000Z")]).toEqual([0, 1, 1, 0]);
  });
});
