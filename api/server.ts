/**
 * The one Node entry: opens the database (migrating it), then serves the API, the site and the
 * published pages on PORT.
 */
import "./runtime-mode.ts";
import type { AddressInfo } from "node:net";
import { failBoot } from "./boot-errors.ts";
import { createHttpServer, HTTP_TIMEOUTS, stopAccepting } from "./http-server.ts";
import { createDeps } from "./deps.ts";
import { pagesOrigin, parseEnv, type Env } from "./env.server.ts";
import { siteIsBuilt } from "./site.ts";
import { followTemplate } from "#renderer/follow-template.ts";
import { requeuePageBoundaries } from "./jobs/page-schedule.ts";
import { startBackups } from "./jobs/backup.ts";
import { jobsFor, runJobs } from "./jobs/runner.ts";
import { billingFor } from "./services/billing.ts";
import { startAnalyticsRetention } from "./services/analytics-store.ts";
import { configureLogger, log } from "./log.ts";
import { createMetricsServer } from "./metrics-endpoint.ts";

/** The longest a stop waits for requests under way. */
const SHUTDOWN_WAIT_MS = HTTP_TIMEOUTS.requestMs;

function main(env: Env) {
  configureLogger({ level: env.LOG_LEVEL, pretty: env.LOG_PRETTY });
  const deps = createDeps(env);
  if (!env.ASTRO_DEV_URL && !siteIsBuilt(env.SITE_DIR)) {
    log().warn(`The site is not built in ${env.SITE_DIR}: run \`npm run build\` first. Serving the API and published pages only.`);
  }
  const server = createHttpServer(deps);
  // A port in use or refused is one line naming PORT or HOST, not a stack trace (api/boot-errors.ts).
  server.once("error", (err) => failBoot(err, env));
  server.listen(env.PORT, env.HOST, () => {
    log().info({ port: (server.address() as AddressInfo).port }, `Plinth is listening on ${env.PUBLIC_ORIGIN}`);
  });
  // Metrics on a port of their own, reachable from this machine only (ADR 191).
  const metricsServer = env.METRICS_PORT === undefined ? null : createMetricsServer(deps);
  if (metricsServer) {
    metricsServer.once("error", (err) => failBoot(err, { ...env, HOST: "127.0.0.1", PORT: env.METRICS_PORT! }));
    metricsServer.listen(env.METRICS_PORT, "127.0.0.1", () => log().info({ port: (metricsServer.address() as AddressInfo).port }, "Metrics are served on 127.0.0.1"));
  }
  // Pages rendered with an older template are re-rendered in the background (ADR 097), through the
  // publish target, which purges each from the CDN when CDN_PURGE_URL is set (ADR 135).
  followTemplate(deps.db, { publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(env), target: deps.target }).catch((err: unknown) =>
    log().error({ err }, "Re-rendering pages for the current template failed; they are tried again at the next start."),
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
    .catch((err: unknown) => log().error({ err }, "Queueing scheduled re-renders failed; they are queued again at the next start."));
  // Scheduled backups (BACKUP_EVERY): this period's, if no process took it yet, and the next (ADR 160).
  startBackups(deps);
  const stopRetention = startAnalyticsRetention(deps.db, env.ANALYTICS_RAW_DAYS);
  if (env.NODE_ENV === "production" && env.BILLING_PROVIDER === "test") {
    log().warn("Billing runs on the test-mode provider: checkout takes test cards only and no money is collected (ADR 080).");
  }
  // SIGTERM (systemd's stop, a rolling restart) and SIGINT: stop taking connections, answer every
  // request under way, let a running job finish, write every acknowledged beacon, then exit (ADR 180).
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log().info(`${signal}: finishing the requests under way, then stopping.`);
    stopRetention();
    const jobsStopped = jobs.stop();
    metricsServer?.close();
    // The writer thread writes what it was handed; from now on each beacon that still arrives is
    // written at once. Every acknowledged beacon is stored before the process exits.
    const eventsWritten = deps.events.close();
    stopAccepting(server, () => {
      // A job under way (a renewal, a delivery, a mail) finishes before the database closes.
      void Promise.allSettled([jobsStopped, eventsWritten]).then(() => {
        deps.reports.close();
        deps.db.$client.close();
        process.exit(0);
      });
    });
    // A request that takes longer than a client may take to send one (HTTP_TIMEOUTS) is not waited for.
    setTimeout(() => {
      log().error(`Stopped with requests still under way after ${SHUTDOWN_WAIT_MS / 1000} s.`);
      void eventsWritten.finally(() => process.exit(1));
    }, SHUTDOWN_WAIT_MS).unref();
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
