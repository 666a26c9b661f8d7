/**
 * The owner's profile as the Profile Picture, Bio & SEO and Theme screens edit it (docs/product.md sections 2,
 * 3, 5, 6 and 9). Every edit is a draft (it bumps the profile's updated_at) until published. Plus-only
 * choices are refused for Lite owners with 402 and details.feature, as the links routes do (ADR 061).
 */
import { Hono, type Context } from "hono";
import { validator } from "hono/validator";
import { eq } from "drizzle-orm";
import { LIMITS } from "#core/limits.ts";
import { effectivePlan } from "#core/plans.ts";
import {
  AppearanceSchema,
  PICTURE_MESSAGES,
  PictureSettingsSchema,
  PictureUploadFieldsSchema,
  plusOnlyFeatureOf,
  ProfileTextSchema,
  type PictureShape,
  type ProfileEdit,
} from "#core/schemas/profile.ts";
import { PROFILE_MESSAGES } from "#core/profile.ts";
import { RevisionQuerySchema, RevisionTextSchema, withRevision } from "#core/schemas/revision.ts";
import { TEXT_MESSAGES } from "#core/text-rule.ts";
import type { FullwidthSubtype } from "#core/themes.ts";
import { transaction, type Db } from "#db/client.ts";
import { sectionRevision } from "#db/revisions.ts";
import { userProfiles } from "#db/schema.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { loadDraft } from "#renderer/draft.ts";
import { longFormProblem } from "#renderer/markdown.ts";
import { withPageLock } from "#renderer/publish.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError, plusRequired } from "../errors.ts";
import { currentUser } from "../auth/middleware.ts";
import { uploadBodyLimit, uploadedBytes } from "../body-limit.ts";
import { schemaJson } from "../services/json-input.ts";
import { getProfile, planStateOf } from "../services/profile.ts";
import { claimSection, revisionRequired, staleWrite } from "../services/revisions.ts";
import { query } from "../validate.ts";
import { clearProfilePicture, invalidPicture, pictureTooLarge, processPicture, saveProfilePicture, sweepUnusedMedia } from "../services/uploads.ts";
import { mediaStorageFor } from "../storage/media.ts";

/** The one route whose body is not small JSON: api/app.ts leaves it to its own limit. */
export const isPictureUpload = (method: string, path: string) => method === "POST" && path === "/api/profile/picture";

/** The draft page, for the screens and the live preview. */
function draftView(db: Db, userId: string) {
  const draft = loadDraft(db, userId);
  if (!draft) throw new ApiError("not_found", "Profile not found");
  return draft;
}

/** 401 for a request without a session; the upload carries docs/product.md's own words. */
async function signedIn(c: Context<AppEnv>, next: () => Promise<void>) {
  if (!c.get("user")) {
    throw new ApiError("unauthorized", isPictureUpload(c.req.method, c.req.path) ? PICTURE_MESSAGES.notSignedIn : "User not authenticated");
  }
  await next();
}

/** The upload's form: exactly one file, the shape (and full-width height) the crop dialog cut it to, and the picture revision it replaces. */
const pictureForm = validator("form", (value): { file: File; shape: PictureShape; height: FullwidthSubtype; revision: number } => {
  const file = (value as Record<string, unknown>).file;
  if (!(file instanceof File)) throw new ApiError("validation_failed", PICTURE_MESSAGES.invalidTypeText, { fields: { file: PICTURE_MESSAGES.invalidTypeText } });
  if (file.size > LIMITS.IMAGE_MAX_BYTES) throw pictureTooLarge();
  const form = value as Record<string, unknown>;
  const fields = PictureUploadFieldsSchema.safeParse({ shape: form.shape ?? undefined, height: form.height ?? undefined });
  if (!fields.success) {
    const field = fields.error.issues[0]?.path[0] === "height" ? "height" : "shape";
    const message = `Please choose a picture ${field}`;
    throw new ApiError("validation_failed", message, { fields: { [field]: message } });
  }
  const revision = RevisionTextSchema.safeParse((value as Record<string, unknown>).revision);
  if (!revision.success) throw revisionRequired();
  return { file, shape: fields.data.shape, height: fields.data.height, revision: revision.data };
});

/** Which profile section each screen's edit belongs to (ADR 068): each is compared on its own. */
type EditSection = "text" | "picture" | "appearance";

const LONG_FORM_REFUSALS = { invisible: TEXT_MESSAGES.invisible, too_deep: PROFILE_MESSAGES.longFormTooDeep, too_many_items: PROFILE_MESSAGES.longFormTooManyItems } as const;

/** Long-form text the page can draw whole: refused with a field message otherwise (issue 35). */
function assertLongFormReadable(text: string): void {
  const problem = longFormProblem(text);
  if (problem) throw new ApiError("validation_failed", LONG_FORM_REFUSALS[problem], { fields: { longFormText: LONG_FORM_REFUSALS[problem] } });
}

