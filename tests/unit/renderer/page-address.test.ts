/**
 * The page's address (renderer/page-address.ts, ADR 240, 244): the one rule behind the published
 * page's canonical, share and QR code address and every address the dashboard and the previews show;
 * and its readable form (core/domains.ts addressShown).
 */
import { describe, expect, it } from "vitest";
import { addressShown } from "#core/domains.ts";
import type { PagePlan } from "#core/model.ts";
import { pageAddress } from "#renderer/page-address.ts";

const NOW = new Date("2026-11-28T12:00:00Z");
const day = 86_400_000;
const plus: PagePlan = { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(NOW.getTime() + 30 * day).toISOString(), trialEndsAt: null };
const trial: PagePlan = { planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null, trialEndsAt: new Date(NOW.getTime() + day).toISOString() };
const lite: PagePlan = { planType: "lite", subscriptionStatus: null, currentPeriodEndDate: null, trialEndsAt: new Date(NOW.getTime() - day).toISOString() };

describe("pageAddress", () => {
  it("is the Plinth address without a verified domain", () => {
    expect(pageAddress("ada", "https://plinth.example", plus, NOW, null)).toBe("https://plinth.example/ada");
    expect(pageAddress("ada", "https://plinth.example", plus, NOW, undefined)).toBe("https://plinth.example/ada");
    // The pages' origin as configured, with or without its final slash.
    expect(pageAddress("ada", "https://pages.plinth.example/", lite, NOW, null)).toBe("https://pages.plinth.example/ada");
  });

  it("is the verified domain while the plan includes custom domains: Plus and the trial", () => {
    expect(pageAddress("ada", "https://plinth.example", plus, NOW, "links.ada-music.com")).toBe("https://links.ada-music.com/");
    expect(pageAddress("ada", "https://plinth.example", trial, NOW, "xn--bcher-links-thb.de")).toBe("https://xn--bcher-links-thb.de/");
  });

  it("goes back to the Plinth address when the plan ends, the domain kept", () => {
    expect(pageAddress("ada", "https://plinth.example", lite, NOW, "links.ada-music.com")).toBe("https://plinth.example/ada");
    // A cancelled Plus plan: the domain until the paid period ends, the Plinth address after it.
    const cancelled: PagePlan = { ...plus, subscriptionStatus: "canceled_plus" };
    expect(pageAddress("ada", "https://plinth.example", cancelled, NOW, "links.ada-music.com")).toBe("https://links.ada-music.com/");
    expect(pageAddress("ada", "https://plinth.example", cancelled, new Date(NOW.getTime() + 31 * day), "links.ada-music.com")).toBe("https://plinth.example/ada");
    // The trial, read after its end.
    expect(pageAddress("ada", "https://plinth.example", trial, new Date(NOW.getTime() + 2 * day), "links.ada-music.com")).toBe("https://plinth.example/ada");
  });
});

describe("addressShown", () => {
  it("drops the scheme and the final slash, and shows an international domain in Unicode", () => {
    expect(addressShown("https://links.ada-music.com/")).toBe("links.ada-music.com");
    expect(addressShown("https://xn--bcher-links-thb.de/")).toBe("bücher-links.de");
    expect(addressShown("https://plinth.example/ada")).toBe("plinth.example/ada");
    expect(addressShown("http://localhost:4321/ada")).toBe("localhost:4321/ada");
  });

  it("gives back what is not an address as it came", () => {
    expect(addressShown("")).toBe("");
    expect(addressShown("not an address")).toBe("not an address");
  });
});
