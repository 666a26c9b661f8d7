/**
 * What a screen or panel shows when its first load failed, in place of a loading text that would never
 * end: docs/product.md's failure text and a way to try again without a reload. Where no toast says it
 * too, it is an alert.
 */
import { useCallback, useEffect, useState } from "react";
import { Button } from "../components/button.tsx";
import { useDashboard } from "../store.ts";

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

/**
 * A list screen's load (ADR 120): `latest` on mount and whenever the dashboard's data changes,
 * `failed` after a load that failed (`onFailure` says so), and `changed` after a write of the
 * screen's own: the list again, and the draft marked as edited.
 */
export function useListLoad(latest: () => Promise<unknown>, onFailure: () => void) {
  const edited = useDashboard((s) => s.edited);
  const dataVersion = useDashboard((s) => s.dataVersion);
  const [failed, setFailed] = useState(false);
  const load = useCallback(async () => {
    setFailed(false);
    try {
      await latest();
    } catch {
      setFailed(true);
      onFailure();
    }
  }, [latest]);
  useEffect(() => {
    void load();
  }, [load, dataVersion]);
  const changed = () => {
    void load();
    edited();
  };
  return { failed, load, changed };
}
