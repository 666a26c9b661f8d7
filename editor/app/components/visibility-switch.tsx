/**
 * The visibility switch of a link or social link: a button with the switch role, as Radix's Switch
 * renders it (same markup and states) without loading its script with the lists (ADR 132). Space
 * and Enter press it as any button.
 */
export function VisibilitySwitch({ checked, onChange, label }: { checked: boolean; onChange(v: boolean): void; label: string }) {
  const state = checked ? "checked" : "unchecked";
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      data-state={state}
      onClick={() => onChange(!checked)}
      className="relative h-6 w-11 shrink-0 rounded-full bg-slate-300 data-[state=checked]:bg-brand-600"
    >
      <span data-state={state} className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px]" />
    </button>
  );
}
