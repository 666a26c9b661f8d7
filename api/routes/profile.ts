/**
 * The owner's profile as the Profile Picture, Bio & SEO and Theme screens edit it (spec sections 2,
 * 3, 5, 6 and 9). Every edit is a draft (it bumps the profile's updated_at) until published. Plus-only
 * choices are refused for Lite owners with 402 and details.feature, as the links routes do (ADR 061).
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
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
import type { Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { loadDraft } from "#renderer/draft.ts";
import { withPageLock } from "#renderer/publish.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError, plusRequired } from "../errors.ts";
import { currentUser } from "../auth/middleware.ts";
import { schemaJson } from "../services/json-input.ts";
import { getProfile, planStateOf } from "../services/profile.ts";
import { clearProfilePicture, invalidPicture, pictureTooLarge, processPicture, saveProfilePicture, sweepUnusedMedia } from "../services/uploads.ts";
import { mediaStorageFor } from "../storage/media.ts";

/** The one route whose body is not small JSON: api/app.ts leaves it to its own limit. */
export const PICTURE_UPLOAD_PATH = "/api/profile/picture";
export const isPictureUpload = (method: string, path: string) => method === "POST" && path === PICTURE_UPLOAD_PATH;

/** Room for the multipart envelope around a file of the largest allowed size. */
const MULTIPART_OVERHEAD = 16 * 1024;

/** The draft page, for the screens and the live preview. */
function draftView(db: Db, userId: string) {
  const draft = loadDraft(db, userId);
  if (!draft) throw new ApiError("not_found", "Profile not found");
  return draft;
}

/** 401 for a request without a session; the upload carries the spec's own words. */
async function signedIn(c: Context<AppEnv>, next: () => Promise<void>) {
  if (!c.get("user")) {
    throw new ApiError("unauthorized", isPictureUpload(c.req.method, c.req.path) ? PICTURE_MESSAGES.notSignedIn : "User not authenticated");
  }
  await next();
}

/** The upload's form: exactly one file, and the shape the crop dialog cut it to. */
const pictureForm = validator("form", (value): { file: File; shape: PictureShape } => {
  const file = (value as Record<string, unknown>).file;
  if (!(file instanceof File)) throw new ApiError("validation_failed", PICTURE_MESSAGES.invalidTypeText, { fields: { file: PICTURE_MESSAGES.invalidTypeText } });
  if (file.size > LIMITS.IMAGE_MAX_BYTES) throw pictureTooLarge();
  const fields = PictureUploadFieldsSchema.safeParse({ shape: (value as Record<string, unknown>).shape ?? undefined });
  if (!fields.success) throw new ApiError("validation_failed", "Please choose a picture shape", { fields: { shape: "Please choose a picture shape" } });
  return { file, shape: fields.data.shape };
});

export function profileRoutes({ db, env, now }: AppDeps) {
  const storage = mediaStorageFor(env);
  const fonts = () => ensureSharedAssets(env.PUBLISHED_DIR).fonts;

  /** Apply one screen's edit after the plan check; an edit that changes nothing leaves the draft alone. */
  function applyEdit(userId: string, edit: ProfileEdit) {
    const at = now();
    const current = getProfile(db, userId);
    if (effectivePlan(planStateOf(current), at) === "lite") {
      const feature = plusOnlyFeatureOf(edit, current);
      if (feature) throw plusRequired(feature);
    }
    const changed = Object.entries(edit).some(([k, v]) => v !== undefined && current[k as keyof typeof current] !== v);
    if (changed) db.update(userProfiles).set({ ...edit, updatedAt: at }).where(eq(userProfiles.userId, userId)).run();
    return draftView(db, userId).snapshot.profile;
  }

  return (
    new Hono<AppEnv>()
      .use(signedIn)
      // GET /api/profile - the draft page, the plan, the font files and the public origin: what the screens and the live preview draw
      .get("/", (c) => {
        const draft = draftView(db, currentUser(c).id);
        return c.json({ snapshot: draft.snapshot, plan: draft.plan, fonts: fonts(), origin: env.PUBLIC_ORIGIN });
      })
      // PATCH /api/profile/text - display name, bio, SEO title and description, long-form text
      .patch("/text", schemaJson(ProfileTextSchema), (c) => {
        const profile = applyEdit(currentUser(c).id, c.req.valid("json"));
        return c.json({ profile });
      })
      // PATCH /api/profile/picture-settings - style, shape, full-width height, initials and their colour
      .patch("/picture-settings", schemaJson(PictureSettingsSchema), (c) => {
        const profile = applyEdit(currentUser(c).id, c.req.valid("json"));
        return c.json({ profile, message: PICTURE_MESSAGES.styleUpdated });
      })
      // PATCH /api/profile/appearance - theme, colours, button style, social position, fonts, branding
      .patch("/appearance", schemaJson(AppearanceSchema), (c) => {
        const profile = applyEdit(currentUser(c).id, c.req.valid("json"));
        return c.json({ profile });
      })
      // POST /api/profile/picture - multipart {file, shape}: check, re-encode and store a new picture
      .post(
        "/picture",
        bodyLimit({
          maxSize: LIMITS.IMAGE_MAX_BYTES + MULTIPART_OVERHEAD,
          onError: () => {
            throw pictureTooLarge();
          },
        }),
        pictureForm,
        async (c) => {
          const user = currentUser(c);
          const { file, shape } = c.req.valid("form");
          let bytes: Uint8Array;
          try {
            bytes = new Uint8Array(await file.arrayBuffer());
          } catch {
            throw invalidPicture();
          }
          const picture = await processPicture(bytes, shape);
          await withPageLock(user.id, async () => {
            await saveProfilePicture(db, storage, user.id, picture, shape, now());
            await sweepUnusedMedia(db, storage, user.id, now());
          });
          return c.json({ profile: draftView(db, user.id).snapshot.profile, message: PICTURE_MESSAGES.uploaded }, 201);
        },
      )
      // DELETE /api/profile/picture - remove the picture (style back to icon, shape to rounded)
      .delete("/picture", async (c) => {
        const user = currentUser(c);
        await withPageLock(user.id, async () => {
          clearProfilePicture(db, user.id, now());
          await sweepUnusedMedia(db, storage, user.id, now());
        });
        return c.json({ profile: draftView(db, user.id).snapshot.profile, message: PICTURE_MESSAGES.removed });
      })
  );
}
