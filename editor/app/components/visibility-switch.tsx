/** The visibility switch of a link or social link, in a module of its own so that only those lists load Radix's switch (ADR 131). */
import { Switch } from "radix-ui";

export function VisibilitySwitch({ checked, onChange, label }: { checked: boolean; onChange(v: boolean): void; label: string }) {
  return (
    <Switch.Root checked={checked} onCheckedChange={onChange} aria-label={label} className="relative h-6 w-11 shrink-0 rounded-full bg-slate-300 data-[state=checked]:bg-brand-600">
      <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px]" />
    </Switch.Root>
  );
}
