/**
 * What a list screen shows when its first load failed, in place of a loading text that would never
 * end: docs/product.md's failure text (also shown as the toast) and a way to try again without a reload.
 */
import { Button } from "../components/button.tsx";

export function LoadFailed({ text, onRetry }: { text: string; onRetry(): void }) {
  return (
    <div className="rounded-lg border border-slate-200 p-6">
      <p>{text}</p>
      <Button className="mt-3" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
