import { describe, expect, it } from "vitest";
import { publishGate, plusOnlyFeaturesUsed } from "#core/publish-gate.ts";
import { linkPlusFeatures, profilePlusFeatures } from "#core/plus-marks.ts";
import { planHiddenItems } from "#core/plan-hides.ts";
import { link, LITE, NOW, PLUS, snapshot, social } from "../renderer/fixtures.ts";

const TRIAL = { ...LITE, trialEndsAt: new Date(NOW.getTime() + 86_400_000).toISOString() };
const ENDED_TRIAL = { ...LITE, trialEndsAt: new Date(NOW.getTime() - 1).toISOString() };
const blocked = (s: ReturnType<typeof snapshot>, plan = ENDED_TRIAL) => {
  const g = publishGate(s, plan, NOW);
  return g.ok ? [] : g.features;
};

describe("canPublish (docs/product.md section 5, Publishing)", () => {
  it("lets a Lite page with only Lite content publish", () => {
    const s = snapshot({}, [link(), link({ linkType: "label", url: "#" }), link({ linkType: "donation" })], [social("github", 1)]);
    expect(publishGate(s, ENDED_TRIAL, NOW)).toEqual({ ok: true });
  });

  it.each([
    ["a main button", { isMainButton: true }, "main_button"],
    ["a scheduled start", { scheduleStartTime: "2026-07-01T00:00:00Z" }, "scheduling"],
    ["a scheduled end", { scheduleEndTime: "2026-07-01T00:00:00Z" }, "scheduling"],
    ["a lead magnet", { linkType: "lead_magnet" as const }, "lead_magnet"],
    ["a contact card", { linkType: "vcf" as const }, "vcf"],
  ])("blocks a Lite owner without trial whose page has %s", (_what, over, feature) => {
    expect(blocked(snapshot({}, [link(over)]))).toContain(feature);
  });

  it("blocks a Music release on Lite and names it in the Publish dialog's list; a Social button and a player publish (ADR 211)", () => {
    const music = link({ linkType: "music", title: "First album", data: { services: '[{"service":"spotify","url":"https://open.spotify.com/album/x"}]' } });
    expect(blocked(snapshot({}, [music]))).toEqual(["music"]);
    expect(linkPlusFeatures(music)).toEqual(["music"]);
    expect(planHiddenItems(snapshot({}, [music]), NOW)).toEqual([{ feature: "music", kind: "link", id: music.id, text: "“First album” will be hidden (Music links need Plus)" }]);
    const lite = [link({ linkType: "social", data: { platform: "x", handle: "a" } }), link({ url: "https://youtu.be/dQw4w9WgXcQ", data: { player: "on" } })];
    expect(publishGate(snapshot({}, lite), ENDED_TRIAL, NOW)).toEqual({ ok: true });
    expect(publishGate(snapshot({}, [music]), TRIAL, NOW)).toEqual({ ok: true });
  });

  it.each([
    ["remove_branding", { removeBranding: true }, "remove_branding"],
    ["a custom font pairing", { customFontPairingName: "elegant-serif" as const }, "custom_fonts"],
    ["long-form text", { longFormText: "About me" }, "long_form_text"],
  ])("blocks a Lite owner without trial whose profile has %s", (_what, over, feature) => {
    expect(blocked(snapshot(over))).toContain(feature);
  });

  it("does not count blank long-form text, nor text whose switch is off", () => {
    expect(blocked(snapshot({ longFormText: "  \n " }))).not.toContain("long_form_text");
    expect(blocked(snapshot({ longFormText: "About me", longFormTextVisible: false }))).toEqual([]);
  });

  // ADR 136: the gate refuses whatever the Lite page would hide, so the Publish dialog lists it.
  it.each([
    ["a premium theme", { selectedThemeName: "ocean-blue" as const }, "premium_themes"],
    ["an SEO title", { seoTitle: "My page" }, "seo_settings"],
    ["an SEO description", { seoDescription: "All I make" }, "seo_settings"],
  ])("blocks a Lite owner without trial whose profile has %s", (_what, over, feature) => {
    expect(blocked(snapshot(over))).toEqual([feature]);
  });

  it("does not count a scheduled link whose window is over: no page shows it again", () => {
    expect(blocked(snapshot({}, [link({ scheduleEndTime: "2026-05-01T00:00:00Z" })]))).toEqual([]);
  });

  it("lets the same page publish during a trial and on paid Plus", () => {
    const s = snapshot({ removeBranding: true, longFormText: "x" }, [link({ isMainButton: true, linkType: "vcf" })]);
    expect(publishGate(s, TRIAL, NOW)).toEqual({ ok: true });
    expect(publishGate(s, PLUS, NOW)).toEqual({ ok: true });
    expect(publishGate(s, ENDED_TRIAL, NOW).ok).toBe(false);
  });

  it("lists every Plus-only feature in use, once each", () => {
    const s = snapshot({ removeBranding: true }, [link({ isMainButton: true }), link({ isMainButton: true, linkType: "vcf" })]);
    const features = plusOnlyFeaturesUsed(s, NOW);
    expect(new Set(features).size).toBe(features.length);
    expect(features).toEqual(expect.arrayContaining(["main_button", "vcf", "remove_branding"]));
  });
});

describe("per-item Plus features (the editor's marks) and the gate agree", () => {
  it("counts a switched-off link's Plus features for its mark but not for the gate", () => {
    const off = link({ linkType: "lead_magnet", isActive: false, isMainButton: true });
    expect(linkPlusFeatures(off)).toEqual(["lead_magnet", "main_button"]);
    expect(publishGate(snapshot({}, [off]), ENDED_TRIAL, NOW)).toEqual({ ok: true });
  });

  it("does not count switched-off links toward the 7-link limit", () => {
    const links = Array.from({ length: 9 }, (_, i) => link({ isActive: i < 7 }));
    expect(blocked(snapshot({}, links))).not.toContain("unlimited_links");
    expect(blocked(snapshot({}, [...links, link()]))).toContain("unlimited_links");
  });

  it("blocks exactly the marks of the shown links and the profile, plus the count limits", () => {
    const links = [
      link({ isMainButton: true, thumbnailUrl: "/media/t.webp" }),
      link({ linkType: "vcf" }),
      link({ scheduleEndTime: "2026-07-01T00:00:00Z" }),
      link({ linkType: "lead_magnet", isActive: false }),
      link(),
    ];
    const s = snapshot({ hidePlatformBranding: true, customFontPairingName: "elegant-serif" }, links);
    const marked = new Set([...links.filter((l) => l.isActive).flatMap(linkPlusFeatures), ...profilePlusFeatures(s.profile)]);
    expect(new Set(blocked(s))).toEqual(marked);
    expect(marked).not.toContain("lead_magnet");
  });
});
