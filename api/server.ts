/**
 * The one Node entry: opens the database (migrating it), then serves the API, the site and the
 * published pages on PORT.
 */
import "./runtime-mode.ts";
import { serve } from "@hono/node-server";
import { createDeps } from "./deps.ts";
import { createServerApp, siteIsBuilt } from "./site.ts";
import { startScheduler } from "#renderer/scheduler.ts";

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
    onTrialEnded: ({ email, username }) =>
      deps.mailer.send({
        to: email,
        subject: "Your Plinth Plus trial has ended",
        text: `Your trial has ended, so your page ${env.PUBLIC_ORIGIN}/${username} now shows Plinth Lite features. Upgrade to Plinth Plus to bring the Plus features back.`,
      }),
  });
  const shutdown = () => {
    scheduler.stop();
    server.close(() => {
      deps.db.$client.close();
      process.exit(0);
    });
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main();
