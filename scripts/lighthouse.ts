/**
 * Lighthouse scores for every marketing page: `npm run lighthouse -- [origin]`. Needs a running server
 * with the built site (npx astro build; npm start or scripts/e2e-server.ts); origin defaults to
 * LIGHTHOUSE_ORIGIN or http://localhost:4321. Exits 1 when any score is below 100.
 */
import { CATEGORIES, MARKETING_PAGES, formatTable, scorePages } from "./lib/lighthouse.ts";

const origin = (process.argv[2] ?? process.env.LIGHTHOUSE_ORIGIN ?? "http://localhost:4321").replace(/\/+$/, "");
const results = await scorePages(origin, MARKETING_PAGES);
console.log(formatTable(results));
const below = results.filter((r) => CATEGORIES.some((c) => r.scores[c] < 100));
process.exit(below.length ? 1 : 0);
