/**
 * Brand marks (renderer/components/brand-icons/, one module per platform) are Simple Icons' path data, kept as constants so the
 * page renderer does not load the whole icon set: this checks every mark against the simple-icons
 * package, so upgrading the package shows which marks changed. LinkedIn left Simple Icons, so its
 * mark is Plinth's own.
 */
import { renderToStaticMarkup } from "react-dom/server";
import * as simpleIcons from "simple-icons";
import { describe, expect, it } from "vitest";
import { SOCIAL_PLATFORMS } from "#core/platforms.ts";
import { BRAND_ICONS } from "#renderer/components/brand-icons.ts";
import { BrandIcon } from "#renderer/components/icons.tsx";

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

  it("draws a mark from the path handed in, and an empty mark of the same size while the preview loads it", () => {
    const drawn = renderToStaticMarkup(<BrandIcon platform="github" path={BRAND_ICONS.github} />);
    expect(drawn).toContain(`d="${BRAND_ICONS.github}"`);
    const waiting = renderToStaticMarkup(<BrandIcon platform="github" path={undefined} />);
    expect(waiting).toBe('<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"></svg>');
    expect(drawn.replace(/<path[^>]*><\/path>/, "")).toBe(waiting);
  });
});
