/**
 * The PLUS badge and the Plus-only mark. The badge's tooltip (Radix Tooltip with floating-ui, about
 * 14 KB gzip) loads the first time a pointer rests on a badge or a badge takes the focus, and then
 * every badge renders it (ADR 132). The tooltip repeats the badge's accessible name, so nothing is
 * announced later than before.
 */
import { useEffect, useRef, useState } from "react";
import { DASH } from "#core/dashboard-texts.ts";
import { useDashboard } from "../store.ts";
import { PlusTag } from "./plus-tag.tsx";
import { loadOnce } from "./load-once.ts";

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

const tooltip = loadOnce(() => import("./plus-tooltip.tsx"));

/** The PLUS badge: a button with docs/product.md's tooltip that opens the upgrade prompt for `feature`. */
export function PlusBadge({ feature }: { feature: string }) {
  const me = useDashboard((s) => s.me);
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  const tip = me?.plan.isTrialActive ? DASH.plusTooltipTrial : DASH.plusTooltip;
  const [part, setPart] = useState(tooltip.loaded);
  // Whether the badge was hovered or focused when the tooltip arrived: it then opens at once, and
  // the focus moves to the badge that replaces the plain one.
  const [arrived, setArrived] = useState<"hover" | "focus">();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (arrived === "focus") button.current?.focus();
  }, [arrived]);

  function wake(by: "hover" | "focus") {
    if (part) return;
    const el = button.current;
    tooltip.load().then(
      (p) => {
        const swap = () => {
          const still = by === "focus" ? el === document.activeElement : el?.matches(":hover");
          setArrived(still ? by : undefined);
          setPart(p);
        };
        // Not under a press: the badge that replaces this one would miss its click.
        if (!el?.matches(":active")) return swap();
        const after = () => {
          window.removeEventListener("pointerup", after);
          window.removeEventListener("keyup", after);
          setTimeout(swap);
        };
        window.addEventListener("pointerup", after);
        window.addEventListener("keyup", after);
      },
      () => undefined,
    );
  }

  const badge = (
    <button
      ref={button}
      type="button"
      onClick={(e) => {
        e.preventDefault();
        openUpgrade(feature);
      }}
      onPointerEnter={part ? undefined : () => wake("hover")}
      onFocus={part ? undefined : () => wake("focus")}
      aria-label={`PLUS: ${tip}`}
      className="inline-flex shrink-0 rounded"
    >
      <PlusTag />
    </button>
  );
  if (!part) return badge;
  return (
    <part.PlusTooltip tip={tip} defaultOpen={arrived === "hover"}>
      {badge}
    </part.PlusTooltip>
  );
}
