/**
 * Publishing the owner's draft to static files; draft state, discard, "Hide Plus items and publish"
 * (ADR 136), and the History view's versions, restore and rollback (ADR 137).
 */
import { Hono } from "hono";
import { z } from "zod";
import { SUSPENSION_TEXTS } from "#core/admin.ts";
import { HISTORY_TEXTS } from "#core/history.ts";
import { PLAN_FEATURES } from "#core/plan-hides.ts";
import { PUBLISH_TEXTS } from "#core/publish-gate.ts";
import {
  acknowledgePlusItemsBack,
  discardDraft,
  draftState,
  publishPage,
  restoreVersion,
  rollbackTo,
  versionHistory,
  withPageLock,
  type PublishOptions,
  type PublishResult,
} from "#renderer/publish.ts";
import { throughTarget } from "#renderer/publish-target.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { withSchedule } from "../jobs/page-schedule.ts";
import { runJobs } from "../jobs/runner.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { pagesOrigin } from "../env.server.ts";
import { ApiError } from "../errors.ts";
import { suspensionOf } from "../services/admin-reports.ts";
import { log } from "../log.ts";
import { jsonBody } from "../validate.ts";

const VersionSchema = z.object({ version: z.number().int().min(1).max(1_000_000_000) }).strict();
/** The features the owner agreed the plan hides, as the Publish dialog listed them (ADR 136). */
const HideSchema = z.array(z.enum(PLAN_FEATURES)).min(1).max(PLAN_FEATURES.length);
const HidePlusSchema = z.object({ hide: HideSchema }).strict();
/** Put live, with the same optional consent to what the plan hides (ADR 200). */
const RollbackSchema = z.object({ version: VersionSchema.shape.version, hide: HideSchema.optional() }).strict();

function answer(result: PublishResult | { ok: false; reason: "no_version" }) {
  if (result.ok) return { version: result.version, changed: result.changed };
  if (result.reason === "blocked") {
    throw new ApiError("payment_required", PUBLISH_TEXTS.blockedTitle, {
      details: { description: PUBLISH_TEXTS.blockedBody, features: result.features },
    });
  }
  if (result.reason === "consent_outdated") throw new ApiError("conflict", PUBLISH_TEXTS.consentOutdated, { details: { features: result.features } });
  if (result.reason === "suspended") throw new ApiError("forbidden", SUSPENSION_TEXTS.publishRefused);
  if (result.reason === "no_version") throw new ApiError("not_found", HISTORY_TEXTS.versionNotFound);
  throw new ApiError("not_found", "Profile not found");
}

export function publishRoutes(deps: AppDeps) {
  const { db, env, now } = deps;
  const opts = () => withSchedule({ publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(env), now: now() });
  /** One publish of the owner's page under the page lock, written through the publish target (ADR 129). */
  const publishing = <R>(userId: string, step: (o: PublishOptions) => R) =>
    withPageLock(userId, () => throughTarget(deps.target, (writer) => step({ ...opts(), writer })));
  /** A publish queued the page's scheduled re-renders: the worker wakes for the first of them. */
  const answered = (result: Parameters<typeof answer>[0]) => {
    // One line per publish, under the request's id (ADR 190).
    if (result.ok) log().info({ version: result.version, changed: result.changed }, "published");
    else log().info({ refused: result.reason }, "publish refused");
    if (result.ok && result.changed) void runJobs(deps);
    return answer(result);
  };
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // POST /api/publish - render the draft and make it the live page
      .post("/", async (c) => {
        const user = currentUser(c);
        const result = await publishing(user.id, (o) => publishPage(db, user.id, o));
        return c.json(answered(result));
      })
      // POST /api/publish/hide-plus {hide} - publish the draft as it is, the plan hiding the Plus items
      // the owner agreed to (the draft keeps them); 409 when the draft now needs more hides than agreed
      .post("/hide-plus", jsonBody(HidePlusSchema), async (c) => {
        const user = currentUser(c);
        const { hide } = c.req.valid("json");
        const result = await publishing(user.id, (o) => publishPage(db, user.id, o, hide));
        return c.json(answered(result));
      })
      // POST /api/publish/plus-items-back/seen - the dashboard has said "Your Plus items are back on your page"
      .post("/plus-items-back/seen", (c) => {
        acknowledgePlusItemsBack(db, currentUser(c).id);
        return c.json({ ok: true });
      })
      // GET /api/publish/state - unpublished changes, last publish, blocked Plus-only features, a suspension
      .get("/state", (c) => {
        const state = draftState(db, currentUser(c).id, now());
        if (!state) throw new ApiError("not_found", "Profile not found");
        return c.json({ ...state, suspension: suspensionOf(db, currentUser(c).id) });
      })
      // POST /api/publish/discard - restore the draft to the last published snapshot
      .post("/discard", async (c) => {
        const user = currentUser(c);
        const ok = await withPageLock(user.id, () => discardDraft(db, user.id, now()));
        if (!ok) throw new ApiError("conflict", PUBLISH_TEXTS.discardFailed);
        return c.json({ message: PUBLISH_TEXTS.discarded, description: PUBLISH_TEXTS.discardedBody });
      })
      // GET /api/publish/versions - the last 20 published versions, newest first, each with what changed
      // and what the owner's plan would hide if it were put live now (ADR 200)
      .get("/versions", (c) => c.json({ versions: versionHistory(db, currentUser(c).id, now()) }))
      // POST /api/publish/restore {version} - make that version the draft, leaving the live page alone
      .post("/restore", jsonBody(VersionSchema), async (c) => {
        const user = currentUser(c);
        const { version } = c.req.valid("json");
        const ok = await withPageLock(user.id, () => restoreVersion(db, user.id, version, now()));
        if (!ok) throw new ApiError("not_found", HISTORY_TEXTS.versionNotFound);
        return c.json({ message: HISTORY_TEXTS.restored(version), description: HISTORY_TEXTS.restoredText });
      })
      // POST /api/publish/rollback {version, hide?} - restore that version to the draft and publish it;
      // a version with Plus items the plan refuses goes live only with the owner's consent to the
      // hides (as hide-plus), 409 when the plan now hides more than was agreed (ADR 200)
      .post("/rollback", jsonBody(RollbackSchema), async (c) => {
        const user = currentUser(c);
        const { version, hide } = c.req.valid("json");
        const result = await publishing(user.id, (o) => rollbackTo(db, user.id, version, o, hide));
        if (!result.ok && result.reason === "consent_outdated") throw new ApiError("conflict", HISTORY_TEXTS.consentOutdated, { details: { features: result.features } });
        return c.json(answered(result));
      })
  );
}
