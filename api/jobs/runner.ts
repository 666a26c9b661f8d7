/**
 * The product's job worker: one per set of dependencies, with the handlers for every job kind. A
 * service enqueues work with `enqueueJob` (queue.ts) inside its transaction and calls `runJobs` after
 * the commit, so the work is done at once when it can be and retried by the worker when it cannot.
 * Billing is one of those services, so the runner does not import it: the test-mode provider's own
 * jobs run on the provider billing made, which billing hands to the runner (`runsTestProviderJobs`).
 */
import { runDomainCheck, runPageAddress, sitemapAfterPlanChange, type DomainJob, type PageAddressJob } from "../services/domains.ts";
import { rerenderPublishedPage } from "#renderer/rerender.ts";
import type { AppDeps } from "../context.ts";
import { pagesOrigin } from "../env.server.ts";
import type { ProviderDueJob, TestModeProvider } from "../billing/test-mode/provider.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { purgingTarget, runCdnPurge, type CdnPurgeJob } from "./cdn-purge.ts";
import { runTargetCleanup, type TargetCleanupJob } from "./target-cleanup.ts";
import { runBackupJob, type BackupJob } from "./backup.ts";
import { runPageBoundary, type PageBoundaryJob } from "./page-schedule.ts";
import { performance } from "node:perf_hooks";
import { log, withLogContext } from "../log.ts";
import { cdnErrors, jobsFailed } from "../metrics.ts";
import { createJobWorker, type JobObserver, type JobWorker, type TickResult } from "./queue.ts";

const workers = new WeakMap<AppDeps, JobWorker>();
const lastRuns = new WeakMap<AppDeps, Date>();

/** When this process's worker for `deps` last started or ended a run of the due jobs (/api/ready). */
export function lastJobRun(deps: AppDeps): Date | null {
  return lastRuns.get(deps) ?? null;
}

/**
 * Each job runs inside its own log context (ADR 190): the mail it sends, the page it renders and
 * any error carry its `jobId`, and one line says how it ended.
 */
function observerFor(deps: AppDeps): JobObserver {
  return {
    run(job, handler) {
      return withLogContext({ jobId: job.id, jobKind: job.kind }, () => {
        const started = performance.now();
        const result = handler();
        void Promise.resolve(result).then(
          () => log().info({ attempt: job.attempts + 1, durationMs: Math.round(performance.now() - started) }, "job done"),
          () => undefined,
        );
        return result;
      });
    },
    failed(err, job, attempts) {
      if (!job) return log().error({ err }, "Jobs failed");
      jobsFailed.inc({ kind: job.kind });
      // docs/prometheus-alerts.yml alerts on this one.
      if (job.kind === "cdn-purge") cdnErrors.inc();
      withLogContext({ jobId: job.id, jobKind: job.kind }, () => log().error({ err, attempt: attempts }, "Job failed"));
    },
    ran(at) {
      lastRuns.set(deps, at);
    },
  };
}

type ProviderJobs = Pick<TestModeProvider, "runDue" | "deliverPending">;
const testProviders = new WeakMap<AppDeps, ProviderJobs>();

/** The test-mode provider that runs its own jobs for these dependencies (billingFor calls this when it makes one). */
export function runsTestProviderJobs(deps: AppDeps, provider: ProviderJobs): void {
  testProviders.set(deps, provider);
}

/**
 * The test-mode provider of these dependencies. With Stripe, jobs the test provider left do nothing;
 * in test mode a job that comes before the provider is made fails, and the queue retries it (the
 * server makes the provider before its worker starts).
 */
function testProvider(deps: AppDeps): ProviderJobs | undefined {
  const provider = testProviders.get(deps);
  if (!provider && deps.env.BILLING_PROVIDER === "test") throw new Error("The test-mode billing provider has not started yet");
  return provider;
}

export function jobsFor(deps: AppDeps): JobWorker {
  let worker = workers.get(deps);
  if (!worker) {
    worker = createJobWorker({
      db: deps.db,
      now: deps.now,
      observer: observerFor(deps),
      handlers: {
        mail: (payload) => deps.mailer.send(payload as MailMessage),
        rerender: async (payload) => {
          const { userId } = payload as { userId: string };
          const done = await rerenderPublishedPage(deps.db, userId, { publishedDir: deps.env.PUBLISHED_DIR, origin: deps.env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(deps.env), now: deps.now() }, deps.target);
          if (done) await sitemapAfterPlanChange(deps, userId);
          return done;
        },
        "page-boundary": (payload) => runPageBoundary(deps, payload as PageBoundaryJob),
        // The test-mode billing provider's timed work (api/billing/test-mode/provider.ts).
        "provider-due": (payload) => testProvider(deps)?.runDue((payload as ProviderDueJob).subscriptionId),
        "provider-events": () => testProvider(deps)?.deliverPending(),
        "cdn-purge": (payload) => runCdnPurge(deps.env, payload as CdnPurgeJob),
        "target-cleanup": (payload) => runTargetCleanup(deps, payload as TargetCleanupJob),
        // A scheduled backup, once per period of BACKUP_EVERY across processes (ADR 160).
        backup: (payload) => runBackupJob(deps, payload as BackupJob),
        // Custom domains (ADR 240): the background check, and the page's address after a change.
        "domain-check": (payload) => runDomainCheck(deps, payload as DomainJob),
        "page-address": (payload) => runPageAddress(deps, payload as PageAddressJob),
      },
    });
    workers.set(deps, worker);
  }
  return worker;
}

/** Runs the jobs due now; a failure is logged and retried later, never thrown at the caller. */
export function runJobs(deps: AppDeps): Promise<TickResult | undefined> {
  return jobsFor(deps)
    .tick()
    .catch((err) => {
      log().error({ err }, "Jobs failed");
      return undefined;
    });
}

/**
 * With CDN_PURGE_URL set, `deps.target` becomes one that queues a `cdn-purge` job for every page a
 * step changed, once the target has the page's files, and runs it without waiting (ADR 133).
 */
export function withCdnPurge(deps: AppDeps): AppDeps {
  if (!deps.env.CDN_PURGE_URL) return deps;
  deps.target = purgingTarget(deps.target, deps, () => void runJobs(deps));
  return deps;
}
