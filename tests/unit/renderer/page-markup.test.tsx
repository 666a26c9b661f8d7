/**
 * The published page is assembled from templates (renderer/markup.ts, ADR 088); the live preview and
 * this test render the same components with react-dom/server. Over a corpus of pages that takes
 * every branch of the page components (every link type, picture style, position, plan, mode) with
 * hostile and empty text and URLs in every field, both give the same bytes, and the templates never
 * need React at render time.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PageLink, PagePlan, PageSnapshot } from "#core/model.ts";
import { LINK_TYPES } from "#core/link-types.ts";
import { PLATFORM_IDS } from "#core/platforms.ts";
import { FULLWIDTH_SUBTYPES, ICON_SUBTYPES, PICTURE_STYLES, SOCIAL_POSITIONS } from "#core/themes.ts";
import { Page } from "#renderer/components/Page.tsx";
import { markupStats, renderMarkup } from "#renderer/markup.ts";
import { LITE, link, list, NOW, ORIGIN, PLUS, render, snapshot, TRIAL } from "./fixtures.ts";

const TEXT = ["", " ", "Plain title", `"'&<>`, "<script>alert(1)</script>", "  padded  ", "é 漢字 🙂", "\u0000\u2028", "javascript:alert(1)", "x".repeat(300)];
const URLS = [
  "",
  "https://example.com/a?b=1&c='2'#d",
  "http://example.com",
  "mailto:a@example.com",
  "tel:+1 555 0100",
  "/media/ab/c.webp",
  "https://img.example/p.png",
  "javascript:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<b>",
  "//evil.example",
  'https://a";b.example/',
];
const TYPES = [...LINK_TYPES, "qr_code", "future_type"];

/** A small deterministic generator, so a failure names a page that can be rebuilt. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

function randomPage(seed: number): { s: PageSnapshot; plan: PagePlan; mode: "published" | "preview"; origin: string } {
  const r = rng(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const t = () => pick(TEXT);
  const lists = Array.from({ length: Math.floor(r() * 3) }, (_, i) => list(`g${i}`, t(), i));
  const links: PageLink[] = Array.from({ length: Math.floor(r() * 12) }, () =>
    link({
      linkType: pick(TYPES) as PageLink["linkType"],
      title: t(),
      url: pick(URLS),
      isMainButton: r() < 0.15,
      isActive: r() < 0.9,
      thumbnailUrl: r() < 0.3 ? pick(URLS) : null,
      parentListId: lists.length && r() < 0.4 ? pick(lists).id : null,
      data: r() < 0.5 ? {} : { text: t(), url: pick(URLS), message: t(), description: t(), name: t(), phone: t(), email: pick([...TEXT, "a@b.co"]), organization: t() },
    }),
  );
  const socials = Array.from({ length: Math.floor(r() * 7) }, (_, i) => ({ id: `s${i}`, platform: pick(PLATFORM_IDS), url: pick(URLS), displayOrder: i, isVisible: r() < 0.9 }));
  const s = snapshot(
    {
      username: pick(["alice", "bob_2", "x-y"]),
      displayName: t(),
      bio: t(),
      longFormText: t(),
      initialsText: t(),
      profilePictureUrl: r() < 0.2 ? null : pick(URLS),
      profilePictureStyle: pick(PICTURE_STYLES),
      profilePictureIconSubtype: pick(ICON_SUBTYPES),
      profilePictureFullwidthSubtype: pick(FULLWIDTH_SUBTYPES),
      socialLinksPosition: pick(SOCIAL_POSITIONS),
      qrCodeVisible: r() < 0.7,
      removeBranding: r() < 0.3,
      hidePlatformBranding: r() < 0.2,
    },
    links,
    socials,
    lists,
  );
  return { s, plan: pick([PLUS, LITE, TRIAL]), mode: r() < 0.2 ? "preview" : "published", origin: pick(["", ORIGIN]) };
}

describe("the page from templates", () => {
  it("is byte for byte what react-dom/server renders, over 1,500 generated pages", () => {
    const before = markupStats.fallbacks;
    for (let seed = 1; seed <= 1500; seed++) {
      const { s, plan, mode, origin } = randomPage(seed);
      const page = <Page snapshot={s} plan={plan} now={NOW} mode={mode} origin={origin} />;
      const expected = renderToStaticMarkup(page);
      const got = renderMarkup(page);
      if (got !== expected) expect({ seed, got }).toEqual({ seed, got: expected });
    }
    expect(markupStats.fallbacks).toBe(before);
  });

  it("is what the published document's body holds", () => {
    for (let seed = 2000; seed < 2050; seed++) {
      const { s, plan, mode } = randomPage(seed);
      const { html } = render(s, plan, mode);
      const body = renderToStaticMarkup(<Page snapshot={s} plan={plan} now={NOW} mode={mode} origin={ORIGIN} />);
      expect(html.slice(html.indexOf("<body>") + 6, html.lastIndexOf("</body>"))).toBe(body);
    }
  });

  it("takes every variant of every link type", () => {
    // Each type with and without a thumbnail, as main button or not, in a list or not, on Plus.
    const links = TYPES.flatMap((type, i) =>
      [false, true].flatMap((main) =>
        [null, "https://img.example/t.png"].map((thumbnailUrl) =>
          link({ linkType: type as PageLink["linkType"], isMainButton: main, thumbnailUrl, parentListId: i % 2 ? "g" : null, data: { message: "m", description: "d", name: "n", phone: "+1", email: "a@b.co" } }),
        ),
      ),
    );
    const page = <Page snapshot={snapshot({}, links, [], [list("g", "Group", 0)])} plan={PLUS} now={NOW} origin={ORIGIN} />;
    expect(renderMarkup(page)).toBe(renderToStaticMarkup(page));
  });
});
