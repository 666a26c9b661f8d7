/**
 * Saving an edit of the profile: shown at once in the preview, sent to the API based on the revision
 * of its section (ADR 068), and replaced by the server's answer (or taken back if it failed). A Plus
 * gate opens the upgrade prompt.
 */
import type { PageProfile } from "#core/model.ts";
import type { AppearanceInput, PictureSettingsInput, ProfileTextInput } from "#core/schemas/profile.ts";
import { ApiFailure, api, unwrap } from "../api.ts";
import { versionedWrite } from "../revisions.ts";
import { useDashboard } from "../store.ts";
import { useProfileDraft, type ProfileSection } from "./store.ts";

type Edits = { text: ProfileTextInput; "picture-settings": PictureSettingsInput; appearance: AppearanceInput };
const SECTION: Record<keyof Edits, ProfileSection> = { text: "text", "picture-settings": "picture", appearance: "appearance" };

function send<K extends keyof Edits>(kind: K, edit: Edits[K], revision: number) {
  if (kind === "text") return unwrap(api.profile.text.$patch({ json: { ...(edit as ProfileTextInput), revision } }));
  if (kind === "picture-settings") return unwrap(api.profile["picture-settings"].$patch({ json: { ...(edit as PictureSettingsInput), revision } }));
  return unwrap(api.profile.appearance.$patch({ json: { ...(edit as AppearanceInput), revision } }));
}

/**
 * A write of a profile section, one at a time per section, based on `base` (ADR 069); the store takes
 * the answer's profile and revision.
 */
export async function saveProfileSection<T extends { profile: PageProfile; revision: number }>(section: ProfileSection, base: number, send: (revision: number) => Promise<T>): Promise<T> {
  const answer = await versionedWrite(`profile:${section}`, base, send, (a) => a.revision);
  useProfileDraft.getState().saved(answer.profile, section, answer.revision);
  return answer;
}

/** The draft changed: the status bar's Draft Changes, and the top bar's name and avatar, follow. */
export function afterProfileChange(): void {
  useDashboard.getState().edited();
  void useDashboard.getState().loadMe().catch(() => undefined);
}

/**
 * Resolves with the server's message (if any); throws an ApiFailure the caller turns into a toast or,
 * for a stale write, into the Reload offer. `base` is the section's revision the edit was based on:
 * by default the one on screen now.
 */
export async function saveProfileEdit<K extends keyof Edits>(kind: K, edit: Edits[K], base?: number): Promise<string | undefined> {
  const draft = useProfileDraft.getState();
  const section = SECTION[kind];
  const keys = Object.keys(edit) as (keyof PageProfile)[];
  draft.setPending(edit as Partial<PageProfile>);
  try {
    const body = (await saveProfileSection(section, base ?? draft.revisions[section], (revision) => send(kind, edit, revision))) as { profile: PageProfile; message?: string };
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
