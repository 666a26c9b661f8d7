/**
 * Publishing the owner's draft to static files.
 */
import { Hono } from "hono";
import { MESSAGES } from "#core/messages.ts";
import { publishPage } from "#renderer/publish.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";

export function publishRoutes({ db, env, now }: AppDeps) {
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // POST /api/publish - render the draft and make it the live page
      .post("/", (c) => {
        const user = currentUser(c);
        const result = publishPage(db, user.id, { publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, now: now() });
        if (!result.ok) throw new ApiError("not_found", "Profile not found");
        return c.json({ version: result.version, changed: result.changed, message: MESSAGES.publishing.success });
      })
  );
}
