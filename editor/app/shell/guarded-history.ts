/**
 * The dashboard's browser history, with one gate in front of every move (ADR 221). React Router's
 * own way to hold a move, `useBlocker`, needs its data router, which costs the dashboard's first
 * load about 18 KB gzip more than the plain router; the dashboard only ever needed the hold.
 *
 * The gate sees a move before the router does: a link, a `navigate()` and the browser's Back and
 * Forward. A held move is kept as `go`, which makes it later without asking again. Back and Forward
 * have already changed the address when the page hears of them, so a held one is undone at once
 * (the router never shows the other screen), and `go` makes it again.
 */
import { UNSAFE_createBrowserHistory, type HistoryRouterProps, type To } from "react-router";

type History = HistoryRouterProps["history"];

/** Answers whether to hold the move from `from` to `to` (paths); a held move is made by calling `go`. */
export type Gate = (from: string, to: string, go: () => void) => boolean;

export interface GuardedHistory extends History {
  setGate(gate: Gate | null): void;
}

export function createGuardedHistory(): GuardedHistory {
  const base = UNSAFE_createBrowserHistory({ v5Compat: true });
  let gate: Gate | null = null;
  // The path the router shows: Back and Forward change the address before anyone hears of them.
  let shown = base.location.pathname;
  // The next Back or Forward is the gate's own: undoing a held one, or making it after all.
  let next: "undo" | "make" | null = null;
  const pathOf = (to: To) => (typeof to === "string" ? new URL(to, window.location.href).pathname : (to.pathname ?? shown));
  const held = (to: string, go: () => void) => gate?.(shown, to, go) ?? false;
  return {
    get action() {
      return base.action;
    },
    get location() {
      return base.location;
    },
    createHref: (to) => base.createHref(to),
    createURL: (to) => base.createURL(to),
    encodeLocation: (to) => base.encodeLocation(to),
    go: (n) => base.go(n),
    push(to, state) {
      if (!held(pathOf(to), () => base.push(to, state))) base.push(to, state);
    },
    replace(to, state) {
      if (!held(pathOf(to), () => base.replace(to, state))) base.replace(to, state);
    },
    listen(tell) {
      return base.listen((update) => {
        const own = next;
        next = null;
        if (own === "undo") return;
        const delta = update.delta;
        const go = () => {
          next = "make";
          base.go(delta!);
        };
        if (own !== "make" && update.action === "POP" && delta && held(update.location.pathname, go)) {
          next = "undo";
          base.go(-delta);
          return;
        }
        shown = update.location.pathname;
        tell(update);
      });
    },
    setGate(g) {
      gate = g;
    },
  };
}

let dashboard: GuardedHistory | null = null;

/** The one history of the dashboard's tab, made on first use (in the browser). */
export const dashboardHistory = (): GuardedHistory => (dashboard ??= createGuardedHistory());
