/**
 * Lighthouse scores for a list of pages in Debian's Chromium (performance, accessibility, best
 * practices, SEO), one Chromium for all runs.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Scores = Record<(typeof CATEGORIES)[number], number>;

export const MARKETING_PAGES = [
  "/", "/features", "/pricing", "/help", "/contact", "/status", "/privacy", "/terms", "/cookies", "/affiliate-terms",
];

export const CHROME_FLAGS = [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run",
];

export async function scorePages(origin: string, paths: string[], chromePath = "/usr/bin/chromium") {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  const results: { path: string; scores: Scores }[] = [];
  try {
    for (const path of paths) {
      const run = await lighthouse(`${origin}${path}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
      });
      const cats = run?.lhr.categories ?? {};
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, Math.round((cats[c]?.score ?? 0) * 100)]),
      ) as Scores;
      results.push({ path, scores });
    }
  } finally {
    chrome.kill();
  }
  return results;
}

export function formatTable(results: { path: string; scores: Scores }[]): string {
  const head = ["page", ...CATEGORIES];
  const rows = results.map((r) => [r.path, ...CATEGORIES.map((c) => String(r.scores[c]))]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  return [line(head), ...rows.map(line)].join("\n");
}
