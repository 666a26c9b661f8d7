/** The dropdown menus' item, in a module of its own so that only the menus load Radix's menu (ADR 123). */
import { DropdownMenu } from "radix-ui";
import type { ReactNode } from "react";

/** An item of a dropdown menu (a row's actions, the user menu). */
export function MenuItem({ onSelect, danger, children }: { onSelect(): void; danger?: boolean; children: ReactNode }) {
  return (
    <DropdownMenu.Item
      onSelect={onSelect}
      className={`flex cursor-pointer items-center gap-2 rounded px-3 py-2 text-sm outline-none ${danger ? "text-red-700 data-[highlighted]:bg-red-50" : "data-[highlighted]:bg-slate-100"}`}
    >
      {children}
    </DropdownMenu.Item>
  );
}