export function profileRoutes({ db, env, now, target }: AppDeps) {
  const storage = mediaStorageFor(env, target);
  const fonts = () => ensureSharedAssets(env.PUBLISHED_DIR).fonts;

  /**
   * Apply one screen's edit, based on its section's revision, after the plan check; an edit that
   * changes nothing leaves the draft (and the revision) alone. Answers the profile and the section's
   * revision now.
   */
  function applyEdit(userId: string, section: EditSection, { revision: base, ...edit }: ProfileEdit & { revision: number }) {
    const at = now();
    const revision = transaction(db, (tx) => {
      const current = getProfile(tx, userId);
      if (sectionRevision(current, section) !== base) throw staleWrite();
      if (effectivePlan(planStateOf(current), at) === "lite") {
        const feature = plusOnlyFeatureOf(edit, current);
        if (feature) throw plusRequired(feature);
      }
      const changed = Object.entries(edit).some(([k, v]) => v !== undefined && current[k as keyof typeof current] !== v);
      if (!changed) return base;
      const next = claimSection(tx, userId, section, base);
      tx.update(userProfiles).set({ ...edit, updatedAt: at }).where(eq(userProfiles.userId, userId)).run();
      return next;
    });
    return { profile: draftView(db, userId).snapshot.profile, revision };
  }

  return (
    new Hono<AppEnv>()
      .use(signedIn)
      // GET /api/profile - the draft page, the plan, the font files, the public origin (what the screens
      // and the live preview draw) and the revision of each section the screens edit
      .get("/", (c) => {
        const userId = currentUser(c).id;
        const draft = draftView(db, userId);
        const p = getProfile(db, userId);
        const revisions = { text: p.textRevision, picture: p.pictureRevision, appearance: p.appearanceRevision };
        return c.json({ snapshot: draft.snapshot, plan: draft.plan, fonts: fonts(), origin: env.PUBLIC_ORIGIN, revisions });
      })
      // PATCH /api/profile/text - display name, bio, SEO title and description, long-form text
      .patch("/text", schemaJson(withRevision(ProfileTextSchema)), (c) => {
        const edit = c.req.valid("json");
        // Parsed here, once per save, and kept for the previews and renders that follow (ADR 148).
        if (edit.longFormText !== undefined) assertLongFormReadable(edit.longFormText);
        return c.json(applyEdit(currentUser(c).id, "text", edit));
      })
      // PATCH /api/profile/picture-settings - style, shape, full-width height, initials and their colour
      .patch("/picture-settings", schemaJson(withRevision(PictureSettingsSchema)), (c) => {
        return c.json({ ...applyEdit(currentUser(c).id, "picture", c.req.valid("json")), message: PICTURE_MESSAGES.styleUpdated });
      })
      // PATCH /api/profile/appearance - theme, colours, button style, social position, fonts, branding
      .patch("/appearance", schemaJson(withRevision(AppearanceSchema)), (c) => {
        return c.json(applyEdit(currentUser(c).id, "appearance", c.req.valid("json")));
      })
      // POST /api/profile/picture - multipart {file, shape, height, revision}: check, re-encode and
      // store a new picture for that layout (a full-width one at its height), based on the picture revision
      .post(
        "/picture",
        uploadBodyLimit(LIMITS.IMAGE_MAX_BYTES, pictureTooLarge),
        pictureForm,
        async (c) => {
          const user = currentUser(c);
          const { file, shape, height, revision: base } = c.req.valid("form");
          // Early, to spare the decoding; saveProfilePicture compares again as it writes.
          if (getProfile(db, user.id).pictureRevision !== base) throw staleWrite();
          const picture = await processPicture(await uploadedBytes(file, invalidPicture), shape, height);
          const revision = await withPageLock(user.id, async () => {
            const saved = await saveProfilePicture(db, storage, user.id, picture, shape, now(), base, height);
            await sweepUnusedMedia(db, storage, user.id, now());
            return saved;
          });
          return c.json({ profile: draftView(db, user.id).snapshot.profile, revision, message: PICTURE_MESSAGES.uploaded }, 201);
        },
      )
      // DELETE /api/profile/picture?revision= - remove the picture (style back to icon, shape to
      // rounded), based on the picture revision
      .delete("/picture", query(RevisionQuerySchema), async (c) => {
        const user = currentUser(c);
        const { revision: base } = c.req.valid("query");
        const revision = await withPageLock(user.id, async () => {
          const cleared = clearProfilePicture(db, user.id, now(), base);
          await sweepUnusedMedia(db, storage, user.id, now());
          return cleared;
        });
        return c.json({ profile: draftView(db, user.id).snapshot.profile, revision, message: PICTURE_MESSAGES.removed });
      })
  );
}
