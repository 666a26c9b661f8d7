/**
 * Unsaved typing is never lost without a word. A form with a Save button registers while it holds
 * changes that are not saved (useUnsavedChanges); the shell then holds every in-app navigation (the
 * sidebar, the mobile menu, the user menu, the browser's Back) behind "You have unsaved changes",
 * and a reload or a link out of the dashboard behind the browser's own prompt.
 */
import { useEffect } from "react";
import { useBlocker } from "react-router";
import { create } from "zustand";
import { DASH } from "#core/dashboard-texts.ts";
import { Confirm } from "../components/ui.tsx";

interface UnsavedState {
  /** The forms that hold unsaved changes, by name. */
  forms: ReadonlySet<string>;
  mark(form: string, dirty: boolean): void;
}

export const useUnsaved = create<UnsavedState>((set, get) => ({
  forms: new Set(),
  mark(form, dirty) {
    if (get().forms.has(form) === dirty) return;
    const forms = new Set(get().forms);
    if (dirty) forms.add(form);
    else forms.delete(form);
    set({ forms });
  },
}));

/** Says, while `dirty`, that the form named `form` holds changes its Save button has not saved. */
export function useUnsavedChanges(form: string, dirty: boolean): void {
  useEffect(() => {
    useUnsaved.getState().mark(form, dirty);
    return () => useUnsaved.getState().mark(form, false);
  }, [form, dirty]);
}

/** Whether any form holds unsaved changes right now. */
export const hasUnsavedChanges = () => useUnsaved.getState().forms.size > 0;

/** In the shell, inside the router: the one guard of the dashboard's navigation. */
export function UnsavedChangesGuard() {
  const dirty = useUnsaved((s) => s.forms.size > 0);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const blocked = blocker.state === "blocked";
  return (
    <Confirm
      open={blocked}
      onOpenChange={(open) => !open && blocked && blocker.reset()}
      title={DASH.unsavedTitle}
      description={DASH.unsavedBody}
      cancel="Stay"
      confirm="Leave"
      danger
      onConfirm={() => blocked && blocker.proceed()}
    />
  );
}
