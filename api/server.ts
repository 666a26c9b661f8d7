/**
 * The one Node entry: opens the database (migrating it), then serves the API, the site and the
 * published pages on PORT.
 */
import "./runtime-mode.ts";
import type { AddressInfo } from "node:net";
import { failBoot } from "./boot-errors.ts";
import { createHttpServer } from "./http-server.ts";
import { createDeps } from "./deps.ts";
import { pagesOrigin, parseEnv, type Env } from "./env.server.ts";
import { siteIsBuilt } from "./site.ts";
import { followTemplate } from "#renderer/follow-template.ts";
import { requeuePageBoundaries } from "./jobs/page-schedule.ts";
import { startBackups } from "./jobs/backup.ts";
import { jobsFor, runJobs } from "./jobs/runner.ts";
import { billingFor } from "./services/billing.ts";
import { startAnalyticsRetention } from "./services/analytics-store.ts";

function main(env: Env) {
  const deps = createDeps(env);
  if (!env.ASTRO_DEV_URL && !siteIsBuilt(env.SITE_DIR)) {
    console.warn(`The site is not built in ${env.SITE_DIR}: run \`npm run build\` first. Serving the API and published pages only.`);
  }
  const server = createHttpServer(deps);
  // A port in use or refused is one line naming PORT or HOST, not a stack trace (api/boot-errors.ts).
  server.once("error", (err) => failBoot(err, env));
  server.listen(env.PORT, env.HOST, () => {
    console.log(`Plinth is listening on ${env.PUBLIC_ORIGIN} (port ${(server.address() as AddressInfo).port})`);
  });
  // Pages rendered with an older template are re-rendered in the background (ADR 097), through the
  // publish target, which purges each from the CDN when CDN_PURGE_URL is set (ADR 135).
  followTemplate(deps.db, { publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(env), target: deps.target }).catch((err: unknown) =>
    console.error("Re-rendering pages for the current template failed; they are tried again at the next start.", err),
  );
  // Jobs left from before a restart run now (mails, re-renders, the test billing provider's renewals
  // and deliveries); what comes due later, and failed jobs' retries, run on this interval.
  billingFor(deps).testMode?.requeue();
  const jobs = jobsFor(deps);
  jobs.start(env.BILLING_SWEEP_MS);
  void runJobs(deps);
  // Scheduled re-renders of pages published before the queue, or whose plan changed outside a publish.
  requeuePageBoundaries(deps.db, deps.now)
    .then(() => runJobs(deps))
    .catch((err: unknown) => console.error("Queueing scheduled re-renders failed; they are queued again at the next start.", err));
  // Scheduled backups (BACKUP_EVERY): this period's, if no process took it yet, and the next (ADR 160).
  startBackups(deps);
  const stopRetention = startAnalyticsRetention(deps.db, env.ANALYTICS_RAW_DAYS);
  if (env.NODE_ENV === "production" && env.BILLING_PROVIDER === "test") {
    console.warn("Billing runs on the test-mode provider: checkout takes test cards only and no money is collected (ADR 080).");
  }
  const shutdown = () => {
    stopRetention();
    const jobsStopped = jobs.stop();
    // The writer thread writes what it was handed; from now on each beacon that still arrives is
    // written at once. Every acknowledged beacon is stored before the process exits.
    const eventsWritten = deps.events.close();
    server.close(() => {
      // A job under way (a renewal, a delivery, a mail) finishes before the database closes.
      void Promise.allSettled([jobsStopped, eventsWritten]).then(() => {
        deps.reports.close();
        deps.db.$client.close();
        process.exit(0);
      });
    });
    setTimeout(() => void eventsWritten.finally(() => process.exit(0)), 3000).unref();
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

// A problem at start (the configuration, DATA_DIR, the database) is one line each, then exit 1.
let env: Env | undefined;
try {
  env = parseEnv();
  main(env);
} catch (err) {
  failBoot(err, env);
}
