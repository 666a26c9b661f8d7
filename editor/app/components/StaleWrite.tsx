/**
 * What a screen or dialog shows when a save was refused because another tab or device changed the
 * same thing first (ADR 069): the message, with a Reload that brings in the latest version without
 * a page reload, so what the owner typed elsewhere on the screen stays.
 */
import { useEffect, useRef, useState } from "react";
import { STALE_WRITE } from "#core/revision.ts";
import { isStaleWrite } from "../api.ts";
import { Button } from "./button.tsx";

/** The element to focus once a reload is done, if still on the page; else the screen's heading. */
function focusAfterReload(target: HTMLElement | null | undefined) {
  if (target?.isConnected && !target.hasAttribute("disabled")) return target.focus();
  const heading = document.getElementById("screen-title");
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
}

/**
 * Keeps the stale-write state of a screen or dialog. `report(err)` answers whether err was a stale
 * write (then the alert shows and takes the focus); Reload runs `reload`, which may answer the element
 * to focus next (a field that came in from the other tab), otherwise the focus goes back to where it
 * was when the save was refused.
 */
export function useStaleWrite(reload: () => Promise<HTMLElement | null | void>) {
  const [stale, setStale] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const focusNext = useRef<HTMLElement | null | undefined>(undefined);

  useEffect(() => {
    if (stale || focusNext.current === undefined) return;
    const target = focusNext.current ?? returnTo.current;
    focusNext.current = undefined;
    focusAfterReload(target);
  }, [stale]);

  function report(err: unknown): boolean {
    if (!isStaleWrite(err)) return false;
    const active = document.activeElement;
    returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
    setStale(true);
    return true;
  }

  async function runReload(): Promise<void> {
    const next = await reload();
    focusNext.current = next ?? null;
    setStale(false);
  }

  return { stale, report, clear: () => setStale(false), alert: stale ? <StaleWriteAlert onReload={runReload} /> : null };
}

function StaleWriteAlert({ onReload }: { onReload(): Promise<void> }) {
  const button = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    // After any dialog closing in the same update has put its focus back (Radix does so a task later).
    const timer = setTimeout(() => button.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, []);
  async function reload() {
    setBusy(true);
    setFailed(false);
    try {
      await onReload();
    } catch {
      setFailed(true);
      setBusy(false);
    }
  }
  return (
    <div role="alert" className="mb-4 flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="stale-write">
      <p className="min-w-0 flex-1">
        {STALE_WRITE}
        {failed ? " The latest version could not be loaded. Please try again." : ""}
      </p>
      <Button ref={button} variant="secondary" onClick={() => void reload()} disabled={busy}>
        {busy ? "Reloading..." : "Reload"}
      </Button>
    </div>
  );
}
