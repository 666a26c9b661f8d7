/**
 * The one feature table the site is built from (core/features.ts, ADR 143): every plan key sold once,
 * on the plan that has it, under one name; the Plus slides sell only Plus rows.
 */
import { describe, expect, it } from "vitest";
import { SITE_FEATURES, siteFeaturesOf, slideFeatures, type SiteFeature } from "#core/features.ts";
import { EDITOR_LINK_TYPES, LINK_TYPES, LITE_LINK_TYPES } from "#core/link-types.ts";
import { FEATURE_KEYS, LITE_FEATURES, PLUS_ONLY_FEATURES } from "#core/plans.ts";

const rows: readonly SiteFeature[] = SITE_FEATURES;

describe("the site's feature table", () => {
  it("sells every plan feature key in exactly one row", () => {
    const sold = rows.flatMap((r) => r.keys);
    expect([...sold].sort()).toEqual([...FEATURE_KEYS].sort());
    expect(new Set(sold).size).toBe(sold.length);
  });

  it("has no two rows with one id or one name, and no name that only differs in case or plural", () => {
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const norm = (label: string) => label.toLowerCase().replace(/s\b/g, "");
    expect(new Set(rows.map((r) => norm(r.label))).size).toBe(rows.length);
    // The duplicates issue 33 found: lead magnet links beside lead magnets, the affiliate programme twice.
    expect(rows.filter((r) => /lead magnet/i.test(r.label))).toHaveLength(1);
    expect(rows.filter((r) => /affiliate|promote/i.test(r.label))).toHaveLength(1);
  });

  it("puts each row on the plan its keys belong to", () => {
    for (const r of rows) {
      const plan = r.keys.every((k) => (LITE_FEATURES as readonly string[]).includes(k)) ? "lite" : "plus";
      if (r.keys.length) expect(r.plan, r.id).toBe(plan);
      if (r.plan === "plus") for (const k of r.keys) expect(PLUS_ONLY_FEATURES as readonly string[], `${r.id}: ${k}`).toContain(k);
    }
    expect(siteFeaturesOf("lite").every((r) => r.plan === "lite")).toBe(true);
    expect(siteFeaturesOf("plus")).toHaveLength(rows.length);
  });

  it("sells only Plus rows on the landing page's Plus slides, and every slide has some", () => {
    for (const slide of ["design", "links", "grow"] as const) {
      const points = slideFeatures(slide);
      expect(points.length, slide).toBeGreaterThan(2);
      for (const p of points) expect(p.plan, `${slide}: ${p.id}`).toBe("plus");
    }
    // What Lite already has (button styles, colours) is not on them.
    const sold = (["design", "links", "grow"] as const).flatMap((s) => slideFeatures(s)).map((p) => p.label);
    expect(sold.some((l) => /button style|colour/i.test(l))).toBe(false);
  });

  it("offers in the editor every stored link type, Music and Social (ADR 211), Tip and Paid Download (ADR 235) included", () => {
    expect([...EDITOR_LINK_TYPES].sort()).toEqual([...LINK_TYPES].sort());
  });

  it("sells Music releases on Plus and players and Social buttons on every plan (ADR 211)", () => {
    const row = (id: string) => rows.find((r) => r.id === id)!;
    expect(row("music")).toMatchObject({ plan: "plus", keys: ["music"] });
    expect(row("players").plan).toBe("lite");
    expect(row("social-buttons").plan).toBe("lite");
    expect(LITE_LINK_TYPES).toContain("social");
    expect(LITE_LINK_TYPES).not.toContain("music");
  });
});
