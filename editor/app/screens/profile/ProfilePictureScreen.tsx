/**
 * Profile Picture (/dashboard/profile-picture): the current picture (click to enlarge), choose a file
 * (checked here, then cropped, then checked again by the server), delete, the style (Picture,
 * Initials, Hidden), the picture's shape or full-width height, and the initials with their colour.
 * Style and shape changes save at once (docs/product.md section 4), each based on the picture revision on screen;
 * one refused because another tab changed the picture meanwhile brings the Reload offer (ADR 069).
 */
import { ImagePlus, Trash2 } from "lucide-react";
import { lazy, Suspense, useId, useRef, useState } from "react";
import type { Area } from "react-easy-crop";
import { toast } from "../../toast.tsx";
import { initialsOf, shownName } from "#core/initials.ts";
import { LIMITS } from "#core/limits.ts";
import type { PageProfile } from "#core/model.ts";
import { FULLWIDTH_ASPECTS, PICTURE_MESSAGES, type PictureShape } from "#core/profile.ts";
import { APPEARANCE_DEFAULTS, type FullwidthSubtype, type IconSubtype } from "#core/themes.ts";
import { api, unwrap } from "../../api.ts";
import { useStaleWrite } from "../../components/StaleWrite.tsx";
import { Button } from "../../components/button.tsx";
import { Confirm, Modal } from "../../components/modal.tsx";
import { EditorWithPreview } from "../../preview/EditorWithPreview.tsx";
import { afterProfileChange, saveProfileEdit, saveProfileSection, uploadFailureText } from "../../preview/save.ts";
import { useCurrentSnapshot, useProfileDraft } from "../../preview/store.ts";
import { RadioCards } from "../appearance/RadioCards.tsx";
import { usePickedPicture } from "./picked-picture.ts";
import { ScreenHeader, ScreenLoading } from "../ScreenHeader.tsx";

// The cropper (react-easy-crop) loads when the owner first picks a picture, not with the screen, and
// the cropping code with the first crop; the colour field when the Initials style is first shown.
const CropDialog = lazy(() => import("./CropDialog.tsx").then((m) => ({ default: m.CropDialog })));
const ColorField = lazy(() => import("../appearance/ColorField.tsx").then((m) => ({ default: m.ColorField })));

type StyleChoice = "picture" | "initials" | "hidden";

const ICON_SHAPES: { value: IconSubtype; label: string }[] = [
  { value: "rounded", label: "Circle" },
  { value: "rounded_corners", label: "Rounded" },
  { value: "square", label: "Square" },
];
const FULLWIDTH_HEIGHTS: { value: FullwidthSubtype; label: string; hint: string }[] = [
  { value: "portrait", label: "Portrait", hint: "Tall" },
  { value: "square", label: "Square", hint: "Medium" },
  { value: "landscape", label: "Landscape", hint: "Short" },
];
const SHAPE_CLASS: Record<IconSubtype, string> = { rounded: "rounded-full", rounded_corners: "rounded-2xl", square: "rounded-none" };
/** The same shapes at the size of a radio's swatch. */
const SWATCH_CLASS: Record<IconSubtype, string> = { rounded: "rounded-full", rounded_corners: "rounded-[5px]", square: "rounded-none" };

/** What the page shows for the chosen layout, and how to change it. */
function layoutNote(p: PageProfile, layout: PictureShape): string {
  if (!p.profilePictureUrl && !p.profilePictureFullwidthUrl) return "Until you choose a picture, your page shows your initials.";
  if (layout === "icon") return p.profilePictureUrl ? "Choose File to crop a new square picture." : "Until you choose a picture for this layout, your page shows your initials.";
  if (!p.profilePictureFullwidthUrl) return "Your page shows your icon picture until you choose a picture for the full-width layout: it is cropped at the height you pick.";
  return "A full-width picture is cropped at its height: after changing the height, choose the picture again to crop it anew.";
}

const styleChoiceOf = (p: PageProfile): StyleChoice => (p.profilePictureStyle === "initials" ? "initials" : p.profilePictureStyle === "hidden" ? "hidden" : "picture");
// The public page's initials, by the one function (ADR 143).
const initialsOfProfile = (p: PageProfile) => initialsOf(p.initialsText, shownName(p.displayName, p.username));

