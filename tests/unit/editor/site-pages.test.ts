/**
 * Canonical addresses of the marketing pages (ADR 143): an /en copy names the unprefixed page, and /en
 * names itself, never the site's root from another path.
 */
import { describe, expect, it } from "vitest";
import { canonicalPathOf, MARKETING_PATHS, SITE_PAGES } from "#editor/components/site/site-pages.ts";

describe("canonicalPathOf", () => {
  it("names the unprefixed page for an /en copy, and /en itself for /en", () => {
    expect(canonicalPathOf("/")).toBe("/");
    expect(canonicalPathOf("/en")).toBe("/en");
    expect(canonicalPathOf("/en/")).toBe("/en");
    expect(canonicalPathOf("/pricing")).toBe("/pricing");
    expect(canonicalPathOf("/en/pricing")).toBe("/pricing");
    expect(canonicalPathOf("/en/privacy/")).toBe("/privacy");
    expect(canonicalPathOf("/dashboard")).toBeNull();
  });

  it("never points a page other than the root at the root", () => {
    for (const path of MARKETING_PATHS) {
      const canonical = canonicalPathOf(path);
      expect(canonical, path).not.toBeNull();
      if (path !== "/") expect(canonical, path).not.toBe("/");
    }
    expect(Object.values(SITE_PAGES).map((p) => canonicalPathOf(p.path))).toEqual(Object.values(SITE_PAGES).map((p) => p.path));
  });
});
