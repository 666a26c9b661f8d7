/**
 * A dropdown menu that loads Radix's menu when it is first opened (ADR 131). Until then its trigger
 * is a plain button that announces a closed menu; pressing it (pointer down, Enter, Space or the
 * down arrow, as Radix's trigger opens) loads the menu, which replaces the button already open.
 * Once loaded, every menu of the dashboard renders Radix's directly.
 */
import { cloneElement, useState, type KeyboardEvent, type PointerEvent, type ReactElement, type ReactNode } from "react";
import type { MenuProps } from "./menu-item.tsx";
import { loadOnce } from "./load-once.ts";

export type MenuParts = typeof import("./menu-item.tsx");
const menu = loadOnce(() => import("./menu-item.tsx"));

type TriggerProps = { onPointerDown?(e: PointerEvent<HTMLElement>): void; onKeyDown?(e: KeyboardEvent<HTMLElement>): void };

export function LazyMenu({ trigger, children, ...props }: Omit<MenuProps, "children" | "trigger"> & { trigger: ReactElement<TriggerProps>; children(parts: MenuParts): ReactNode }) {
  const [parts, setParts] = useState(menu.loaded);
  const [openedBy, setOpenedBy] = useState<"keyboard" | "pointer">();
  if (parts) {
    return (
      <parts.Menu {...props} trigger={trigger} openedBy={openedBy}>
        {children(parts)}
      </parts.Menu>
    );
  }
  function open(by: "keyboard" | "pointer") {
    menu.load().then(
      (p) => {
        setOpenedBy(by);
        setParts(p);
      },
      () => undefined,
    );
  }
  return cloneElement(trigger, {
    "aria-haspopup": "menu",
    "aria-expanded": false,
    "data-state": "closed",
    onPointerDown(e: PointerEvent<HTMLElement>) {
      if (e.button === 0 && !e.ctrlKey) open("pointer");
    },
    onKeyDown(e: KeyboardEvent<HTMLElement>) {
      if (e.key !== "Enter" && e.key !== " " && e.key !== "ArrowDown") return;
      e.preventDefault();
      open("keyboard");
    },
  } as TriggerProps);
}
