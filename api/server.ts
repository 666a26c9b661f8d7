/**
 * The one Node entry: opens the database (migrating it), then serves the API, the site and the
 * published pages on PORT.
 */
import "./runtime-mode.ts";
import { serve } from "@hono/node-server";
import { createDeps } from "./deps.ts";
import { createServerApp, siteIsBuilt } from "./site.ts";
import { followTemplate } from "#renderer/follow-template.ts";
import { startScheduler } from "#renderer/scheduler.ts";
import { isPayingPlus } from "#core/plans.ts";
import { startBilling } from "./services/billing.ts";
import { getProfile, planStateOf } from "./services/profile.ts";

function main() {
  const deps = createDeps();
  const { env } = deps;
  if (!env.ASTRO_DEV_URL && !siteIsBuilt(env.SITE_DIR)) {
    console.warn(`The site is not built in ${env.SITE_DIR}: run \`npm run build\` first. Serving the API and published pages only.`);
  }
  const app = createServerApp(deps);
  const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    console.log(`Plinth is listening on ${env.PUBLIC_ORIGIN} (port ${info.port})`);
  });
  const scheduler = startScheduler({
    db: deps.db,
    publishedDir: env.PUBLISHED_DIR,
    origin: env.PUBLIC_ORIGIN,
    onTrialEnded: ({ userId, email, username }) =>
      // An owner who subscribed during the trial keeps Plus: nothing to tell.
      isPayingPlus(planStateOf(getProfile(deps.db, userId)), new Date()) ? undefined : deps.mailer.send({
        to: email,
        subject: "Your Plinth Plus trial has ended",
        text: `Your trial has ended, so your page ${env.PUBLIC_ORIGIN}/${username} now shows Plinth Lite features. Upgrade to Plinth Plus to bring the Plus features back.`,
      }),
  });
  // Pages rendered with an older template are re-rendered in the background (ADR 097).
  followTemplate(deps.db, { publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN }).catch((err: unknown) =>
    console.error("Re-rendering pages for the current template failed; they are tried again at the next start.", err),
  );
  const billing = startBilling(deps);
  if (env.NODE_ENV === "production" && env.BILLING_PROVIDER === "test") {
    console.warn("Billing runs on the test-mode provider: checkout takes test cards only and no money is collected (ADR 080).");
  }
  const shutdown = () => {
    scheduler.stop();
    const billingStopped = billing.stop();
    server.close(() => {
      // A renewal or delivery under way finishes before the database closes.
      void billingStopped.finally(() => {
        deps.db.$client.close();
        process.exit(0);
      });
    });
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main();
