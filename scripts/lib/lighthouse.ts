/**
 * Lighthouse scores for a list of pages in Debian's Chromium (performance, accessibility, best
 * practices, SEO), one Chromium for all runs; and the JavaScript weight a page really loads.
 */
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Result } from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { MARKETING_PATHS } from "#editor/components/site/site-pages.ts";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Scores = Record<(typeof CATEGORIES)[number], number>;

/** Every marketing page and its /en copy (editor/components/site/site-pages.ts). */
export const MARKETING_PAGES: string[] = [...MARKETING_PATHS];

/** The landing page's JavaScript budget (issue 7): at most 50 KB gzip. */
export const LANDING_JS_BUDGET_BYTES = 50 * 1024;

const RUN_ATTEMPTS = 3;

export const CHROME_FLAGS = [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run",
];

export interface PageResult {
  path: string;
  /** Where the page ended up (a page that needs a session moves to the sign-in page without one). */
  finalUrl: string;
  scores: Scores;
  /** Audits below a full score, for fixing what keeps a category under 100. */
  failing: string[];
  /** URLs requested from any other origin than the page's. */
  thirdParty: string[];
  /** The scripts the page loaded (external files), by URL. */
  scriptUrls: string[];
}

/**
 * One Lighthouse run of `url`. A run that fails to load the page (a busy machine's timeout) scores
 * 0: it is retried, since it says nothing about the page. `complete` is false when every attempt
 * failed, and `lhr` is then the last attempt's.
 */
async function runOnce(url: string, port: number, headers?: Record<string, string>): Promise<{ lhr: Result | undefined; complete: boolean }> {
  let lhr: Result | undefined;
  for (let attempt = 1; attempt <= RUN_ATTEMPTS; attempt++) {
    lhr = (await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES], extraHeaders: headers }))?.lhr;
    const broken = !lhr || lhr.runtimeError || CATEGORIES.some((c) => lhr?.categories[c]?.score === null);
    if (!broken) return { lhr, complete: true };
  }
  return { lhr, complete: false };
}

/**
 * `runs` Lighthouse runs per page, after one uncounted run of the first page; with more than one,
 * the page is scored by the median run, the run closest to the median first paint and time to
 * interactive (Lighthouse's own computeMedianRun, as its documentation advises for a machine whose
 * speed varies). `headers` go with every request (a session cookie, for the dashboard's screens).
 */
export async function scorePages(
  origin: string,
  paths: readonly string[],
  { runs = 1, chromePath = "/usr/bin/chromium", headers }: { runs?: number; chromePath?: string; headers?: Record<string, string> } = {},
): Promise<PageResult[]> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  const results: PageResult[] = [];
  try {
    // A Chromium just started pays on its first page for starting a renderer (its first layout and
    // fonts), which a visitor's running browser does not: that run is made and not counted.
    if (paths[0] !== undefined) await runOnce(`${origin}${paths[0]}`, chrome.port, headers);
    for (const path of paths) {
      const url = `${origin}${path}`;
      const complete: Result[] = [];
      let lhr: Result | undefined;
      for (let n = 0; n < runs; n++) {
        const run = await runOnce(url, chrome.port, headers);
        if (run.complete) complete.push(run.lhr!);
        else console.error(`${path}: ${run.lhr?.runtimeError?.message ?? "no result"}`);
        lhr = run.lhr;
      }
      // Every run broken: the last one's (zero) scores stand.
      if (complete.length > 0) lhr = complete.length === 1 ? complete[0] : computeMedianRun(complete);
      const cats = lhr?.categories ?? {};
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, Math.round((cats[c]?.score ?? 0) * 100)]),
      ) as Scores;
      const failing: string[] = [];
      for (const c of CATEGORIES.filter((c) => scores[c] < 100)) {
        for (const ref of cats[c]?.auditRefs ?? []) {
          const audit = lhr?.audits[ref.id];
          if (!(ref.weight > 0 && audit && audit.score !== null && audit.score < 1)) continue;
          // What was logged, for an audit that fails on console errors: the score alone says nothing.
          const items = ((audit.details as { items?: { description?: string; sourceLocation?: { url?: string } }[] } | undefined)?.items ?? []).slice(0, 3);
          const logged = ref.id === "errors-in-console" && items.length ? `: ${items.map((i) => `${i.description ?? ""} ${i.sourceLocation?.url ?? ""}`.trim()).join(" | ")}` : "";
          failing.push(`${c}: ${ref.id} (${audit.displayValue ?? audit.score})${logged}`);
        }
      }
      const requests = ((lhr?.audits["network-requests"]?.details as { items?: { url: string; resourceType?: string }[] } | undefined)?.items ?? []);
      const own = new URL(url).origin;
      const thirdParty = requests.map((r) => r.url).filter((u) => /^https?:/.test(u) && new URL(u).origin !== own);
      const scriptUrls = requests.filter((r) => r.resourceType === "Script").map((r) => r.url);
      results.push({ path, finalUrl: lhr?.finalDisplayedUrl ?? url, scores, failing, thirdParty, scriptUrls });
    }
  } finally {
    chrome.kill();
  }
  return results;
}

/**
 * Bytes of JavaScript a page costs, gzip-compressed: every script file it loaded plus the inline
 * scripts of its HTML, each compressed on its own as a server would send it.
 */
export async function pageJsGzipBytes(origin: string, path: string, scriptUrls: string[]): Promise<number> {
  const html = await (await fetch(`${origin}${path}`)).text();
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? "").filter((s) => s.trim());
  const files = await Promise.all(scriptUrls.map(async (u) => (await fetch(u)).text()));
  return [...inline, ...files].reduce((sum, code) => sum + gzipSync(code).length, 0);
}

export function formatTable(results: { path: string; scores: Scores }[]): string {
  const head = ["page", ...CATEGORIES];
  const rows = results.map((r) => [r.path, ...CATEGORIES.map((c) => String(r.scores[c]))]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  return [line(head), ...rows.map(line)].join("\n");
}
