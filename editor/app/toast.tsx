/**
 * The dashboard's toasts, one at a time at the top (sonner), loaded with the first toast rather
 * than with every screen (ADR 123). `toast.success` and `toast.error` take sonner's arguments; the
 * first call loads sonner and mounts its Toaster, which shows toasts made before it subscribed.
 */
import { lazy, Suspense, useSyncExternalStore } from "react";
import type { ExternalToast } from "sonner";

const Toaster = lazy(() =>
  import("sonner").then(({ Toaster }) => ({ default: () => <Toaster position="top-center" visibleToasts={1} richColors closeButton /> })),
);

let wanted = false;
const listeners = new Set<() => void>();
let sonner: Promise<typeof import("sonner")> | undefined;

function load() {
  if (!sonner) {
    wanted = true;
    for (const listener of listeners) listener();
    sonner = import("sonner");
  }
  return sonner;
}

type Message = Parameters<typeof import("sonner").toast.success>[0];

/** Each call settles once its toast is shown (what waits for it, such as a reload, waits from there). */
export const toast = {
  success(message: Message, options?: ExternalToast): Promise<void> {
    return load().then((m) => void m.toast.success(message, options));
  },
  error(message: Message, options?: ExternalToast): Promise<void> {
    return load().then((m) => void m.toast.error(message, options));
  },
};

/**
 * Where the toasts show: empty until the first toast. The holder is there from the start, marked as
 * a live region that says nothing itself (aria-live="off"), because an open dialog hides everything
 * outside it from assistive technology except live regions that exist when it opens; sonner's own
 * region, mounted later inside the holder, is announced as before.
 */
export function Toasts() {
  const on = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
  );
  return (
    <div aria-live="off">
      {on ? (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      ) : null}
    </div>
  );
}
