/**
 * Brand marks (renderer/components/brand-icons/, one module per platform) are Simple Icons' path data, kept as constants so the
 * page renderer does not load the whole icon set: this checks every mark against the simple-icons
 * package, so upgrading the package shows which marks changed. LinkedIn left Simple Icons, so its
 * mark is Plinth's own.
 */
import * as simpleIcons from "simple-icons";
import { describe, expect, it } from "vitest";
import { SOCIAL_PLATFORMS } from "#core/platforms.ts";
import { BRAND_ICONS } from "#renderer/components/brand-icons.ts";

const bySlug = new Map(Object.values(simpleIcons).map((icon) => [icon.slug, icon.path]));

describe("brand marks", () => {
  it("are the simple-icons package's path data for every platform it carries", () => {
    for (const p of SOCIAL_PLATFORMS) {
      if (p.id === "linkedin") continue;
      const path = bySlug.get(p.id);
      expect(path, p.id).toBeDefined();
      expect(BRAND_ICONS[p.id], p.id).toBe(path);
    }
  });

  it("draws LinkedIn itself, since the package no longer carries it", () => {
    expect(bySlug.has("linkedin")).toBe(false);
    expect(BRAND_ICONS.linkedin).toMatch(/^M/);
  });
});
