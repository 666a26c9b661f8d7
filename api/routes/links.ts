/**
 * The owner's links (the draft). Every rule of docs/product.md section 5 and every plan limit of section 6 is
 * enforced here with core's schemas and plan rules, whatever the browser sends. Every change bumps
 * the link's and the profile's updated_at, so the draft state (Draft Changes badge) is right.
 */
import { and, count, eq, max } from "drizzle-orm";
import { Hono } from "hono";
import { validator } from "hono/validator";
import type { z } from "zod";
import { LinkExtrasSchema, LinkOrderSchema, type LinkExtras, LinkVisibilitySchema, LINK_EXTRA_KEYS, MainButtonSchema, IdParamSchema } from "#core/dashboard-schemas.ts";
import { DASH } from "#core/dashboard-texts.ts";
import { LITE_LINK_TYPES, PROMOTE_LINK_TYPE } from "#core/link-types.ts";
import { LIMITS } from "#core/limits.ts";
import { canSavePromoteLink, effectivePlan, type PlanState } from "#core/plans.ts";
import { LinkInputSchema, storedUrlFor } from "#core/link-input.ts";
import { referralUrl } from "#core/schemas/affiliate.ts";
import { LINK_FILE_MESSAGES, LinkFileFieldsSchema, maxBytesFor, type LinkFileKind } from "#core/schemas/link-files.ts";
import { hasFeature } from "#core/plans.ts";
import { RevisionQuerySchema, RevisionSchema, withRevision } from "#core/schemas/revision.ts";
import { transaction, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { stampSection, takeRevision } from "#db/revisions.ts";
import { linkLists, links, uploads } from "#db/schema.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { uploadBodyLimit, uploadedBytes } from "../body-limit.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError, plusRequired, validationError } from "../errors.ts";
import { linksOrderRevision, listLinks, listLists, makeMainButton, ownedLink, ownedList, type LinkRow } from "../services/links.ts";
import { typedJson } from "../services/json-input.ts";
import { invalidLinkFile, linkFileTooLarge, processLinkFile, saveLinkFile } from "../services/link-files.ts";
import { ownDownloadFile } from "../services/download-files.ts";
import { PAYMENT_MESSAGES } from "#core/payments.ts";
import { createRateLimiter, limitStoreFor } from "../services/rate-limit.ts";
import { sweepUnusedMedia } from "../services/uploads.ts";
import { mediaStorageFor } from "../storage/media.ts";
import { withPageLock } from "#renderer/publish.ts";
import { getProfile, planStateOf, touchProfile } from "../services/profile.ts";
import { claimSection, expectChanged, expectRevision, revisionRequired } from "../services/revisions.ts";
import { jsonBody, params, query } from "../validate.ts";

export type { LinkRow };

type LinkInput = z.output<typeof LinkInputSchema>;
/** What the dashboard sends: the type's fields (core's LinkInputSchema) plus the Plus-only settings. */
export type LinkBody = z.input<typeof LinkInputSchema> & z.input<typeof LinkExtrasSchema>;

/** Splits the body into the link's own fields and its Plus-only settings, validating both. */
function splitLinkBody(value: unknown): { input: LinkInput; extras: LinkExtras } {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new ApiError("validation_failed", "Invalid request");
  const own: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k !== "revision") ((LINK_EXTRA_KEYS as readonly string[]).includes(k) ? extra : own)[k] = v;
  }
  const a = LinkInputSchema.safeParse(own);
  if (!a.success) throw validationError(a.error);
  const b = LinkExtrasSchema.safeParse(extra);
  if (!b.success) throw validationError(b.error);
  return { input: a.data as LinkInput, extras: b.data as LinkExtras };
}
const linkBody = typedJson<LinkBody, { input: LinkInput; extras: LinkExtras }>(splitLinkBody);
/** An edit: the same body plus the revision of the link it was based on (ADR 068). */
const linkEditBody = typedJson<LinkBody & { revision: number }, { input: LinkInput; extras: LinkExtras; revision: number }>((value) => {
  const parts = splitLinkBody(value);
  const revision = RevisionSchema.safeParse((value as { revision?: unknown }).revision);
  if (!revision.success) throw revisionRequired();
  return { ...parts, revision: revision.data };
});

const toDate = (v: string | null | undefined) => (v ? new Date(v) : null);

