/**
 * The trial-end e-mail: when a page is re-rendered at the instant its owner's trial ended (a
 * `page-boundary` job, api/jobs/page-schedule.ts), the owner is told once. The mail is a job with a
 * once key (the owner and the trial's end), so a failed send is retried by the job worker and a
 * second notice for the same trial is never queued. It runs in the same tick as the re-render.
 */
import { eq } from "drizzle-orm";
import { isPayingPlus } from "#core/plans.ts";
import { users } from "#db/schema.ts";
import type { AppDeps } from "../context.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { trialEndedMail } from "./billing-mail.ts";
import { getProfile, planStateOf } from "./profile.ts";

/** Queues the mail if `boundary` is the owner's trial end and they do not pay; true when queued. */
export function queueTrialEndedMail(deps: AppDeps, userId: string, boundary: number): boolean {
  const profile = getProfile(deps.db, userId);
  const endedAt = profile.trialEndsAt?.getTime();
  if (endedAt !== boundary) return false;
  const at = deps.now();
  // An owner who subscribed during the trial keeps Plus: nothing to tell.
  if (isPayingPlus(planStateOf(profile), at)) return false;
  const email = deps.db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get()?.email;
  if (!email) return false;
  const mail = trialEndedMail(email, deps.env.PUBLIC_ORIGIN, profile.username);
  return enqueueJob(deps.db, { kind: "mail", payload: mail, onceKey: `trial-ended:${userId}:${endedAt}` }, at);
}
