/**
 * page_versions stores a snapshot as arrays of values behind a format number (core/snapshot-codec.ts,
 * ADR 090). Decoding gives back exactly the snapshot that was encoded, versions stored in the
 * object form still read, and the frozen field lists cover the model.
 */
import { describe, expect, it } from "vitest";
import { PageLinkListSchema, PageLinkSchema, PageProfileSchema, PageSnapshotSchema, PageSocialLinkSchema } from "#core/model.ts";
import { decodeSnapshot, encodeSnapshot, FORMAT_1_FIELDS } from "#core/snapshot-codec.ts";
import { link, snapshot } from "../renderer/fixtures.ts";
import { randomPage } from "../renderer/random-pages.ts";

describe("the stored form of a snapshot", () => {
  it("decodes to exactly the snapshot encoded, over 1,000 generated pages and their schedules", () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const { s } = randomPage(seed);
      s.links.forEach((l, i) => {
        if (i % 3 === 0) l.scheduleStartTime = "2026-06-01T12:00:00.000Z";
        if (i % 4 === 1) l.scheduleEndTime = "2026-07-01T00:00:00+02:00";
        l.orderIndex = i * 7 - 3;
      });
      const text = encodeSnapshot(s);
      // Equal as JSON too: the same keys, in the same order, nothing undefined.
      if (JSON.stringify(decodeSnapshot(text)) !== JSON.stringify(s)) expect({ seed, decoded: decodeSnapshot(text) }).toEqual({ seed, decoded: s });
    }
  });

  it("is an array of values behind format 1, about half the text of the object form", () => {
    const s = snapshot({ displayName: "Ada" }, Array.from({ length: 20 }, (_, i) => link({ title: `Link ${i}`, url: `https://example.com/${i}` })));
    const text = encodeSnapshot(s);
    const stored = JSON.parse(text) as unknown[];
    expect(stored[0]).toBe(1);
    expect(stored).toHaveLength(5);
    expect((stored[1] as unknown[])[FORMAT_1_FIELDS.profile.indexOf("displayName")]).toBe("Ada");
    expect(text.length).toBeLessThan(JSON.stringify(s).length * 0.6);
  });

  it("reads a version stored in the object form as it is", () => {
    const s = snapshot({ bio: "Stored before the format" }, [link({ title: "Old" })]);
    expect(decodeSnapshot(JSON.stringify(s))).toEqual(s);
    expect(PageSnapshotSchema.parse(decodeSnapshot(JSON.stringify(s)))).toEqual(s);
  });

  it("names every field of the model, once, in format 1", () => {
    const cases = [
      [FORMAT_1_FIELDS.profile, PageProfileSchema],
      [FORMAT_1_FIELDS.link, PageLinkSchema],
      [FORMAT_1_FIELDS.list, PageLinkListSchema],
      [FORMAT_1_FIELDS.socialLink, PageSocialLinkSchema],
    ] as const;
    for (const [fields, schema] of cases) {
      expect(new Set(fields).size).toBe(fields.length);
      expect([...fields].sort()).toEqual(Object.keys(schema.shape).sort());
    }
  });

  it("gives the schema something to refuse for an unknown format, damaged rows and text that is not JSON", () => {
    const good = JSON.parse(encodeSnapshot(snapshot({}, [link()]))) as unknown[];
    const damaged = [
      [2, ...good.slice(1)],
      good.slice(0, 4),
      [1, "profile", good[2], good[3], good[4]],
      [1, good[1], [["too", "short"]], good[3], good[4]],
      [1, good[1], "links", good[3], good[4]],
      [1, (good[1] as unknown[]).slice(1), good[2], good[3], good[4]],
      [],
      "text",
      null,
    ];
    for (const d of damaged) expect(PageSnapshotSchema.safeParse(decodeSnapshot(JSON.stringify(d))).success, JSON.stringify(d).slice(0, 60)).toBe(false);
    expect(() => decodeSnapshot("[1, {")).toThrow(SyntaxError);
  });
});
