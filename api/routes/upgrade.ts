/**
 * Upgrade prompts (docs/product.md section 6): the handler records which feature the owner asked for, and when.
 */
import { Hono } from "hono";
import { z } from "zod";
import { FEATURE_KEYS } from "#core/plans.ts";
import { singleLine } from "#core/text-rule.ts";
import { newId } from "#db/ids.ts";
import { upgradeRequests } from "#db/schema.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { jsonBody } from "../validate.ts";

export const UpgradeRequestBodySchema = z.object({
  feature: z.enum([...FEATURE_KEYS, "logout_redirect"], "Unknown feature"),
  reason: singleLine().max(200).optional(),
});

export function upgradeRoutes({ db, now }: AppDeps) {
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // POST /api/upgrade-requests - record an upgrade prompt's feature key
      .post("/", jsonBody(UpgradeRequestBodySchema), (c) => {
        const user = currentUser(c);
        const { feature, reason } = c.req.valid("json");
        const id = newId();
        db.insert(upgradeRequests).values({ id, userId: user.id, featureKey: feature, reason: reason ?? null, createdAt: now() }).run();
        return c.json({ id, feature }, 201);
      })
  );
}
