/**
 * The History view's one-line summary of a version (core/history.ts, ADR 137).
 */
import { describe, expect, it } from "vitest";
import { versionSummary, versionTime, VERSION_SUMMARY_TEXTS } from "#core/history.ts";
import { link, list, snapshot, social } from "../renderer/fixtures.ts";

const a = link({ id: "a", title: "A", orderIndex: 0 });
const b = link({ id: "b", title: "B", orderIndex: 1 });
const c = link({ id: "c", title: "C", orderIndex: 2 });
const base = snapshot({}, [a, b], [social("github", 1)], [list("g", "Shop", 0)]);

describe("versionSummary", () => {
  it("names the first version and one whose predecessor is no longer kept", () => {
    expect(versionSummary(null, base)).toBe("First published version");
    expect(versionSummary("pruned", base)).toBe("Oldest version kept");
  });

  it("says when the content is the same (published again under another plan, or a rollback)", () => {
    expect(versionSummary(base, structuredClone(base))).toBe(VERSION_SUMMARY_TEXTS.same);
  });

  it("counts links added, removed, edited, hidden and shown again, and names the theme", () => {
    const after = snapshot({ selectedThemeName: "ocean-blue" }, [{ ...a, title: "A2" }, c, link({ id: "d", orderIndex: 3 })], base.socialLinks, base.lists);
    expect(versionSummary(base, after)).toBe("2 links added, 1 link removed, 1 link edited, theme changed");
    const hidden = snapshot({}, [{ ...a, isActive: false }, b], base.socialLinks, base.lists);
    expect(versionSummary(base, hidden)).toBe("1 link hidden");
    expect(versionSummary(hidden, base)).toBe("1 link shown again");
  });

  it("notices a reorder and a move between lists apart from edits", () => {
    expect(versionSummary(base, snapshot({}, [{ ...a, orderIndex: 5 }, b], base.socialLinks, base.lists))).toBe("Links reordered");
    expect(versionSummary(base, snapshot({}, [{ ...a, parentListId: "g" }, b], base.socialLinks, base.lists))).toBe("1 link moved to another list");
  });

  it("names lists, social icons and profile sections once each", () => {
    const after = snapshot(
      { displayName: "New", bio: "Other", longFormText: "About", seoTitle: "T", seoDescription: "D", customFontPairingName: "tech-mono" },
      [a, b],
      [social("github", 1, { url: "https://github.com/other" }), social("x", 2)],
      [list("g", "Shop now", 0), list("h", "More", 1)],
    );
    expect(versionSummary(base, after)).toBe("1 list added, 1 list renamed, 1 social icon added, 1 social icon changed and 5 more changes");
    const text = snapshot({ longFormText: "About", seoTitle: "T", seoDescription: "D" }, [a, b], base.socialLinks, base.lists);
    expect(versionSummary(base, text)).toBe("Long-form text changed, SEO settings changed");
  });

  it("says the long-form text was hidden or shown when only its switch moved", () => {
    const on = snapshot({ longFormText: "About" }, [a, b], base.socialLinks, base.lists);
    const off = snapshot({ longFormText: "About", longFormTextVisible: false }, [a, b], base.socialLinks, base.lists);
    expect(versionSummary(on, off)).toBe("Long-form text hidden");
    expect(versionSummary(off, on)).toBe("Long-form text shown");
  });
});

describe("versionTime", () => {
  it("writes a time the same way on every machine, in UTC", () => {
    expect(versionTime(new Date("2026-11-28T10:30:00Z"))).toBe("28 Nov 2026, 10:30 UTC");
  });
});
