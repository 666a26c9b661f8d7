import { describe, expect, it } from "vitest";
import { publishGate, plusOnlyFeaturesUsed } from "#core/publish-gate.ts";
import { link, LITE, NOW, PLUS, snapshot, social } from "../renderer/fixtures.ts";

const TRIAL = { ...LITE, trialEndsAt: new Date(NOW.getTime() + 86_400_000).toISOString() };
const ENDED_TRIAL = { ...LITE, trialEndsAt: new Date(NOW.getTime() - 1).toISOString() };
const blocked = (s: ReturnType<typeof snapshot>, plan = ENDED_TRIAL) => {
  const g = publishGate(s, plan, NOW);
  return g.ok ? [] : g.features;
};

describe("canPublish (spec section 5, Publishing)", () => {
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

  it.each([
    ["remove_branding", { removeBranding: true }, "remove_branding"],
    ["a custom font pairing", { customFontPairingName: "elegant-serif" as const }, "custom_fonts"],
    ["long-form text", { longFormText: "About me" }, "long_form_text"],
  ])("blocks a Lite owner without trial whose profile has %s", (_what, over, feature) => {
    expect(blocked(snapshot(over))).toContain(feature);
  });

  it("does not count blank long-form text", () => {
    expect(blocked(snapshot({ longFormText: "  \n " }))).not.toContain("long_form_text");
  });

  it("lets the same page publish during a trial and on paid Plus", () => {
    const s = snapshot({ removeBranding: true, longFormText: "x" }, [link({ isMainButton: true, linkType: "vcf" })]);
    expect(publishGate(s, TRIAL, NOW)).toEqual({ ok: true });
    expect(publishGate(s, PLUS, NOW)).toEqual({ ok: true });
    expect(publishGate(s, ENDED_TRIAL, NOW).ok).toBe(false);
  });

  it("lists every Plus-only feature in use, once each", () => {
    const s = snapshot({ removeBranding: true }, [link({ isMainButton: true }), link({ isMainButton: true, linkType: "vcf" })]);
    const features = plusOnlyFeaturesUsed(s);
    expect(new Set(features).size).toBe(features.length);
    expect(features).toEqual(expect.arrayContaining(["main_button", "vcf", "remove_branding"]));
  });
});
