/**
 * The dialogs' Radix parts: the modal and the confirm dialog with the dialog stack (ADR 124), focus
 * return, scroll lock, and the question before a dialog with unsaved typing goes (ADR 140). `modal.tsx` loads this module when a dialog first opens (ADR 132); screens use
 * its `Modal` and `Confirm`.
 */
import { AlertDialog, Dialog } from "radix-ui";
import { X } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { DASH } from "#core/dashboard-texts.ts";
import { Button } from "./button.tsx";
import { focusMovedOn, lastFocusedElement, type FocusOnClose } from "./focus.ts";
import { type ConfirmProps, type ModalProps } from "./modal.tsx";

/**
 * The element that opens a dialog: the focused one, or, when that is an item of a dropdown menu
 * (which goes away with its menu), the button that opened the menu.
 */
function openerOf(focused: Element | null): HTMLElement | null {
  // A menu item that opened the dialog may already be gone with its menu (a navigation held by the
  // unsaved-changes guard), leaving the body focused: then the element that last had the focus.
  const active = focused && focused !== document.body ? focused : lastFocusedElement();
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  const menu = active.closest('[role="menu"][aria-labelledby]');
  const trigger = menu ? document.getElementById(menu.getAttribute("aria-labelledby")!) : null;
  return trigger ?? active;
}

/** Each open dialog's opener, by the dialog's box: the box Radix opened is the one it later closes. */
const openers = new WeakMap<EventTarget, HTMLElement | null>();

/**
 * Focus goes back to whatever opened the dialog when it closes. Radix returns it only to a
 * Dialog.Trigger, and these dialogs are opened from buttons and menu items of their own, so without
 * this a keyboard user would be left at the top of the page after Cancel or Escape. `resolve` may
 * choose another place (a deleted row's neighbour, see useRowFocus). Radix hands the focus back a
 * moment after the dialog has gone, when the same dialog may be open again: the opener is kept with
 * the box that closed, not with the component.
 */
function returnFocus(resolve?: FocusOnClose) {
  return {
    onOpenAutoFocus: (e: Event) => {
      if (e.target) openers.set(e.target, openerOf(document.activeElement));
    },
    onCloseAutoFocus: (e: Event) => {
      const from = (e.target && openers.get(e.target)) ?? null;
      // Resolved even when the focus stays where it went: a row's focus rule forgets its removed row here.
      const el = resolve ? resolve(from) : from;
      if (focusMovedOn(e)) return;
      if (el?.isConnected) {
        e.preventDefault();
        el.focus();
      }
    },
  };
}

/**
 * One layer of the dialog stack (ADR 124): a dialog's dimmed overlay and its box share one stacking
 * level, and a dialog opened later lies wholly above an earlier one (the Upgrade prompt over the Add
 * dialog), so the one below is dimmed and out of reach until the top one closes. Radix keeps the
 * focus in the top dialog and lets Escape close only that one.
 */
function DialogLayer({ children }: { children: ReactNode }) {
  return <div className="relative z-50">{children}</div>;
}

export function ModalBox({
  open,
  onOpenChange,
  title,
  description,
  children,
  returnFocusTo,
  focusOnClose,
  dirty = false,
}: ModalProps) {
  const focus = returnFocus(focusOnClose ?? ((opener) => (opener?.isConnected ? opener : returnFocusTo?.current)));
  // Escape, a click outside and Close all arrive here as a request to close: while the dialog holds
  // unsaved typing they ask first (ADR 140), on top of the dialog, which keeps everything meanwhile.
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!open) setAsking(false);
  }, [open]);
  // A request to close while the question is up answers it as Keep Editing. The question lies above
  // the dialog, but Radix learns the layers' new order in a later render: an Escape pressed in that
  // moment comes to the dialog, and would otherwise leave the question standing.
  const change = (next: boolean) => (!next && dirty ? setAsking(!asking) : onOpenChange(next));
  return (
    <Dialog.Root open={open} onOpenChange={change}>
      <Dialog.Portal>
        <DialogLayer>
          <Dialog.Overlay className="fixed inset-0 bg-black/40" />
          <Dialog.Content {...focus} className="fixed left-1/2 top-1/2 max-h-[90vh] w-[calc(100vw-1rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-5 shadow-xl">
            <div className="mb-4 flex items-start justify-between gap-4">
              <div>
                <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
                {description ? <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description> : <Dialog.Description className="sr-only">{title}</Dialog.Description>}
              </div>
              <Dialog.Close className="rounded p-1 text-slate-500 hover:bg-slate-100" aria-label="Close">
                <X aria-hidden className="size-5" />
              </Dialog.Close>
            </div>
            {children}
            <ConfirmBox
              open={asking}
              onOpenChange={(o) => !o && setAsking(false)}
              title={DASH.unsavedTitle}
              description={DASH.dialogUnsavedBody}
              cancel={DASH.keepEditing}
              confirm={DASH.discardChanges}
              danger
              onConfirm={() => {
                setAsking(false);
                onOpenChange(false);
              }}
            />
          </Dialog.Content>
        </DialogLayer>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function ConfirmBox(props: ConfirmProps) {
  const focus = returnFocus(props.focusOnClose);
  return (
    <AlertDialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <AlertDialog.Portal>
        <DialogLayer>
          <AlertDialog.Overlay className="fixed inset-0 bg-black/40" />
          <AlertDialog.Content {...focus} className="fixed left-1/2 top-1/2 w-[calc(100vw-1rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-5 shadow-xl">
            <AlertDialog.Title className="text-lg font-semibold">{props.title}</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-slate-600">{props.description}</AlertDialog.Description>
            {props.children}
            <div className="mt-5 flex flex-wrap justify-end gap-2">
              <AlertDialog.Cancel asChild>
                <Button variant="secondary">{props.cancel ?? "Cancel"}</Button>
              </AlertDialog.Cancel>
              <Button variant={props.danger ? "danger" : "primary"} disabled={props.busy} onClick={props.onConfirm}>
                {props.confirm}
              </Button>
            </div>
          </AlertDialog.Content>
        </DialogLayer>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

