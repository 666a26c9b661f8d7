import { describe, expect, it } from "vitest";
import { hidePlusItems } from "#core/hide-plus-items.ts";
import { LIMITS } from "#core/limits.ts";
import { plusOnlyFeaturesUsed, publishGate } from "#core/publish-gate.ts";
import { link, list, LITE, NOW, snapshot, social } from "../renderer/fixtures.ts";

const HOUR = 3_600_000;
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const byId = (s: ReturnType<typeof snapshot>, id: string) => s.links.find((l) => l.id === id)!;

describe("hidePlusItems (Hide Plus items and publish)", () => {
  it("leaves a page without Plus items exactly as it was", () => {
    const s = snapshot({}, [link(), link({ linkType: "donation" })], [social("github", 1)]);
    expect(hidePlusItems(s, NOW)).toEqual({ snapshot: s, changes: [] });
  });

  it("hides Plus-only link types and resets main button and thumbnail, keeping everything else", () => {
    const magnet = link({ linkType: "lead_magnet", title: "Guide" });
    const card = link({ linkType: "vcf", title: "Card" });
    const main = link({ isMainButton: true, thumbnailUrl: "/media/t.webp", title: "Shop" });
    const plain = link({ title: "Blog" });
    const s = snapshot({}, [magnet, card, main, plain]);
    const { snapshot: out, changes } = hidePlusItems(s, NOW);
    expect(byId(out, magnet.id)).toEqual({ ...magnet, isActive: false });
    expect(byId(out, card.id)).toEqual({ ...card, isActive: false });
    expect(byId(out, main.id)).toEqual({ ...main, isMainButton: false, thumbnailUrl: null });
    expect(byId(out, plain.id)).toBe(plain);
    expect(changes.map((c) => c.feature)).toEqual(["lead_magnet", "vcf", "main_button", "thumbnails"]);
    expect(changes[0]!.text).toBe("“Guide” will be hidden");
  });

  it("keeps a scheduled link that shows now without its schedule, and hides one that is not showing now", () => {
    const running = link({ scheduleStartTime: at(-HOUR), scheduleEndTime: at(HOUR) });
    const future = link({ scheduleStartTime: at(HOUR) });
    const expired = link({ scheduleEndTime: at(-HOUR) });
    const { snapshot: out } = hidePlusItems(snapshot({}, [running, future, expired]), NOW);
    expect(byId(out, running.id)).toMatchObject({ isActive: true, scheduleStartTime: null, scheduleEndTime: null });
    expect(byId(out, future.id)).toMatchObject({ isActive: false, scheduleStartTime: future.scheduleStartTime });
    expect(byId(out, expired.id)).toMatchObject({ isActive: false, scheduleEndTime: expired.scheduleEndTime });
  });

  it("does not touch switched-off links, whatever they use", () => {
    const off = link({ linkType: "vcf", isMainButton: true, isActive: false });
    expect(hidePlusItems(snapshot({}, [off]), NOW).changes).toEqual([]);
  });

  it("hides links over the Lite limit from the end of the page, lists last", () => {
    const l1 = list("list1", "List", 0);
    const inList = link({ parentListId: "list1", orderIndex: 0 });
    const outside = Array.from({ length: LIMITS.LITE_MAX_LINKS }, () => link());
    const { snapshot: out, changes } = hidePlusItems(snapshot({}, [inList, ...outside], [], [l1]), NOW);
    expect(byId(out, inList.id).isActive).toBe(false);
    expect(out.links.filter((l) => l.isActive)).toHaveLength(LIMITS.LITE_MAX_LINKS);
    expect(changes).toEqual([{ feature: "unlimited_links", text: `“${inList.title}” will be hidden (over the 7-link limit)` }]);
  });

  it("says so when hiding Plus-only links already brings the page within the link limit", () => {
    const links = [link({ linkType: "vcf", title: "Card" }), ...Array.from({ length: LIMITS.LITE_MAX_LINKS }, () => link())];
    const { snapshot: out, changes } = hidePlusItems(snapshot({}, links), NOW);
    expect(out.links.filter((l) => l.isActive)).toHaveLength(LIMITS.LITE_MAX_LINKS);
    expect(changes).toEqual([
      { feature: "vcf", text: "“Card” will be hidden" },
      { feature: "unlimited_links", text: "Hiding the items above leaves 7 links, within the limit" },
    ]);
  });

  it("hides social icons over the Lite limit, keeping the first four", () => {
    const icons = (["github", "x", "youtube", "twitch", "vimeo"] as const).map((p, i) => social(p, i));
    const { snapshot: out, changes } = hidePlusItems(snapshot({}, [], icons), NOW);
    expect(out.socialLinks.map((l) => l.isVisible)).toEqual([true, true, true, true, false]);
    expect(changes).toEqual([{ feature: "unlimited_social_links", text: "The Vimeo icon will be hidden (over the 4-icon limit)" }]);
  });

  it("resets branding and fonts and clears long-form text", () => {
    const s = snapshot({ removeBranding: true, hidePlatformBranding: true, customFontPairingName: "elegant-serif", longFormText: "About" });
    const { snapshot: out } = hidePlusItems(s, NOW);
    expect(out.profile).toEqual({ ...s.profile, removeBranding: false, hidePlatformBranding: false, customFontPairingName: null, longFormText: "" });
  });

  it("always leaves a page the gate lets a Lite owner publish, with one change per blocker at least", () => {
    const s = snapshot(
      { removeBranding: true, customFontPairingName: "elegant-serif", longFormText: "About" },
      [
        link({ isMainButton: true, thumbnailUrl: "/t.webp" }),
        link({ linkType: "lead_magnet" }),
        link({ linkType: "promote_plinth" }),
        link({ scheduleStartTime: at(HOUR) }),
        ...Array.from({ length: 8 }, () => link()),
      ],
      (["github", "x", "youtube", "twitch", "vimeo", "reddit"] as const).map((p, i) => social(p, i)),
    );
    const blockers = plusOnlyFeaturesUsed(s);
    const { snapshot: out, changes } = hidePlusItems(s, NOW);
    expect(publishGate(out, LITE, NOW)).toEqual({ ok: true });
    expect(new Set(changes.map((c) => c.feature))).toEqual(new Set(blockers));
  });
});
