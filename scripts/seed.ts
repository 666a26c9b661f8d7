/**
 * npm run seed: a demo owner (username demo) with a few links and social icons, published.
 * Safe to run again: the demo account is reset to the same content and republished.
 */
import { createDeps } from "#api/deps.ts";
import { closeDatabase } from "#db/client.ts";
import { DEMO_USERNAME, seedDemo } from "./lib/seed-demo.ts";

const deps = createDeps();
const out = await seedDemo(deps);
closeDatabase(deps.db);
console.log(`Demo page published at ${deps.env.PUBLIC_ORIGIN}/${DEMO_USERNAME}`);
console.log(`Sign in at ${deps.env.PUBLIC_ORIGIN}/auth/login with ${out.email} / ${out.password}`);
