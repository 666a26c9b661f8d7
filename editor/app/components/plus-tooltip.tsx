/**
 * The PLUS badge's tooltip: Radix Tooltip and its positioning (floating-ui). Loaded by
 * `plus-badge.tsx` the first time a pointer rests on a badge or a badge takes the focus (ADR 132).
 */
import { Tooltip } from "radix-ui";
import type { ReactElement } from "react";

export function PlusTooltip({ tip, defaultOpen, children }: { tip: string; defaultOpen: boolean; children: ReactElement }) {
  return (
    <Tooltip.Provider delayDuration={200}>
      <Tooltip.Root defaultOpen={defaultOpen}>
        <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content sideOffset={4} className="z-50 max-w-xs rounded bg-slate-900 px-2 py-1 text-xs text-white">
            {tip}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
