/**
 * The owner's social links (spec sections 3, 4, 5, 6): each platform once, display_order from 1, the
 * QR-code entry's visibility on the profile. Lite: at most 4 visible and 20 in total, enforced here.
 */
import { and, asc, count, eq, max } from "drizzle-orm";
import { Hono } from "hono";
import { IdParamSchema, QrCodeVisibilitySchema, SocialOrderSchema, SocialVisibilitySchema } from "#core/dashboard-schemas.ts";
import { DASH } from "#core/dashboard-texts.ts";
import { LIMITS } from "#core/limits.ts";
import { effectivePlan } from "#core/plans.ts";
import { getPlatform } from "#core/platforms.ts";
import { cleanHandle, SocialAddSchema, SocialEditSchema } from "#core/social-handle.ts";
import { transaction, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { socialLinks, userProfiles } from "#db/schema.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { schemaJson } from "../services/json-input.ts";
import { getProfile, planStateOf, touchProfile } from "../services/profile.ts";
import { jsonBody, params } from "../validate.ts";

const UPGRADE = DASH.plusTooltip;

function listSocial(db: Db, userId: string) {
  return db.select().from(socialLinks).where(eq(socialLinks.userId, userId)).orderBy(asc(socialLinks.displayOrder), asc(socialLinks.createdAt)).all();
}

function ownedSocial(db: Db, userId: string, id: string) {
  const row = db.select().from(socialLinks).where(and(eq(socialLinks.id, id), eq(socialLinks.userId, userId))).get();
  if (!row) throw new ApiError("not_found", "Social link not found");
  return row;
}

export function socialLinkRoutes({ db, now }: AppDeps) {
  const isLite = (userId: string, at: Date) => effectivePlan(planStateOf(getProfile(db, userId)), at) === "lite";
  const visibleCount = (tx: Db, userId: string) =>
    tx.select({ n: count() }).from(socialLinks).where(and(eq(socialLinks.userId, userId), eq(socialLinks.isVisible, true))).get()?.n ?? 0;

  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // GET /api/social-links - the owner's social links in order, and the QR entry's visibility
      .get("/", (c) => {
        const user = currentUser(c);
        return c.json({ socialLinks: listSocial(db, user.id), qrCodeVisible: getProfile(db, user.id).qrCodeVisible });
      })
      // POST /api/social-links - add a platform (each once); visible unless Lite already shows 4
      .post("/", schemaJson(SocialAddSchema), (c) => {
        const user = currentUser(c);
        const { platform, url } = c.req.valid("json");
        const at = now();
        const lite = isLite(user.id, at);
        const row = transaction(db, (tx) => {
          const all = listSocial(tx, user.id);
          if (all.some((s) => s.platform === platform)) throw new ApiError("conflict", `${getPlatform(platform)!.name} is already on your page`);
          if (lite && all.length >= LIMITS.LITE_MAX_SOCIAL_TOTAL) {
            throw new ApiError("payment_required", UPGRADE, { details: { feature: "unlimited_social_links" } });
          }
          const top = tx.select({ top: max(socialLinks.displayOrder) }).from(socialLinks).where(eq(socialLinks.userId, user.id)).get();
          const isVisible = !(lite && visibleCount(tx, user.id) >= LIMITS.LITE_MAX_VISIBLE_SOCIAL);
          const id = newId();
          tx.insert(socialLinks)
            .values({ id, userId: user.id, platform, url, displayOrder: (top?.top ?? 0) + 1, isVisible, createdAt: at, updatedAt: at })
            .run();
          touchProfile(tx, user.id, at);
          return ownedSocial(tx, user.id, id);
        });
        return c.json({ socialLink: row, message: DASH.socialAdded(getPlatform(platform)!.name) }, 201);
      })
      // PUT /api/social-links/order - every social link once, in the new order (display_order from 1)
      .put("/order", jsonBody(SocialOrderSchema), (c) => {
        const user = currentUser(c);
        const { ids } = c.req.valid("json");
        const at = now();
        transaction(db, (tx) => {
          const all = listSocial(tx, user.id);
          const set = new Set(ids);
          if (set.size !== ids.length || set.size !== all.length || all.some((s) => !set.has(s.id))) {
            throw new ApiError("validation_failed", "The order must name each of your social links once");
          }
          ids.forEach((id, i) => {
            tx.update(socialLinks).set({ displayOrder: i + 1, updatedAt: at }).where(and(eq(socialLinks.id, id), eq(socialLinks.userId, user.id))).run();
          });
          touchProfile(tx, user.id, at);
        });
        return c.json({ socialLinks: listSocial(db, user.id), message: DASH.socialReordered });
      })
      // PUT /api/social-links/qr-code - show or hide the QR-code entry (stored on the profile)
      .put("/qr-code", jsonBody(QrCodeVisibilitySchema), (c) => {
        const user = currentUser(c);
        const { visible } = c.req.valid("json");
        db.update(userProfiles).set({ qrCodeVisible: visible, updatedAt: now() }).where(eq(userProfiles.userId, user.id)).run();
        return c.json({ qrCodeVisible: visible });
      })
      // PATCH /api/social-links/:id - change the handle
      .patch("/:id", params(IdParamSchema), jsonBody(SocialEditSchema), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { handle } = c.req.valid("json");
        const at = now();
        const row = transaction(db, (tx) => {
          const existing = ownedSocial(tx, user.id, id);
          const platform = getPlatform(existing.platform)!;
          const clean = cleanHandle(platform, handle);
          if (clean === null) {
            const message = platform.id === "whatsapp" ? DASH.whatsappInvalid : DASH.handleRequired;
            throw new ApiError("validation_failed", message, { fields: { handle: message } });
          }
          tx.update(socialLinks).set({ url: platform.baseUrl + clean, updatedAt: at }).where(and(eq(socialLinks.id, id), eq(socialLinks.userId, user.id))).run();
          touchProfile(tx, user.id, at);
          return ownedSocial(tx, user.id, id);
        });
        return c.json({ socialLink: row, message: DASH.socialUpdated });
      })
      // PATCH /api/social-links/:id/visibility - show or hide; Lite shows at most 4
      .patch("/:id/visibility", params(IdParamSchema), jsonBody(SocialVisibilitySchema), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { isVisible } = c.req.valid("json");
        const at = now();
        const lite = isLite(user.id, at);
        const row = transaction(db, (tx) => {
          const existing = ownedSocial(tx, user.id, id);
          if (isVisible && !existing.isVisible && lite && visibleCount(tx, user.id) >= LIMITS.LITE_MAX_VISIBLE_SOCIAL) {
            throw new ApiError("payment_required", UPGRADE, { details: { feature: "unlimited_social_links" } });
          }
          tx.update(socialLinks).set({ isVisible, updatedAt: at }).where(and(eq(socialLinks.id, id), eq(socialLinks.userId, user.id))).run();
          touchProfile(tx, user.id, at);
          return ownedSocial(tx, user.id, id);
        });
        return c.json({ socialLink: row });
      })
      // DELETE /api/social-links/:id - remove a platform
      .delete("/:id", params(IdParamSchema), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const at = now();
        transaction(db, (tx) => {
          ownedSocial(tx, user.id, id);
          tx.delete(socialLinks).where(and(eq(socialLinks.id, id), eq(socialLinks.userId, user.id))).run();
          touchProfile(tx, user.id, at);
        });
        return c.json({ ok: true, message: DASH.socialRemoved });
      })
  );
}
