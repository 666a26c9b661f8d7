/** A list row's actions menu, in a module of its own so that only the lists load its icon (ADR 131). */
import { MoreVertical } from "lucide-react";
import type { ReactNode } from "react";
import { LazyMenu, type MenuParts } from "./lazy-menu.tsx";

/** The actions menu at the end of a list's row; `data-row-menu` lets focus find it after a dialog (useRowFocus). */
export function RowMenu({ label, className, children }: { label: string; className: string; children(parts: MenuParts): ReactNode }) {
  return (
    <LazyMenu
      align="end"
      className={`z-50 rounded-md border border-slate-200 bg-white p-1 shadow-lg ${className}`}
      trigger={
        <button type="button" data-row-menu className="rounded p-1 hover:bg-slate-100" aria-label={label}>
          <MoreVertical aria-hidden className="size-5" />
        </button>
      }
    >
      {children}
    </LazyMenu>
  );
}
