/** The date-range control's Radix popover, loaded when the control is first opened (RangePicker.tsx, ADR 131). */
import { Popover } from "radix-ui";
import type { ReactElement, ReactNode } from "react";
import { focusMovedOn } from "../../components/focus.ts";

export function RangePopover({ open, onOpenChange, trigger, children }: { open: boolean; onOpenChange(open: boolean): void; trigger: ReactElement; children: ReactNode }) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Popover.Portal>
        <Popover.Content onCloseAutoFocus={focusMovedOn} align="end" sideOffset={6} className="z-50 w-72 max-w-[calc(100vw-1rem)] rounded-md border border-slate-200 bg-white p-3 shadow-lg">
          {children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
