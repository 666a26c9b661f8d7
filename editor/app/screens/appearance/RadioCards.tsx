/** A labelled group of native radio buttons drawn as cards: arrow keys move, the choice saves at once. */
import type { ReactNode } from "react";

export interface RadioOption<V extends string> {
  value: V;
  label: string;
  hint?: string;
  icon?: ReactNode;
}

export function RadioCards<V extends string>(props: {
  legend: string;
  name: string;
  value: V | null;
  options: readonly RadioOption<V>[];
  onChange(value: V): void;
  disabled?: boolean;
  columns?: string;
}) {
  const { legend, name, value, options, onChange, disabled, columns = "grid-cols-3" } = props;
  return (
    <fieldset className="mt-6" disabled={disabled}>
      <legend className="mb-2 text-sm font-semibold">{legend}</legend>
      <div className={`grid gap-2 ${columns}`}>
        {options.map((o) => (
          <label
            key={o.value}
            className="flex min-h-12 cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:ring-1 has-checked:ring-brand-600 has-focus-visible:outline-3 has-focus-visible:outline-brand-600 has-disabled:cursor-not-allowed has-disabled:opacity-60"
          >
            <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} className="size-4 accent-brand-600" />
            {o.icon}
            <span>
              <span className="font-medium">{o.label}</span>
              {o.hint ? <span className="block text-xs text-slate-600">{o.hint}</span> : null}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
