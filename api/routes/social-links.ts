/**
 * The owner's social links (docs/product.md sections 3, 4, 5, 6): each platform once, display_order from 1, the
 * QR-code entry's visibility on the profile. Lite: at most 4 visible and 20 in total, enforced here.
 */
import { and, asc, count, eq, max } from "drizzle-orm";
import { Hono } from "hono";
import { IdParamSchema, QrCodeVisibilitySchema, SocialOrderSchema, SocialVisibilitySchema } from "#core/dashboard-schemas.ts";
import { DASH } from "#core/dashboard-texts.ts";
import { LIMITS } from "#core/limits.ts";
import { effectivePlan } from "#core/plans.ts";
import { getPlatform } from "#core/platforms.ts";
import { RevisionQuerySchema, withRevision } from "#core/schemas/revision.ts";
import { SocialAddSchema, SocialEditSchema } from "#core/schemas/social.ts";
import { cleanHandle } from "#core/social-handle.ts";
import { transaction, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { stampSection, takeRevision } from "#db/revisions.ts";
import { socialLinks, userProfiles } from "#db/schema.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError, fieldError } from "../errors.ts";
import { schemaJson } from "../services/json-input.ts";
import { getProfile, planStateOf, touchProfile } from "../services/profile.ts";
import { claimSection, expectChanged, expectRevision } from "../services/revisions.ts";
import { jsonBody, params, query } from "../validate.ts";

const UPGRADE = DASH.plusTooltip;

function listSocial(db: Db, userId: string) {
  return db.select().from(socialLinks).where(eq(socialLinks.userId, userId)).orderBy(asc(socialLinks.displayOrder), asc(socialLinks.createdAt)).all();
}

/** The owner's social order revision: which social links the page has, their order, the QR entry (ADR 068). */
const socialOrderRevision = (db: Db, userId: string) => getProfile(db, userId).socialOrderRevision;

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
      // GET /api/social-links - the owner's social links in order, the QR entry's visibility, and the
      // revision of the list (order, members, QR entry)
      .get("/", (c) => {
        const user = currentUser(c);
        const profile = getProfile(db, user.id);
        return c.json({ socialLinks: listSocial(db, user.id), qrCodeVisible: profile.qrCodeVisible, orderRevision: profile.socialOrderRevision });
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
          const revision = takeRevision(tx, user.id);
          tx.insert(socialLinks)
            .values({ id, userId: user.id, platform, url, displayOrder: (top?.top ?? 0) + 1, isVisible, revision, createdAt: at, updatedAt: at })
            .run();
          stampSection(tx, user.id, "socialOrder", revision);
          touchProfile(tx, user.id, at);
          return ownedSocial(tx, user.id, id);
        });
        return c.json({ socialLink: row, orderRevision: socialOrderRevision(db, user.id), message: DASH.socialAdded(getPlatform(platform)!.name) }, 201);
      })
      // PUT /api/social-links/order - every social link once, in the new order (display_order from 1),
      // based on the order revision the dashboard showed
      .put("/order", jsonBody(withRevision(SocialOrderSchema)), (c) => {
        const user = currentUser(c);
        const { ids, revision: base } = c.req.valid("json");
        const at = now();
        transaction(db, (tx) => {
          claimSection(tx, user.id, "socialOrder", base);
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
        return c.json({ socialLinks: listSocial(db, user.id), orderRevision: socialOrderRevision(db, user.id), message: DASH.socialReordered });
      })
      // PUT /api/social-links/qr-code - show or hide the QR-code entry (stored on the profile), based
      // on the social order revision
      .put("/qr-code", jsonBody(withRevision(QrCodeVisibilitySchema)), (c) => {
        const user = currentUser(c);
        const { visible, revision: base } = c.req.valid("json");
        const at = now();
        const orderRevision = transaction(db, (tx) => {
          const revision = claimSection(tx, user.id, "socialOrder", base);
          tx.update(userProfiles).set({ qrCodeVisible: visible, updatedAt: at }).where(eq(userProfiles.userId, user.id)).run();
          return revision;
        });
        return c.json({ qrCodeVisible: visible, orderRevision });
      })
      // PATCH /api/social-links/:id - change the handle, based on the link's revision
      .patch("/:id", params(IdParamSchema), jsonBody(withRevision(SocialEditSchema)), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { handle, revision: base } = c.req.valid("json");
        const at = now();
        const row = transaction(db, (tx) => {
          const existing = ownedSocial(tx, user.id, id);
          expectRevision(existing, base);
          const platform = getPlatform(existing.platform)!;
          const clean = cleanHandle(platform, handle);
          if (clean === null) {
            const message = platform.id === "whatsapp" ? DASH.whatsappInvalid : DASH.handleRequired;
            throw fieldError("validation_failed", "handle", message);
          }
          const revision = takeRevision(tx, user.id);
          expectChanged(
            tx
              .update(socialLinks)
              .set({ url: platform.baseUrl + clean, updatedAt: at, revision })
              .where(and(eq(socialLinks.id, id), eq(socialLinks.userId, user.id), eq(socialLinks.revision, base)))
              .run(),
          );
          touchProfile(tx, user.id, at);
          return ownedSocial(tx, user.id, id);
        });
        return c.json({ socialLink: row, message: DASH.socialUpdated });
      })
      // PATCH /api/social-links/:id/visibility - show or hide, based on the link's revision; Lite shows at most 4
      .patch("/:id/visibility", params(IdParamSchema), jsonBody(withRevision(SocialVisibilitySchema)), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { isVisible, revision: base } = c.req.valid("json");
        const at = now();
        const lite = isLite(user.id, at);
        const row = transaction(db, (tx) => {
          const existing = ownedSocial(tx, user.id, id);
          expectRevision(existing, base);
          if (isVisible && !existing.isVisible && lite && visibleCount(tx, user.id) >= LIMITS.LITE_MAX_VISIBLE_SOCIAL) {
            throw new ApiError("payment_required", UPGRADE, { details: { feature: "unlimited_social_links" } });
          }
          const revision = takeRevision(tx, user.id);
          expectChanged(
            tx
              .update(socialLinks)
              .set({ isVisible, updatedAt: at, revision })
              .where(and(eq(socialLinks.id, id), eq(socialLinks.userId, user.id), eq(socialLinks.revision, base)))
              .run(),
          );
          touchProfile(tx, user.id, at);
          return ownedSocial(tx, user.id, id);
        });
        return c.json({ socialLink: row });
      })
      // DELETE /api/social-links/:id?revision= - remove a platform, based on the link's revision
      .delete("/:id", params(IdParamSchema), query(RevisionQuerySchema), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { revision: base } = c.req.valid("query");
        const at = now();
        transaction(db, (tx) => {
          expectRevision(ownedSocial(tx, user.id, id), base);
          expectChanged(tx.delete(socialLinks).where(and(eq(socialLinks.id, id), eq(socialLinks.userId, user.id), eq(socialLinks.revision, base))).run());
          stampSection(tx, user.id, "socialOrder", takeRevision(tx, user.id));
          touchProfile(tx, user.id, at);
        });
        return c.json({ ok: true, orderRevision: socialOrderRevision(db, user.id), message: DASH.socialRemoved });
      })
  );
}
