/**
 * The one Node entry: opens the database (migrating it), then serves the API, the site and the
 * published pages on PORT.
 */
import { serve } from "@hono/node-server";
import { createDeps } from "./deps.ts";
import { createServerApp, siteIsBuilt } from "./site.ts";

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
  const shutdown = () => {
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