/** The picture the page shows for the current layout: each layout has its own crop; full width without one shows the icon. */
function shownPicture(p: PageProfile): { url: string; wide: boolean } | null {
  if (p.profilePictureStyle === "full_width" && p.profilePictureFullwidthUrl) return { url: p.profilePictureFullwidthUrl, wide: true };
  return p.profilePictureUrl ? { url: p.profilePictureUrl, wide: false } : null;
}

function CurrentPicture({ profile, onEnlarge }: { profile: PageProfile; onEnlarge(): void }) {
  const shape = SHAPE_CLASS[profile.profilePictureIconSubtype];
  const shown = shownPicture(profile);
  if (shown) {
    return (
      <button type="button" onClick={onEnlarge} className={`block overflow-hidden ${shown.wide ? "rounded-md" : shape}`} aria-label="Enlarge your profile picture">
        <img
          src={shown.url}
          alt="Your profile picture"
          className={shown.wide ? "h-28 w-auto max-w-48 object-cover" : "size-28 object-cover"}
          style={shown.wide ? { aspectRatio: String(FULLWIDTH_ASPECTS[profile.profilePictureFullwidthSubtype]) } : undefined}
          data-testid="current-picture"
        />
      </button>
    );
  }
  return (
    <div
      className="flex size-28 items-center justify-center rounded-full text-3xl font-bold text-white"
      style={{ background: profile.initialsBgColor || APPEARANCE_DEFAULTS.initialsBackgroundColor }}
      role="img"
      aria-label="No picture yet: your initials are shown"
    >
      {initialsOfProfile(profile)}
    </div>
  );
}

