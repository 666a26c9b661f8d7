/**
 * The draft page the three appearance screens edit and the live preview draws. The saved draft comes
 * from the API; `pending` holds what the owner is typing and has not saved yet, `tryOn` the Plus-only
 * choices a Lite owner is looking at (never saved). The preview draws all three, in that order.
 */
import { useMemo } from "react";
import { create } from "zustand";
import type { PagePlan, PageProfile, PageSnapshot } from "#core/model.ts";
import { api, unwrap } from "../api.ts";

/** The profile's sections the screens edit, each with its own revision (ADR 068). */
export type ProfileSection = "text" | "picture" | "appearance";
export type ProfileRevisions = Record<ProfileSection, number>;

export interface ProfileDraftState {
  snapshot: PageSnapshot | null;
  plan: PagePlan | null;
  fonts: Record<string, string[]>;
  /** Where the published page lives (its absolute links are built from it). */
  origin: string;
  failed: boolean;
  /** The revision of each section in `snapshot`: what a save is based on. */
  revisions: ProfileRevisions;
  pending: Partial<PageProfile>;
  tryOn: Partial<PageProfile>;
  /** Loads the draft; with `strict`, a failure is thrown (a Reload says it failed) instead of kept quiet. */
  load(strict?: boolean): Promise<void>;
  /** The profile as the server answered after a save of `section`, and the section's new revision. */
  saved(profile: PageProfile, section: ProfileSection, revision: number): void;
  setPending(values: Partial<PageProfile>): void;
  dropPending(keys: (keyof PageProfile)[]): void;
  clearPending(): void;
  setTryOn(values: Partial<PageProfile>): void;
  dropTryOn(keys: (keyof PageProfile)[]): void;
  clearTryOn(): void;
}

/** Saves answered so far: a draft loaded across a save is stale and dropped. */
let savedCount = 0;

export const useProfileDraft = create<ProfileDraftState>((set, get) => ({
  snapshot: null,
  plan: null,
  fonts: {},
  origin: "",
  failed: false,
  revisions: { text: 0, picture: 0, appearance: 0 },
  pending: {},
  tryOn: {},
  async load(strict = false) {
    const before = savedCount;
    try {
      const body = await unwrap(api.profile.$get());
      // A save answered while this was on its way, so this answer may predate it: ask again.
      if (savedCount !== before) return get().load(strict);
      set({ snapshot: body.snapshot as PageSnapshot, plan: body.plan as PagePlan, fonts: body.fonts, origin: body.origin, revisions: body.revisions, failed: false });
    } catch (err) {
      if (!get().snapshot) set({ failed: true });
      if (strict) throw err;
    }
  },
  saved(profile, section, revision) {
    savedCount++;
    const s = get().snapshot;
    if (s) set({ snapshot: { ...s, profile }, revisions: { ...get().revisions, [section]: revision } });
  },
  setPending(values) {
    set((st) => ({ pending: { ...st.pending, ...values } }));
  },
  dropPending(keys) {
    set((st) => {
      const pending = { ...st.pending };
      for (const k of keys) delete pending[k];
      return { pending };
    });
  },
  clearPending() {
    set({ pending: {} });
  },
  setTryOn(values) {
    set((st) => ({ tryOn: { ...st.tryOn, ...values } }));
  },
  dropTryOn(keys) {
    set((st) => {
      const tryOn = { ...st.tryOn };
      for (const k of keys) delete tryOn[k];
      return { tryOn };
    });
  },
  clearTryOn() {
    set({ tryOn: {} });
  },
}));

/** The page as the owner sees it right now: saved draft, then unsaved edits, then try-ons. */
export function currentSnapshot(st: Pick<ProfileDraftState, "snapshot" | "pending" | "tryOn">): PageSnapshot | null {
  if (!st.snapshot) return null;
  return { ...st.snapshot, profile: { ...st.snapshot.profile, ...st.pending, ...st.tryOn } };
}

/** currentSnapshot as a hook: each part is selected on its own, so the result only changes with them. */
export function useCurrentSnapshot(): PageSnapshot | null {
  const snapshot = useProfileDraft((s) => s.snapshot);
  const pending = useProfileDraft((s) => s.pending);
  const tryOn = useProfileDraft((s) => s.tryOn);
  return useMemo(() => currentSnapshot({ snapshot, pending, tryOn }), [snapshot, pending, tryOn]);
}
