/**
 * The dropdown menus' Radix parts, loaded by `lazy-menu.tsx` when a menu is first opened, so that no
 * screen loads Radix's menu, its popper and floating-ui before the owner asks for a menu (ADR 131).
 */
import { DropdownMenu } from "radix-ui";
import { useEffect, useRef, type ReactElement, type ReactNode } from "react";
import { focusMovedOn } from "./focus.ts";

/** An item of a dropdown menu (a row's actions, the user menu, the export menu). */
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

export function MenuSeparator() {
  return <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />;
}

export interface MenuProps {
  /** The button that opens the menu. */
  trigger: ReactElement;
  align?: "start" | "center" | "end";
  sideOffset?: number;
  className: string;
  children: ReactNode;
}

/**
 * A non-modal dropdown menu. `openedBy` is set when the menu replaces the button that stood in for
 * its trigger (lazy-menu.tsx) because the owner pressed it: a pointer mounts the menu open; a key
 * hands the trigger the down arrow, so that Radix opens it from the keyboard as always and the
 * first item takes the focus.
 */
export function Menu({ trigger, align, sideOffset, className, children, openedBy }: MenuProps & { openedBy?: "keyboard" | "pointer" }) {
  const triggerRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // After Radix's own effects, so that its menu sees the key as keyboard use.
    if (openedBy !== "keyboard" || !triggerRef.current) return;
    triggerRef.current.focus();
    triggerRef.current.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowDown", bubbles: true, cancelable: true }));
  }, [openedBy]);
  return (
    <DropdownMenu.Root modal={false} defaultOpen={openedBy === "pointer"}>
      <DropdownMenu.Trigger ref={triggerRef} asChild>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content onCloseAutoFocus={focusMovedOn} align={align} sideOffset={sideOffset} className={className}>
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
