/**
 * The published document's body is what react-dom/server renders for the page components, as the
 * live preview renders them. Over a corpus of pages that takes every branch of the page components
 * (every link type, picture style, position, plan, mode) with hostile and empty text and URLs in
 * every field, both give the same bytes, when the components get only the brand marks of the
 * page's own platforms, which is all the preview loads (editor/app/components/brand-icons.ts).
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PageLink, PageSnapshot } from "#core/model.ts";
import { BRAND_ICONS, type BrandIconPaths } from "#renderer/components/brand-icons.ts";
import { Page } from "#renderer/components/Page.tsx";
import { longFormBlocks } from "#renderer/markdown.ts";
import { link, list, NOW, ORIGIN, PLUS, render, snapshot } from "./fixtures.ts";
import { randomPage, TYPES } from "./random-pages.ts";

const bodyOf = (html: string) => html.slice(html.indexOf("<body>") + 6, html.lastIndexOf("</body>"));
/** The marks of the page's own platforms, hidden ones included, as the preview loads them. */
const marksOf = (s: PageSnapshot): BrandIconPaths => Object.fromEntries(s.socialLinks.map((l) => [l.platform, BRAND_ICONS[l.platform]]));

describe("the published page's body", () => {
  it("is byte for byte what react-dom/server renders for the page components, over 1,500 generated pages", async () => {
    for (let seed = 1; seed <= 1500; seed++) {
      // A minute of rendering in one go would starve the test runner's own messages to its worker.
      if (seed % 50 === 0) await new Promise((r) => setImmediate(r));
      const { s, plan, mode } = randomPage(seed);
      const expected = renderToStaticMarkup(<Page snapshot={s} plan={plan} now={NOW} mode={mode} origin={ORIGIN} longForm={longFormBlocks(s.profile.longFormText.trim())} icons={marksOf(s)} />);
      const got = bodyOf(render(s, plan, mode).html);
      if (got !== expected) expect({ seed, got }).toEqual({ seed, got: expected });
    }
    // 3,000 renders (and long-form parses): minutes on a machine shared with other test runs.
  }, 120_000);

  it("takes every variant of every link type", () => {
    // Each type with and without a thumbnail, as main button or not, in a list or not, on Plus.
    const links = TYPES.flatMap((type, i) =>
      [false, true].flatMap((main) =>
        [null, "https://img.example/t.png"].map((thumbnailUrl) =>
          link({ linkType: type as PageLink["linkType"], isMainButton: main, thumbnailUrl, parentListId: i % 2 ? "g" : null, data: { message: "m", description: "d", name: "n", phone: "+1", email: "a@b.co" } }),
        ),
      ),
    );
    const s = snapshot({}, links, [], [list("g", "Group", 0)]);
    expect(bodyOf(render(s, PLUS).html)).toBe(renderToStaticMarkup(<Page snapshot={s} plan={PLUS} now={NOW} origin={ORIGIN} icons={marksOf(s)} />));
  });
});
