/**
 * Unsaved typing is never lost without a word. A form with a Save button registers while it holds
 * changes that are not saved (useUnsavedChanges); the shell then holds every in-app navigation (the
 * sidebar, the mobile menu, the user menu, the browser's Back) behind "You have unsaved changes",
 * and a reload or a link out of the dashboard behind the browser's own prompt.
 */
import { useEffect, useState, type ReactNode } from "react";
import { create } from "zustand";
import { DASH } from "#core/dashboard-texts.ts";
import { type FocusOnClose } from "../components/focus.ts";
import { Confirm } from "../components/modal.tsx";
import { dashboardHistory } from "./guarded-history.ts";

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
  // The move the owner is asked about, made by Leave.
  const [held, setHeld] = useState<{ go(): void } | null>(null);

  useEffect(() => {
    if (!dirty) return;
    const history = dashboardHistory();
    history.setGate((from, to, go) => {
      if (from === to) return false;
      setHeld({ go });
      return true;
    });
    return () => history.setGate(null);
  }, [dirty]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  return (
    <UnsavedPrompt
      open={held !== null}
      onStay={() => setHeld(null)}
      onLeave={() => {
        setHeld(null);
        held?.go();
      }}
    />
  );
}

/** "You have unsaved changes": Stay (also Escape) keeps the form and returns the focus to what was chosen; Leave goes on. */
export function UnsavedPrompt({ open, onStay, onLeave, focusOnClose }: { open: boolean; onStay(): void; onLeave(): void; focusOnClose?: FocusOnClose }) {
  return (
    <Confirm
      focusOnClose={focusOnClose}
      open={open}
      onOpenChange={(o) => !o && open && onStay()}
      title={DASH.unsavedTitle}
      description={DASH.unsavedBody}
      cancel="Stay"
      confirm="Leave"
      danger
      onConfirm={onLeave}
    />
  );
}

/**
 * Tabs that unmount the tab they leave (Account & Billing): a move to another tab while a form of
 * the open one holds unsaved changes waits for Stay or Leave, like a move to another screen.
 */
export function useGuardedTab(initial: string): { tab: string; choose(next: string): void; prompt: ReactNode } {
  const [tab, setTab] = useState(initial);
  const [pending, setPending] = useState<string | null>(null);
  const choose = (next: string) => (next !== tab && hasUnsavedChanges() ? setPending(next) : setTab(next));
  const prompt = (
    <UnsavedPrompt
      open={pending !== null}
      // Back to the tab that stays open: focus on the chosen one would choose it again (tabs follow the focus).
      focusOnClose={(opener) => opener?.closest('[role="tablist"]')?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]') ?? opener}
      onStay={() => setPending(null)}
      onLeave={() => {
        if (pending !== null) setTab(pending);
        setPending(null);
      }}
    />
  );
  return { tab, choose, prompt };
}
