/**
 * A labelled group of native radio buttons drawn as cards: the whole card is the label, so a click
 * anywhere on it chooses; arrow keys move as in any radio group; the focused card shows a ring and
 * the chosen one its border, tint and a filled dot. Every radio group of the dashboard uses it.
 */
import { useRef, type ReactNode } from "react";

export interface RadioOption<V extends string> {
  value: V;
  label: string;
  hint?: string;
  icon?: ReactNode;
  /** Beside the card, outside its label (a PLUS badge, which is a button of its own). */
  badge?: ReactNode;
  /**
   * Drawn as not available on this plan; still a radio, so arrow keys reach it. Arrowing onto it
   * only moves the focus (the choice stays); a click or Space on it calls onChange.
   */
  locked?: boolean;
}

export function RadioCards<V extends string>(props: {
  legend: ReactNode;
  /** Keep the legend for assistive technology only (a dialog whose title already says it). */
  legendHidden?: boolean;
  name: string;
  value: V | null;
  options: readonly RadioOption<V>[];
  onChange(value: V): void;
  disabled?: boolean;
  columns?: string;
  className?: string;
}) {
  const { legend, name, value, options, onChange, disabled, columns = "grid-cols-3", className = "mt-6" } = props;
  // Between an arrow key's keydown and keyup the browser moves the choice; a locked card passed on
  // the way keeps the focus without being chosen, so arrowing through does not open a prompt.
  const arrowing = useRef(false);
  return (
    <fieldset className={className} disabled={disabled} onKeyDown={(e) => (arrowing.current = e.key.startsWith("Arrow"))} onKeyUp={() => (arrowing.current = false)}>
      <legend className={props.legendHidden ? "sr-only" : "mb-2 flex items-center gap-2 text-sm font-semibold"}>{legend}</legend>
      <div className={`grid gap-2 ${columns}`}>
        {options.map((o) => (
          <div key={o.value} className="relative">
            <label
              className={`flex h-full min-h-12 cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm hover:border-slate-400 has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:ring-1 has-checked:ring-brand-600 has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600 has-disabled:cursor-not-allowed has-disabled:opacity-60 ${o.locked ? "text-slate-600" : ""}`}
            >
              <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => (o.locked && arrowing.current ? undefined : onChange(o.value))} className="size-4 shrink-0 accent-brand-600" />
              {o.icon}
              <span className="min-w-0">
                <span className="font-medium">{o.label}</span>
                {o.hint ? <span className="block text-xs text-slate-600">{o.hint}</span> : null}
              </span>
            </label>
            {o.badge ? <span className="absolute -right-1 -top-2">{o.badge}</span> : null}
          </div>
        ))}
      </div>
    </fieldset>
  );
}
