/**
 * npm run seed: a demo owner (username demo) with a few links and social icons, published into the
 * publish target the environment names (the folder, or the bucket), as the server publishes.
 * Safe to run again: the demo account is reset to the same content and republished. `npm run seed`
 * builds the visitor script the page loads first (build/visitor.js), so it works on a fresh clone.
 */
import { parseEnv } from "#api/env.server.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { commandTarget, purgesLine } from "./lib/command-target.ts";
import { DEMO_USERNAME, seedDemo } from "./lib/seed-demo.ts";

const env = parseEnv();
const db = openDatabase({ path: env.DATABASE_PATH });
const { target, pagesOrigin, purgesQueued } = commandTarget(env, db);
try {
  const out = await seedDemo({ db, env, target }, process.env.DEMO_PASSWORD);
  console.log(`Demo page published at ${pagesOrigin}/${DEMO_USERNAME}${target.kind === "bucket" ? " (in the bucket)" : ""}`);
  console.log(`Sign in at ${env.PUBLIC_ORIGIN}/auth/login with ${out.email} / ${out.password}`);
  const purges = purgesLine(purgesQueued());
  if (purges) console.log(purges);
} catch (err) {
  console.error(`The demo was not seeded, and nothing of it was kept: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  closeDatabase(db);
}
