/**
 * ADR 256: the built dashboard page, as the server sends it, names the app's modules in preload links,
 * so a phone fetches them in one round instead of one level of imports at a time. ADR 257: only the
 * pages with the site's header read the signed-in hint from the cookies before they go on.
 */
import { expect, test } from "./fixtures.ts";
import { SIGNED_IN_HINT_SCRIPT } from "#core/signed-in-hint.ts";

test("the dashboard's page preloads the app's and its renderer's modules, and the server has each of them", async ({ request }) => {
  const html = await (await request.get("/dashboard/account-settings")).text();
  const island = /<astro-island\b[^>]*>/.exec(html)?.[0] ?? "";
  const app = /component-url="([^"]+)"/.exec(island)?.[1];
  const renderer = /renderer-url="([^"]+)"/.exec(island)?.[1];
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
  expect(island).toContain('client="only"');
  expect(preloaded).toEqual(expect.arrayContaining([app, renderer]));
  // The app's screens load on first use, not with every page.
  expect(preloaded.filter((p) => /Screen\./.test(p))).toEqual([]);
  for (const path of preloaded) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()["content-type"], path).toContain("javascript");
  }
});

test("only the site's pages, whose header shows Login or Dashboard, read the cookies in their head", async ({ request }) => {
  for (const path of ["/", "/features", "/pricing", "/no-such-page"]) expect(await (await request.get(path)).text(), path).toContain(SIGNED_IN_HINT_SCRIPT);
  for (const path of ["/dashboard/links", "/dashboard/account-settings", "/auth/login", "/billing/checkout", "/pay/thanks"]) {
    expect(await (await request.get(path)).text(), path).not.toContain("document.cookie");
  }
});