/** Refuses what the owner's plan does not allow; an unchanged value already stored is left alone. */
function enforcePlan(plan: PlanState, at: Date, input: LinkInput, extras: LinkExtras, existing?: LinkRow): void {
  const changedType = !existing || existing.linkType !== input.linkType;
  if (input.linkType === PROMOTE_LINK_TYPE && !canSavePromoteLink(plan, at)) throw plusRequired(PROMOTE_LINK_TYPE);
  if (effectivePlan(plan, at) !== "lite") return;
  if (changedType && !LITE_LINK_TYPES.includes(input.linkType)) throw plusRequired(input.linkType);
  if (extras.thumbnailUrl && extras.thumbnailUrl !== existing?.thumbnailUrl) throw plusRequired("thumbnails");
  const start = toDate(extras.scheduleStartTime)?.getTime() ?? null;
  const end = toDate(extras.scheduleEndTime)?.getTime() ?? null;
  if ((start !== null && start !== existing?.scheduleStartTime?.getTime()) || (end !== null && end !== existing?.scheduleEndTime?.getTime())) {
    throw plusRequired("scheduling");
  }
  if (extras.isMainButton && !existing?.isMainButton) throw plusRequired("main_button");
}

export const isLinkFileUpload = (method: string, path: string) => method === "POST" && path === "/api/links/files";

/** Uploads per owner: a burst of 30, then one a minute; enough to try a few files, not to fill a disk. */
const UPLOAD_BURST = 30;
const UPLOAD_RATE_LIMITED = "Too many uploads. Please wait a minute and try again.";

/** The form of a link-file upload: exactly one file and what it is for. */
const linkFileForm = validator("form", (value): { file: File; kind: LinkFileKind } => {
  const v = value as Record<string, unknown>;
  const fields = LinkFileFieldsSchema.safeParse({ kind: v.kind });
  if (!fields.success) throw validationError(fields.error);
  const kind = fields.data.kind;
  if (!(v.file instanceof File)) throw invalidLinkFile(kind);
  if (v.file.size > maxBytesFor(kind)) throw linkFileTooLarge(kind);
  return { file: v.file, kind };
});

/**
 * A link may show an uploaded file only if it is the owner's own upload: another owner's media path
 * would break when that owner's file is swept.
 */
function enforceOwnMedia(db: Db, userId: string, input: LinkInput, extras: LinkExtras): void {
  for (const url of [input.data.fileUrl, extras.thumbnailUrl, input.data.cover]) {
    if (!url || !url.startsWith("/media/")) continue;
    const row = db.select({ id: uploads.id }).from(uploads).where(and(eq(uploads.userId, userId), eq(uploads.storageKey, url.slice(1)))).get();
    const field = url === extras.thumbnailUrl ? "thumbnailUrl" : url === input.data.cover ? "data.cover" : "data.fileUrl";
    if (!row) throw new ApiError("validation_failed", "Please upload the file again", { fields: { [field]: "Please upload the file again" } });
  }
  // A Paid download sells one of the owner's own download files (ADR 231); its name is kept with the link.
  if (input.linkType === "paid_download") {
    const file = input.data.file ? ownDownloadFile(db, userId, input.data.file) : undefined;
    if (!file) throw new ApiError("validation_failed", PAYMENT_MESSAGES.fileUnknown, { fields: { "data.file": PAYMENT_MESSAGES.fileUnknown } });
    if (file.originalName) input.data.fileName = file.originalName;
  }
}

