import { Crown } from "lucide-react";

/**
 * The look of the Plus mark, never broken over two lines: in the PLUS badge, and on its own where
 * the mark sits inside another control (a menu item, a navigation link).
 */
export function PlusTag() {
  return (
    <span data-testid="plus-tag" className="inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded bg-amber-100 px-1.5 py-0.5 text-xs font-bold leading-4 text-amber-900">
      <Crown aria-hidden className="size-3" /> PLUS
    </span>
  );
}
