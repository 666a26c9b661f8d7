/**
 * The JavaScript a page of the site costs before its first use (issue 25): every script Chromium
 * loads while a fresh, cache-less tab opens the page until its first heading shows and the network
 * is quiet, plus the page's inline scripts, each gzip-compressed on its own as the build's `.gz`
 * copies are. Used by `npm run bench` (the weight rows) and `npm run lighthouse` (the page lists).
 */
import { gzipSync } from "node:zlib";
import type { Browser } from "@playwright/test";

/** Every dashboard screen, by the path its menu entry opens (editor/app/shell/Shell.tsx). */
export const DASHBOARD_SCREENS = [
  "/dashboard/analytics",
  "/dashboard/links",
  "/dashboard/social-links",
  "/dashboard/profile-picture",
  "/dashboard/bio",
  "/dashboard/appearance",
  "/dashboard/earnings",
  "/dashboard/affiliate",
  "/dashboard/account-settings",
] as const;

/** Where every new owner starts. */
export const AUTH_PAGES = ["/auth/login", "/auth/signup"] as const;

/** Goals, gzip: a dashboard screen and an auth page. */
export const SCREEN_JS_BUDGET_BYTES = 150 * 1024;
export const AUTH_JS_BUDGET_BYTES = 60 * 1024;

/** The session cookie that signs the tab in, when the page needs an owner. */
export interface SignIn {
  name: string;
  value: string;
}

/** A page's script weight: the total, and each file's (inline scripts as "inline") largest first. */
export interface ScriptWeight {
  gzip: number;
  files: number;
  each: { name: string; gzip: number }[];
}

export async function scriptWeight(browser: Browser, url: string, signIn?: SignIn): Promise<ScriptWeight> {
  const context = await browser.newContext();
  if (signIn) await context.addCookies([{ ...signIn, url: new URL(url).origin }]);
  const page = await context.newPage();
  const bodies: Promise<{ name: string; body: Buffer }>[] = [];
  let html: Promise<string> | undefined;
  page.on("requestfinished", (req) => {
    const type = req.resourceType();
    if (type === "script") bodies.push(req.response().then(async (r) => ({ name: new URL(req.url()).pathname, body: await r!.body() })));
    else if (type === "document" && req.frame() === page.mainFrame()) html = req.response().then((r) => r!.text());
  });
  try {
    await page.goto(url);
    await page.locator("h1").first().waitFor();
    await page.waitForLoadState("networkidle");
    // The page must be the one asked for, not the sign-in page a missing session sends a tab to.
    if (new URL(page.url()).pathname !== new URL(url).pathname) throw new Error(`${url} moved to ${page.url()}`);
    const inline = [...((await html) ?? "").matchAll(/<script(?![^>]*\b(?:src=|type="application\/(?:ld\+)?json"))[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).filter((s) => s.trim());
    const files = await Promise.all(bodies);
    const each = [...inline.map((s) => ({ name: "inline", body: Buffer.from(s) })), ...files]
      .map(({ name, body }) => ({ name, gzip: gzipSync(body, { level: 9 }).length }))
      .sort((a, b) => b.gzip - a.gzip);
    return { gzip: each.reduce((n, f) => n + f.gzip, 0), files: files.length, each };
  } finally {
    await context.close();
  }
}