export default function ProfilePictureScreen() {
  const draft = useProfileDraft((s) => s.snapshot);
  const shown = useCurrentSnapshot();
  const [cropShape, setCropShape] = useState<PictureShape>("icon");
  const [cropHeight, setCropHeight] = useState<FullwidthSubtype>("portrait");
  const [uploading, setUploading] = useState(false);
  const [enlarged, setEnlarged] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [initials, setInitials] = useState<string | null>(null);
  const [initialsError, setInitialsError] = useState("");
  /** What the typed initials are based on: the picture revision and initials when typing began. */
  const initialsBase = useRef<{ revision: number; text: string } | null>(null);
  /** The picture revision when the crop dialog opened: the upload replaces what was shown then. */
  const [cropBase, setCropBase] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const crop = usePickedPicture(fileInput);
  const id = useId();
  const stale = useStaleWrite(async () => {
    await useProfileDraft.getState().load(true);
    const typed = initialsBase.current;
    if (typed === null) return;
    const now = useProfileDraft.getState();
    // Initials typed here stay unless the other tab changed them too; then its initials come in.
    if (now.snapshot?.profile.initialsText !== typed.text) {
      initialsBase.current = null;
      setInitials(null);
      useProfileDraft.getState().dropPending(["initialsText"]);
    } else {
      initialsBase.current = { revision: now.revisions.picture, text: typed.text };
    }
  });

  if (!draft || !shown) return <EditorWithPreview>{<ScreenLoading path="/dashboard/profile-picture" />}</EditorWithPreview>;
  const profile = shown.profile;
  const saved = draft.profile;
  const choice = styleChoiceOf(profile);
  const layout: PictureShape = profile.profilePictureStyle === "full_width" ? "full_width" : "icon";

  async function saveSettings(edit: Parameters<typeof saveProfileEdit<"picture-settings">>[1], base?: number) {
    try {
      const message = await saveProfileEdit("picture-settings", edit, base);
      toast.success(message ?? PICTURE_MESSAGES.styleUpdated);
      return true;
    } catch (err) {
      if (!stale.report(err)) toast.error(PICTURE_MESSAGES.styleFailed);
      return false;
    }
  }

  function chooseFile(file: File | undefined) {
    return crop.pick(file, () => {
      setCropShape(layout);
      setCropHeight(profile.profilePictureFullwidthSubtype);
      setCropBase(useProfileDraft.getState().revisions.picture);
    });
  }

  async function uploadCropped(area: Area) {
    if (!crop.src) return;
    setUploading(true);
    try {
      const { cropToJpeg } = await import("./crop-image.ts");
      const blob = await cropToJpeg(crop.src, area, cropShape, cropHeight);
      const file = new File([blob], "picture.jpg", { type: "image/jpeg" });
      await saveProfileSection("picture", cropBase, (revision) =>
        unwrap(api.profile.picture.$post({ form: { file, shape: cropShape, height: cropHeight, revision: String(revision) } })),
      );
      afterProfileChange();
      crop.close();
      toast.success(PICTURE_MESSAGES.uploaded);
    } catch (err) {
      if (stale.report(err)) return crop.close();
      const known = uploadFailureText(err);
      toast.error(known?.title ?? PICTURE_MESSAGES.uploadFailed, { description: known?.description ?? (known ? undefined : "Please try again.") });
    } finally {
      setUploading(false);
    }
  }

  async function removePicture() {
    try {
      await saveProfileSection("picture", useProfileDraft.getState().revisions.picture, (revision) => unwrap(api.profile.picture.$delete({ query: { revision: String(revision) } })));
      afterProfileChange();
      toast.success(PICTURE_MESSAGES.removed);
    } catch (err) {
      if (!stale.report(err)) toast.error(PICTURE_MESSAGES.removeFailed);
    } finally {
      setConfirmDelete(false);
    }
  }

  async function commitInitials() {
    if (initials === null) return;
    const { InitialsSchema } = await import("#core/schemas/profile.ts");
    const parsed = InitialsSchema.safeParse(initials);
    if (!parsed.success) {
      setInitialsError(parsed.error.issues[0]?.message ?? "");
      return;
    }
    setInitialsError("");
    const base = initialsBase.current;
    if (parsed.data === saved.initialsText) {
      initialsBase.current = null;
      setInitials(null);
      useProfileDraft.getState().dropPending(["initialsText"]);
      return;
    }
    setInitials(null);
    if (await saveSettings({ initialsText: parsed.data }, base?.revision)) {
      initialsBase.current = null;
    } else {
      // Refused: the typed initials go back in the field, to keep (or compare) after the Reload.
      setInitials(parsed.data);
      useProfileDraft.getState().setPending({ initialsText: parsed.data });
    }
  }

  const initialsValue = initials ?? profile.initialsText;

  return (
    <EditorWithPreview>
      <section aria-labelledby="screen-title">
        {stale.alert}
        <ScreenHeader path="/dashboard/profile-picture" />

        <div className="mt-6 flex flex-wrap items-center gap-4">
          <CurrentPicture profile={saved} onEnlarge={() => setEnlarged(true)} />
          <div className="flex flex-col gap-2">
            <input
              ref={fileInput}
              id={`${id}-file`}
              type="file"
              accept="image/jpeg,image/png,image/gif,image/webp"
              className="peer sr-only"
              onChange={(e) => void chooseFile(e.target.files?.[0])}
            />
            <label
              htmlFor={`${id}-file`}
              className="inline-flex min-h-10 cursor-pointer items-center gap-2 rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600"
            >
              <ImagePlus aria-hidden className="size-4" /> Choose File
            </label>
            {saved.profilePictureUrl || saved.profilePictureFullwidthUrl ? (
              <Button variant="secondary" onClick={() => setConfirmDelete(true)}>
                <Trash2 aria-hidden className="size-4" /> Delete
              </Button>
            ) : null}
            <p className="text-xs text-slate-600">JPG, PNG, GIF or WebP, up to {LIMITS.IMAGE_MAX_BYTES / (1024 * 1024)}MB.</p>
          </div>
        </div>

        <RadioCards<StyleChoice>
          legend="Style"
          name="picture-style"
          value={choice}
          options={[
            { value: "picture", label: "Picture" },
            { value: "initials", label: "Initials" },
            { value: "hidden", label: "Hidden" },
          ]}
          onChange={(v) => void saveSettings({ profilePictureStyle: v === "picture" ? (saved.profilePictureStyle === "full_width" ? "full_width" : "icon") : v })}
        />

        {choice === "picture" ? (
          <>
            <RadioCards<PictureShape>
              legend="Layout"
              name="picture-layout"
              value={layout}
              options={[
                { value: "icon", label: "Icon", hint: "A small picture above your name" },
                { value: "full_width", label: "Full width", hint: "A wide picture across the top" },
              ]}
              columns="grid-cols-1 sm:grid-cols-2"
              onChange={(v) => void saveSettings({ profilePictureStyle: v })}
            />
            {layout === "icon" ? (
              <RadioCards<IconSubtype>
                legend="Shape"
                name="picture-shape"
                value={profile.profilePictureIconSubtype}
                options={ICON_SHAPES.map((o) => ({ ...o, icon: <span aria-hidden className={`size-5 bg-slate-400 ${SWATCH_CLASS[o.value]}`} /> }))}
                onChange={(v) => void saveSettings({ profilePictureIconSubtype: v })}
              />
            ) : (
              <RadioCards<FullwidthSubtype>
                legend="Height"
                name="picture-height"
                value={profile.profilePictureFullwidthSubtype}
                options={FULLWIDTH_HEIGHTS}
                onChange={(v) => void saveSettings({ profilePictureFullwidthSubtype: v })}
              />
            )}
            <p className="mt-2 text-sm text-slate-600" data-testid="picture-layout-note">
              {layoutNote(saved, layout)}
            </p>
          </>
        ) : null}

        {choice === "initials" ? (
          <fieldset className="mt-6 grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-sm font-semibold">Initials</legend>
            <div>
              <label htmlFor={`${id}-initials`} className="block text-sm font-medium">
                Initials text
              </label>
              <input
                id={`${id}-initials`}
                value={initialsValue}
                maxLength={LIMITS.INITIALS_MAX}
                autoComplete="off"
                aria-invalid={initialsError ? true : undefined}
                aria-describedby={`${id}-initials-hint`}
                onChange={(e) => {
                  initialsBase.current ??= { revision: useProfileDraft.getState().revisions.picture, text: saved.initialsText };
                  setInitials(e.target.value);
                  setInitialsError("");
                  useProfileDraft.getState().setPending({ initialsText: e.target.value.toUpperCase() });
                }}
                onBlur={() => void commitInitials()}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    void commitInitials();
                  }
                }}
                className="mt-1 h-10 w-24 rounded-md border border-slate-300 px-2 text-lg font-semibold uppercase aria-invalid:border-red-600"
              />
              <p id={`${id}-initials-hint`} className={`mt-1 text-sm ${initialsError ? "text-red-700" : "text-slate-600"}`} role={initialsError ? "alert" : undefined}>
                {initialsError || `Up to ${LIMITS.INITIALS_MAX} letters. Empty uses the first letters of your name.`}
              </p>
            </div>
            <Suspense fallback={null}>
              <ColorField
                label="Initials colour"
                value={saved.initialsBgColor}
                fallback={APPEARANCE_DEFAULTS.initialsBackgroundColor}
                onPreview={(hex) => useProfileDraft.getState().setPending({ initialsBgColor: hex })}
                onRevert={() => useProfileDraft.getState().dropPending(["initialsBgColor"])}
                onCommit={(hex) => void saveSettings({ initialsBgColor: hex ?? APPEARANCE_DEFAULTS.initialsBackgroundColor })}
              />
            </Suspense>
          </fieldset>
        ) : null}
      </section>

      {crop.wanted ? (
        <Suspense fallback={null}>
          <CropDialog
            src={crop.src}
            shape={cropShape}
            fullwidthHeight={cropHeight}
            busy={uploading}
            onCancel={crop.close}
            onSave={(area) => void uploadCropped(area)}
            onUnreadable={crop.unreadable}
          />
        </Suspense>
      ) : null}

      <Modal open={enlarged} onOpenChange={setEnlarged} title="Profile picture">
        {shownPicture(saved) ? <img src={shownPicture(saved)!.url} alt="Your profile picture, enlarged" className="mx-auto w-full max-w-[400px] rounded-md" /> : null}
      </Modal>

      <Confirm
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Profile Picture"
        description="Your page will show your initials instead until you choose a new picture. This takes effect when you publish."
        confirm="Delete"
        danger
        onConfirm={() => void removePicture()}
      />
    </EditorWithPreview>
  );
}
