/**
 * The published page is assembled from templates (renderer/markup.ts, ADR 088); the live preview and
 * this test render the same components with react-dom/server. Over a corpus of pages that takes
 * every branch of the page components (every link type, picture style, position, plan, mode) with
 * hostile and empty text and URLs in every field, both give the same bytes, and the templates never
 * need React at render time.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PageLink } from "#core/model.ts";
import { Page } from "#renderer/components/Page.tsx";
import { markupStats, renderMarkup } from "#renderer/markup.ts";
import { link, list, NOW, ORIGIN, PLUS, render, snapshot } from "./fixtures.ts";
import { randomPage, TYPES } from "./random-pages.ts";

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
