/**
 * The owner's links (the draft). Every rule of spec section 5 and every plan limit of section 6 is
 * enforced here with core's schemas and plan rules, whatever the browser sends.
 */
import { and, asc, count, eq, max } from "drizzle-orm";
import { Hono } from "hono";
import { LITE_LINK_TYPES, PROMOTE_LINK_TYPE } from "#core/link-types.ts";
import { LIMITS } from "#core/limits.ts";
import { MESSAGES } from "#core/messages.ts";
import { canSavePromoteLink, effectivePlan } from "#core/plans.ts";
import { LinkInputSchema, storedUrlFor } from "#core/schemas/link.ts";
import { newId } from "#db/ids.ts";
import { links } from "#db/schema.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { getProfile, planStateOf } from "../services/profile.ts";
import { jsonBody } from "../validate.ts";

export type LinkRow = typeof links.$inferSelect;

export function linkRoutes({ db, env, now }: AppDeps) {
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // GET /api/links - the owner's links in page order
      .get("/", (c) => {
        const user = currentUser(c);
        const rows = db.select().from(links).where(eq(links.userId, user.id)).orderBy(asc(links.orderIndex), asc(links.createdAt)).all();
        return c.json({ links: rows });
      })
      // POST /api/links - add a link to the draft
      .post("/", jsonBody(LinkInputSchema), (c) => {
        const user = currentUser(c);
        const input = c.req.valid("json");
        const at = now();
        const profile = getProfile(db, user.id);
        const plan = planStateOf(profile);
        const lite = effectivePlan(plan, at) === "lite";
        if (input.linkType === PROMOTE_LINK_TYPE && !canSavePromoteLink(plan, at)) {
          throw new ApiError("payment_required", MESSAGES.plan.upgradeRequired, { details: { feature: PROMOTE_LINK_TYPE } });
        }
        if (lite && !LITE_LINK_TYPES.includes(input.linkType)) {
          throw new ApiError("payment_required", MESSAGES.plan.upgradeRequired, { details: { feature: input.linkType } });
        }
        const created = db.transaction((tx) => {
          const existing = tx.select({ n: count(), top: max(links.orderIndex) }).from(links).where(eq(links.userId, user.id)).get();
          if (lite && (existing?.n ?? 0) >= LIMITS.LITE_MAX_LINKS) {
            throw new ApiError("payment_required", MESSAGES.plan.liteLinkLimit, { details: { feature: "unlimited_links" } });
          }
          const id = newId();
          const referralUrl = `${env.PUBLIC_ORIGIN}/?ref=${profile.referralId}`;
          const row = {
            id,
            userId: user.id,
            title: input.title,
            url: storedUrlFor(input, referralUrl),
            linkType: input.linkType,
            linkSpecificData: (input.data ?? {}) as Record<string, string>,
            orderIndex: (existing?.top ?? -1) + 1,
            createdAt: at,
            updatedAt: at,
          };
          tx.insert(links).values(row).run();
          return tx.select().from(links).where(and(eq(links.id, id), eq(links.userId, user.id))).get();
        });
        return c.json({ link: created, message: MESSAGES.links.added }, 201);
      })
  );
}
