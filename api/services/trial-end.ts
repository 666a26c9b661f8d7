/**
 * The trial-end e-mail: when the scheduler re-renders a page because its owner's trial ended, the
 * owner is told once. The mail is a job with a once key (the owner and the trial's end), so a
 * failed send is retried by the job worker and a second notice for the same trial is never queued.
 */
import { isPayingPlus } from "#core/plans.ts";
import type { AppDeps } from "../context.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { runJobs } from "../jobs/runner.ts";
import { trialEndedMail } from "./billing-mail.ts";
import { getProfile, planStateOf } from "./profile.ts";

export async function noticeTrialEnded(deps: AppDeps, owner: { userId: string; email: string; username: string }): Promise<void> {
  const profile = getProfile(deps.db, owner.userId);
  const at = deps.now();
  // An owner who subscribed during the trial keeps Plus: nothing to tell.
  if (isPayingPlus(planStateOf(profile), at)) return;
  const endedAt = profile.trialEndsAt?.getTime() ?? 0;
  const mail = trialEndedMail(owner.email, deps.env.PUBLIC_ORIGIN, owner.username);
  if (enqueueJob(deps.db, { kind: "mail", payload: mail, onceKey: `trial-ended:${owner.userId}:${endedAt}` }, at)) await runJobs(deps);
}
