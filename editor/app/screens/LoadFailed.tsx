/**
 * What a screen or panel shows when its first load failed, in place of a loading text that would never
 * end: docs/product.md's failure text and a way to try again without a reload. Where no toast says it
 * too, it is an alert.
 */
import { Button } from "../components/button.tsx";

export function LoadFailed({ text, onRetry, role }: { text: string; onRetry(): void; role?: "alert" }) {
  return (
    <div role={role} className="rounded-lg border border-slate-200 p-6">
      <p>{text}</p>
      <Button className="mt-3" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
