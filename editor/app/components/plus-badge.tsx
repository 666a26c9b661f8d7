/**
 * The PLUS badge and the Plus-only mark, with the badge's tooltip (Radix Tooltip and its
 * positioning). A module of their own so that only the screens that show them load the tooltip
 * (ADR 123).
 */
import { Tooltip } from "radix-ui";
import { DASH } from "#core/dashboard-texts.ts";
import { useDashboard } from "../store.ts";
import { PlusTag } from "./ui.tsx";

/**
 * A Plus-only item on a Lite owner's draft (ADR 112): the PLUS badge and the words saying the item
 * is not on the live page. Shown only once the trial is over; the caller decides which items need
 * Plus with the publish gate's own functions (core/publish-gate.ts), so mark and refusal agree.
 */
export function PlusMark({ feature }: { feature: string }) {
  const me = useDashboard((s) => s.me);
  if (me?.plan.effectivePlan !== "lite") return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-1.5 gap-y-0.5" data-testid="plus-mark">
      <PlusBadge feature={feature} />
      <span className="whitespace-nowrap text-xs font-medium text-amber-900">{DASH.notOnLivePage}</span>
    </span>
  );
}

/** The PLUS badge: a button with the spec's tooltip that opens the upgrade prompt for `feature`. */
export function PlusBadge({ feature }: { feature: string }) {
  const me = useDashboard((s) => s.me);
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  const tip = me?.plan.isTrialActive ? DASH.plusTooltipTrial : DASH.plusTooltip;
  return (
    <Tooltip.Provider delayDuration={200}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <button
            type="button"
            onClick={(e) => {
              e.preventDefault();
              openUpgrade(feature);
            }}
            aria-label={`PLUS: ${tip}`}
            className="inline-flex shrink-0 rounded"
          >
            <PlusTag />
          </button>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content sideOffset={4} className="z-50 max-w-xs rounded bg-slate-900 px-2 py-1 text-xs text-white">
            {tip}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
