/**
 * The dialogs: Modal and Confirm. Their Radix parts are in dialog.tsx, loaded on first opening.
 */
import { useEffect, useState, type ReactNode, type RefObject } from "react";
import type { FocusOnClose } from "./focus.ts";
import { loadOnce } from "./load-once.ts";

export type ModalProps = {
  open: boolean;
  onOpenChange(o: boolean): void;
  title: string;
  description?: string;
  children: ReactNode;
  /** Where focus goes on close when the button that opened the dialog is no longer on the page. */
  returnFocusTo?: RefObject<HTMLElement | null>;
  /** Where focus goes on close, chosen by the screen (overrides returnFocusTo). */
  focusOnClose?: FocusOnClose;
  /**
   * The dialog holds what the owner typed or chose and has not saved: Escape, a click outside and
   * Close then ask before it goes (ADR 140). The dialog's own Cancel still closes at once.
   */
  dirty?: boolean;
};

export type ConfirmProps = {
  open: boolean;
  onOpenChange(o: boolean): void;
  title: string;
  description: string;
  /** The button that leaves things as they are: Cancel unless named. */
  cancel?: string;
  confirm: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  /** Where focus goes on close, chosen by the screen; by default back to the opener. */
  focusOnClose?: FocusOnClose;
  /** More to read before confirming, under the description (a list of what the action changes). */
  children?: ReactNode;
};

/**
 * The dialogs' Radix parts (the dialog stack, focus trap and scroll lock, about 12 KB gzip) load
 * when a dialog of the page first opens (ADR 132); from then on every dialog renders them, closed
 * or open, so focus returns and the stack behave as before.
 */
type DialogParts = typeof import("./dialog.tsx");
const dialogs = loadOnce(() => import("./dialog.tsx"));

function useDialogParts(open: boolean): DialogParts | null {
  const [parts, setParts] = useState(dialogs.loaded);
  useEffect(() => {
    if (open && !parts) dialogs.load().then((p) => setParts(() => p), () => undefined);
  }, [open, parts]);
  return parts;
}

export function Modal(props: ModalProps) {
  const parts = useDialogParts(props.open);
  return parts ? <parts.ModalBox {...props} /> : null;
}

export function Confirm(props: ConfirmProps) {
  const parts = useDialogParts(props.open);
  return parts ? <parts.ConfirmBox {...props} /> : null;
}
