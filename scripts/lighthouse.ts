/**
 * Lighthouse scores for every marketing page and its /en copy: `npm run lighthouse -- [origin]`.
 * Needs a running server with the built site (npm run build; then npm run serve, or
 * scripts/e2e-server.ts); origin defaults to LIGHTHOUSE_ORIGIN or http://localhost:4321. Prints the
 * scores table, the landing page's JavaScript (gzip) against its 50 KB budget, and any request to
 * another origin. Exits 1 when a score is below 100, the budget is exceeded or a third party is asked.
 */
import { CATEGORIES, LANDING_JS_BUDGET_BYTES, MARKETING_PAGES, formatTable, pageJsGzipBytes, scorePages } from "./lib/lighthouse.ts";

const origin = (process.argv[2] ?? process.env.LIGHTHOUSE_ORIGIN ?? "http://localhost:4321").replace(/\/+$/, "");
const results = await scorePages(origin, MARKETING_PAGES);
console.log(formatTable(results));

const problems: string[] = [];
for (const r of results) {
  if (CATEGORIES.some((c) => r.scores[c] < 100)) problems.push(`${r.path}: ${r.failing.join("; ") || "a score below 100"}`);
  for (const u of r.thirdParty) problems.push(`${r.path}: third-party request to ${u}`);
}
const landing = results.find((r) => r.path === "/");
if (landing) {
  const bytes = await pageJsGzipBytes(origin, "/", landing.scriptUrls);
  const ok = bytes <= LANDING_JS_BUDGET_BYTES;
  console.log(`\nlanding page JavaScript: ${(bytes / 1024).toFixed(1)} KB gzip (budget ${LANDING_JS_BUDGET_BYTES / 1024} KB) ${ok ? "ok" : "OVER BUDGET"}`);
  if (!ok) problems.push(`/: ${bytes} bytes of JavaScript gzip, over the budget`);
}
console.log(problems.length ? `\n${problems.join("\n")}` : "\nevery page: 100 in every category, no third-party requests");
process.exit(problems.length ? 1 : 0);