export function linkRoutes({ db, env, now, target }: AppDeps) {
  const storage = mediaStorageFor(env, target);
  const uploadLimiter = createRateLimiter(UPLOAD_BURST, 1 / 60, { now, store: limitStoreFor(db), name: "uploads" });
  const referralUrlOf = (referralId: string) => referralUrl(env.PUBLIC_ORIGIN, referralId);

  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // GET /api/links - the owner's links in page order, their lists, and the order's revision
      .get("/", (c) => {
        const user = currentUser(c);
        return c.json({ links: listLinks(db, user.id), lists: listLists(db, user.id), orderRevision: linksOrderRevision(db, user.id) });
      })
      // POST /api/links - add a link to the draft
      .post("/", linkBody, (c) => {
        const user = currentUser(c);
        const { input, extras } = c.req.valid("json");
        const at = now();
        const profile = getProfile(db, user.id);
        const plan = planStateOf(profile);
        const lite = effectivePlan(plan, at) === "lite";
        enforcePlan(plan, at, input, extras);
        enforceOwnMedia(db, user.id, input, extras);
        const created = transaction(db, (tx) => {
          const existing = tx.select({ n: count(), top: max(links.orderIndex) }).from(links).where(eq(links.userId, user.id)).get();
          if (lite && (existing?.n ?? 0) >= LIMITS.LITE_MAX_LINKS) {
            throw new ApiError("payment_required", DASH.liteLinkLimit, { details: { feature: "unlimited_links" } });
          }
          if (extras.parentListId) ownedList(tx, user.id, extras.parentListId);
          const id = newId();
          const revision = takeRevision(tx, user.id);
          tx.insert(links)
            .values({
              id,
              userId: user.id,
              revision,
              title: input.title,
              url: storedUrlFor(input, referralUrlOf(profile.referralId)),
              linkType: input.linkType,
              linkSpecificData: (input.data ?? {}) as Record<string, string>,
              thumbnailUrl: extras.thumbnailUrl || null,
              scheduleStartTime: toDate(extras.scheduleStartTime),
              scheduleEndTime: toDate(extras.scheduleEndTime),
              parentListId: extras.parentListId ?? null,
              orderIndex: (existing?.top ?? -1) + 1,
              createdAt: at,
              updatedAt: at,
            })
            .run();
          stampSection(tx, user.id, "linksOrder", revision);
          if (extras.isMainButton) makeMainButton(tx, user.id, id, at, revision);
          touchProfile(tx, user.id, at);
          return ownedLink(tx, user.id, id);
        });
        return c.json({ link: created, orderRevision: linksOrderRevision(db, user.id), message: DASH.linkAdded }, 201);
      })
      // POST /api/links/files - multipart {file, kind: lead_magnet|thumbnail} -> 201 {url}: the file
      // checked by its bytes and stored; the link dialog then saves the url with the link
      .post(
        "/files",
        uploadBodyLimit(Math.max(maxBytesFor("lead_magnet"), maxBytesFor("thumbnail")), () => linkFileTooLarge("lead_magnet")),
        linkFileForm,
        async (c) => {
          const user = currentUser(c);
          const { file, kind } = c.req.valid("form");
          const at = now();
          const feature = kind === "lead_magnet" ? "lead_magnet" : "thumbnails";
          if (!hasFeature(planStateOf(getProfile(db, user.id)), feature, at)) throw plusRequired(feature);
          if (!uploadLimiter.take(user.id)) throw new ApiError("rate_limited", UPLOAD_RATE_LIMITED);
          const processed = await processLinkFile(await uploadedBytes(file, () => invalidLinkFile(kind)), kind);
          const url = await withPageLock(user.id, async () => {
            const saved = await saveLinkFile(db, storage, user.id, kind, processed, at, file.name);
            await sweepUnusedMedia(db, storage, user.id, at);
            return saved;
          });
          const message = kind === "lead_magnet" ? LINK_FILE_MESSAGES.leadUploaded : LINK_FILE_MESSAGES.thumbnailUploaded;
          return c.json({ url, kind, bytes: processed.bytes.byteLength, message }, 201);
        },
      )
      // PUT /api/links/order - the whole page order: every link once, top to bottom, with its list,
      // based on the order revision the dashboard showed
      .put("/order", jsonBody(withRevision(LinkOrderSchema)), (c) => {
        const user = currentUser(c);
        const { items, lists, revision: base } = c.req.valid("json");
        const at = now();
        transaction(db, (tx) => {
          const revision = claimSection(tx, user.id, "linksOrder", base);
          const current = listLinks(tx, user.id);
          const ids = new Set(items.map((i) => i.id));
          if (ids.size !== items.length || ids.size !== current.length || current.some((l) => !ids.has(l.id))) {
            throw new ApiError("validation_failed", "The order must name each of your links once");
          }
          const ownLists = new Set(listLists(tx, user.id).map((l) => l.id));
          for (const item of items) if (item.parentListId && !ownLists.has(item.parentListId)) throw new ApiError("not_found", "List not found");
          if (lists) {
            if (new Set(lists).size !== lists.length || lists.length !== ownLists.size || lists.some((l) => !ownLists.has(l))) {
              throw new ApiError("validation_failed", "The order must name each of your lists once");
            }
          }
          const byId = new Map(current.map((l) => [l.id, l]));
          items.forEach((item, i) => {
            const row = byId.get(item.id);
            if (!row || (row.orderIndex === i && row.parentListId === item.parentListId)) return;
            // A position is the order's; a list is the link's own, so moving it to another list is a change of the link.
            const moved = row.parentListId !== item.parentListId ? { revision } : {};
            tx.update(links).set({ orderIndex: i, parentListId: item.parentListId, updatedAt: at, ...moved }).where(and(eq(links.id, item.id), eq(links.userId, user.id))).run();
          });
          if (lists) lists.forEach((listId, i) => reorderList(tx, user.id, listId, i, at));
          touchProfile(tx, user.id, at);
        });
        return c.json({ links: listLinks(db, user.id), lists: listLists(db, user.id), orderRevision: linksOrderRevision(db, user.id) });
      })
      // PATCH /api/links/:id - edit a link (the same fields and rules as adding one), based on its revision
      .patch("/:id", params(IdParamSchema), linkEditBody, (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { input, extras, revision: base } = c.req.valid("json");
        const at = now();
        const profile = getProfile(db, user.id);
        const updated = transaction(db, (tx) => {
          const existing = ownedLink(tx, user.id, id);
          expectRevision(existing, base);
          enforcePlan(planStateOf(profile), at, input, extras, existing);
          enforceOwnMedia(tx, user.id, input, extras);
          if (extras.parentListId) ownedList(tx, user.id, extras.parentListId);
          const revision = takeRevision(tx, user.id);
          const result = tx
            .update(links)
            .set({
              title: input.title,
              url: storedUrlFor(input, referralUrlOf(profile.referralId)),
              linkType: input.linkType,
              linkSpecificData: (input.data ?? {}) as Record<string, string>,
              ...(extras.thumbnailUrl !== undefined ? { thumbnailUrl: extras.thumbnailUrl || null } : {}),
              ...(extras.scheduleStartTime !== undefined ? { scheduleStartTime: toDate(extras.scheduleStartTime) } : {}),
              ...(extras.scheduleEndTime !== undefined ? { scheduleEndTime: toDate(extras.scheduleEndTime) } : {}),
              ...(extras.parentListId !== undefined ? { parentListId: extras.parentListId } : {}),
              ...(extras.isMainButton === false ? { isMainButton: false } : {}),
              updatedAt: at,
              revision,
            })
            .where(and(eq(links.id, id), eq(links.userId, user.id), eq(links.revision, base)))
            .run();
          expectChanged(result);
          if (extras.isMainButton && !existing.isMainButton) makeMainButton(tx, user.id, id, at, revision);
          else if (extras.parentListId !== undefined && extras.parentListId !== existing.parentListId) stampSection(tx, user.id, "linksOrder", revision);
          touchProfile(tx, user.id, at);
          return ownedLink(tx, user.id, id);
        });
        return c.json({ link: updated, orderRevision: linksOrderRevision(db, user.id), message: DASH.linkUpdated });
      })
      // PATCH /api/links/:id/visibility - show or hide a link (is_active), based on its revision
      .patch("/:id/visibility", params(IdParamSchema), jsonBody(withRevision(LinkVisibilitySchema)), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { isActive, revision: base } = c.req.valid("json");
        const at = now();
        const link = transaction(db, (tx) => {
          expectRevision(ownedLink(tx, user.id, id), base);
          const revision = takeRevision(tx, user.id);
          expectChanged(tx.update(links).set({ isActive, updatedAt: at, revision }).where(and(eq(links.id, id), eq(links.userId, user.id), eq(links.revision, base))).run());
          touchProfile(tx, user.id, at);
          return ownedLink(tx, user.id, id);
        });
        return c.json({ link, message: isActive ? DASH.linkActivated : DASH.linkHidden });
      })
      // PUT /api/links/:id/main - make a link the main button (Plus) or clear the flag, based on its revision
      .put("/:id/main", params(IdParamSchema), jsonBody(withRevision(MainButtonSchema)), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { isMainButton, revision: base } = c.req.valid("json");
        const at = now();
        const plan = planStateOf(getProfile(db, user.id));
        const link = transaction(db, (tx) => {
          const existing = ownedLink(tx, user.id, id);
          expectRevision(existing, base);
          if (isMainButton && !existing.isMainButton && effectivePlan(plan, at) === "lite") throw plusRequired("main_button");
          const revision = takeRevision(tx, user.id);
          if (isMainButton) makeMainButton(tx, user.id, id, at, revision);
          else tx.update(links).set({ isMainButton: false, updatedAt: at, revision }).where(and(eq(links.id, id), eq(links.userId, user.id))).run();
          touchProfile(tx, user.id, at);
          return ownedLink(tx, user.id, id);
        });
        return c.json({ link, orderRevision: linksOrderRevision(db, user.id) });
      })
      // DELETE /api/links/:id?revision= - delete a link, based on its revision
      .delete("/:id", params(IdParamSchema), query(RevisionQuerySchema), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { revision: base } = c.req.valid("query");
        const at = now();
        transaction(db, (tx) => {
          expectRevision(ownedLink(tx, user.id, id), base);
          expectChanged(tx.delete(links).where(and(eq(links.id, id), eq(links.userId, user.id), eq(links.revision, base))).run());
          stampSection(tx, user.id, "linksOrder", takeRevision(tx, user.id));
          // A deletion leaves no row to carry a newer updated_at: the profile carries it.
          touchProfile(tx, user.id, at);
        });
        return c.json({ ok: true, orderRevision: linksOrderRevision(db, user.id), message: DASH.linkDeleted });
      })
  );
}

function reorderList(tx: Db, userId: string, listId: string, orderIndex: number, at: Date): void {
  tx.update(linkLists).set({ orderIndex, updatedAt: at }).where(and(eq(linkLists.id, listId), eq(linkLists.userId, userId))).run();
}
