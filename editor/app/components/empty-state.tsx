import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/**
 * What a list shows while it has nothing in it: an icon, what goes here, and the one thing to do
 * next (optional where there is nothing the owner can do about it yet).
 */
export function EmptyState({ icon: Icon, title, text, action, headingLevel = 2 }: { icon: LucideIcon; title: string; text: ReactNode; action?: ReactNode; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="flex flex-col items-center rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center sm:p-10" data-testid="empty-state">
      <span aria-hidden className="mb-3 flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="size-6" />
      </span>
      <Heading className="text-lg font-semibold">{title}</Heading>
      <p className="mx-auto mt-1 max-w-prose text-slate-600">{text}</p>
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}
