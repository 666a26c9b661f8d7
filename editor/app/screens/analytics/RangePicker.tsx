/**
 * The date-range control: presets and a custom range of days, the last day included. Its popover
 * (Radix's, with floating-ui) loads when the control is first pressed (ADR 131).
 */
import { CalendarDays } from "lucide-react";
import { cloneElement, useEffect, useState } from "react";
import { LIMITS } from "#core/limits.ts";
import { presetRange } from "#core/analytics.ts";
import { Button } from "../../components/button.tsx";
import { daysOf, labelOf, type Range } from "./range.ts";

type Popover = typeof import("./RangePopover.tsx")["RangePopover"];
let loaded: Popover | null = null;
const loadPopover = () => import("./RangePopover.tsx").then((m) => ((loaded = m.RangePopover), m));

const fromInput = (v: string) => {
  const [y, m, d] = v.split("-").map(Number);
  return new Date(y!, m! - 1, d!);
};

export function RangePicker({ range, onChange }: { range: Range; onChange(r: Range): void }) {
  const [open, setOpen] = useState(false);
  const [Loaded, setLoaded] = useState<Popover | null>(() => loaded);
  const [from, setFrom] = useState(daysOf(range).first);
  const [to, setTo] = useState(daysOf(range).last);
  const [error, setError] = useState("");
  useEffect(() => {
    setFrom(daysOf(range).first);
    setTo(daysOf(range).last);
  }, [range]);
  function preset(days: number) {
    onChange({ ...presetRange(days, new Date()), days });
    setOpen(false);
  }
  function apply(e: React.FormEvent) {
    e.preventDefault();
    if (!from || !to) return setError("Choose a start and an end date");
    const start = fromInput(from);
    const end = fromInput(to);
    if (end < start) return setError("The end date must be after the start date");
    setError("");
    onChange({ from: start, to: new Date(end.getFullYear(), end.getMonth(), end.getDate() + 1), days: null });
    setOpen(false);
  }
  const label = labelOf(range);
  const trigger = (
    <Button variant="secondary" aria-label={`Date range: ${label}`}>
      <CalendarDays aria-hidden className="size-4" />
      {label}
    </Button>
  );
  if (!Loaded) {
    // Until the popover is loaded, a button that announces it closed; pressing it loads and opens it.
    return cloneElement(trigger, {
      "aria-haspopup": "dialog",
      "aria-expanded": false,
      "data-state": "closed",
      onClick: () =>
        void loadPopover().then(
          (m) => {
            setLoaded(() => m.RangePopover);
            setOpen(true);
          },
          () => undefined,
        ),
    } as object);
  }
  return (
    <Loaded open={open} onOpenChange={setOpen} trigger={trigger}>
      <div className="flex flex-col gap-1" role="group" aria-label="Presets">
        {LIMITS.ANALYTICS_PRESET_DAYS.map((d) => (
          <Button key={d} variant={range.days === d ? "primary" : "ghost"} className="justify-start" onClick={() => preset(d)} aria-pressed={range.days === d}>
            Last {d} days
          </Button>
        ))}
      </div>
      <form onSubmit={apply} className="mt-3 border-t border-slate-200 pt-3" noValidate>
        <div className="grid grid-cols-2 gap-2">
          <label className="text-sm font-medium">
            From
            <input type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1 text-sm" />
          </label>
          <label className="text-sm font-medium">
            To
            <input type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1 text-sm" />
          </label>
        </div>
        {error ? <p className="mt-1 text-sm text-red-700">{error}</p> : null}
        <Button type="submit" className="mt-2 w-full">
          Apply
        </Button>
      </form>
    </Loaded>
  );
}
