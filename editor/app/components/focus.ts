/** Where focus goes when a dialog closes (ADR 124). */
import { useRef } from "react";

/** The element that last took the focus, anywhere in the page (the dialogs' opener, ADR 124). */
let lastFocused: Element | null = null;
if (typeof document !== "undefined") document.addEventListener("focusin", (e) => (lastFocused = e.target as Element), true);
export const lastFocusedElement = () => lastFocused;

/**
 * Radix hands the focus back a moment after a dialog, popover or menu has gone. If the focus went to
 * a control meanwhile (a stale write's Reload offer, the owner's next click or field, a menu opened),
 * it stays there: this cancels the hand-back (`e`, Radix's close-autofocus event) and answers true.
 * The page itself is no control, nor is a dialog's own box, where Radix may put the focus that was
 * in a dialog closed above it.
 */
export function focusMovedOn(e: Event): boolean {
  const now = document.activeElement;
  if (!now || now === document.body || now.matches('[role="dialog"],[role="alertdialog"]')) return false;
  e.preventDefault();
  return true;
}

/** Where focus goes when a dialog closes, given the element that opened it (null: the dialog's default). */
export type FocusOnClose = (opener: HTMLElement | null) => HTMLElement | null | undefined;

/**
 * Focus after a dialog opened from a row's menu (a link, a social icon). Mark the row's menu button
 * with `data-row-menu`. When the dialog closes, focus goes back to that button, unless `removed()`
 * was called (the dialog deleted the row): then to the next row's menu button, else the previous
 * one, else `fallback` (the screen's Add button).
 */
export function useRowFocus(fallback: () => HTMLElement | null | undefined) {
  // The rows' menu buttons as they were when the row was removed: the list may re-render without
  // the row before the dialog has closed, and the neighbours are found from this order.
  const removedFrom = useRef<HTMLElement[] | null>(null);
  const onClose: FocusOnClose = (opener) => {
    const rows = removedFrom.current;
    removedFrom.current = null;
    if (!rows) return opener?.isConnected ? opener : fallback();
    const at = opener ? rows.indexOf(opener) : -1;
    if (at < 0) return fallback();
    const onPage = (list: HTMLElement[]) => list.find((el) => el.isConnected);
    return onPage(rows.slice(at + 1)) ?? onPage(rows.slice(0, at).reverse()) ?? fallback();
  };
  return {
    /** Call before closing the dialog whose work removed the row. */
    removed: () => {
      removedFrom.current = [...document.querySelectorAll<HTMLElement>("[data-row-menu]")];
    },
    onClose,
  };
}
