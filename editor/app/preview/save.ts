/**
 * Saving an edit of the profile: shown at once in the preview, sent to the API, and replaced by the
 * server's answer (or taken back if it failed). A Plus gate opens the upgrade prompt.
 */
import type { PageProfile } from "#core/model.ts";
import type { AppearanceInput, PictureSettingsInput, ProfileTextInput } from "#core/schemas/profile.ts";
import { ApiFailure, api, unwrap } from "../api.ts";
import { useDashboard } from "../store.ts";
import { useProfileDraft } from "./store.ts";

type Edits = { text: ProfileTextInput; "picture-settings": PictureSettingsInput; appearance: AppearanceInput };

function send<K extends keyof Edits>(kind: K, edit: Edits[K]) {
  if (kind === "text") return unwrap(api.profile.text.$patch({ json: edit as ProfileTextInput }));
  if (kind === "picture-settings") return unwrap(api.profile["picture-settings"].$patch({ json: edit as PictureSettingsInput }));
  return unwrap(api.profile.appearance.$patch({ json: edit as AppearanceInput }));
}

/** The draft changed: the status bar's Draft Changes, and the top bar's name and avatar, follow. */
export function afterProfileChange(): void {
  useDashboard.getState().edited();
  void useDashboard.getState().loadMe().catch(() => undefined);
}

/** Resolves with the server's message (if any); throws an ApiFailure the caller turns into a toast. */
export async function saveProfileEdit<K extends keyof Edits>(kind: K, edit: Edits[K]): Promise<string | undefined> {
  const draft = useProfileDraft.getState();
  const keys = Object.keys(edit) as (keyof PageProfile)[];
  draft.setPending(edit as Partial<PageProfile>);
  try {
    const body = (await send(kind, edit)) as { profile: PageProfile; message?: string };
    useProfileDraft.getState().saved(body.profile);
    useProfileDraft.getState().dropPending(keys);
    afterProfileChange();
    return body.message;
  } catch (err) {
    useProfileDraft.getState().dropPending(keys);
    if (err instanceof ApiFailure && err.status === 402) useDashboard.getState().openUpgrade(err.details.feature ?? "seo_settings");
    throw err;
  }
}

/** The toast for a profile picture upload or removal after the server answered. */
export function uploadFailureText(err: unknown): { title: string; description?: string } | null {
  if (!(err instanceof ApiFailure) || err.status === 0 || err.status >= 500) return null;
  const description = typeof err.details.description === "string" ? err.details.description : undefined;
  return { title: err.message, description };
}
