/**
 * The product's job worker: one per set of dependencies, with the handlers for every job kind. A
 * service enqueues work with `enqueueJob` (queue.ts) inside its transaction and calls `runJobs` after
 * the commit, so the work is done at once when it can be and retried by the worker when it cannot.
 * Billing is one of those services, so the runner does not import it: the test-mode provider's own
 * jobs run on the provider billing made, which billing hands to the runner (`runsTestProviderJobs`).
 */
import { rerenderPublishedPage } from "#renderer/rerender.ts";
import type { AppDeps } from "../context.ts";
import { pagesOrigin } from "../env.server.ts";
import type { ProviderDueJob, TestModeProvider } from "../billing/test-mode/provider.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { purgingTarget, runCdnPurge, type CdnPurgeJob } from "./cdn-purge.ts";
import { runTargetCleanup, type TargetCleanupJob } from "./target-cleanup.ts";
import { runBackupJob, type BackupJob } from "./backup.ts";
import { runPageBoundary, type PageBoundaryJob } from "./page-schedule.ts";
import { createJobWorker, type JobWorker, type TickResult } from "./queue.ts";

const workers = new WeakMap<AppDeps, JobWorker>();

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
      handlers: {
        mail: (payload) => deps.mailer.send(payload as MailMessage),
        rerender: (payload) =>
          rerenderPublishedPage(
            deps.db,
            (payload as { userId: string }).userId,
            { publishedDir: deps.env.PUBLISHED_DIR, origin: deps.env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(deps.env), now: deps.now() },
            deps.target,
          ),
        "page-boundary": (payload) => runPageBoundary(deps, payload as PageBoundaryJob),
        // The test-mode billing provider's timed work (api/billing/test-mode/provider.ts).
        "provider-due": (payload) => testProvider(deps)?.runDue((payload as ProviderDueJob).subscriptionId),
        "provider-events": () => testProvider(deps)?.deliverPending(),
        "cdn-purge": (payload) => runCdnPurge(deps.env, payload as CdnPurgeJob),
        "target-cleanup": (payload) => runTargetCleanup(deps, payload as TargetCleanupJob),
        // A scheduled backup, once per period of BACKUP_EVERY across processes (ADR 160).
        backup: (payload) => runBackupJob(deps, payload as BackupJob),
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
      console.error("Jobs failed", err);
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
