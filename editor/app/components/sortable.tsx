/**
 * Sortable lists whose drag and drop (@dnd-kit, `../dnd.tsx`) loads when the owner first reaches
 * a reorder handle (ADR 132): a pointer over it, a touch on it or the focus on it. Until then the
 * rows and their handles render the same markup without it. The list then renders again with
 * @dnd-kit; what had the focus in it gets it back, and a handle pressed before the script arrived
 * (Space or Enter, a mouse button or a finger still held) is pressed again, so the first press lifts
 * the row.
 * Only the handles wake it: the list's other controls (switches, menus) are never re-rendered under
 * a press.
 */
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent, type ReactNode, type Ref, type TouchEvent as ReactTouchEvent } from "react";
import type { ListProps } from "../dnd.tsx";
import { loadOnce } from "./load-once.ts";

type DndParts = typeof import("../dnd.tsx");
const dnd = loadOnce(() => import("../dnd.tsx"));

/** What a row spreads: `ref` and `style` on the item, `handle` on its reorder button. */
export interface SortProps {
  ref?: Ref<HTMLLIElement>;
  style?: CSSProperties;
  isDragging: boolean;
  handle: Record<string, unknown>;
}

/** A handle press that arrived before @dnd-kit did. */
type Press = { id: string; key: string; code: string } | { id: string; x: number; y: number } | { id: string; touch: Touch; from: Element };

const FINGER_EVENTS = ["touchmove", "touchend", "touchcancel"] as const;

/** `list`'s touches as if they were on `target`. */
const touchesOn = (target: Element, list: Iterable<Touch>) =>
  [...list].map((t) => new Touch({ identifier: t.identifier, target, clientX: t.clientX, clientY: t.clientY, screenX: t.screenX, screenY: t.screenY, pageX: t.pageX, pageY: t.pageY }));

/**
 * A finger put on a handle before @dnd-kit arrived, put on its new handle. The finger's later events
 * still go to the element it first touched, which has left the page, so they are passed on to the new
 * handle until the finger lifts (a move the handle's drag cancels is cancelled for the page too).
 */
function replayTouch(from: Element, handle: Element, touch: Touch) {
  const [t] = touchesOn(handle, [touch]);
  handle.dispatchEvent(new TouchEvent("touchstart", { bubbles: true, cancelable: true, touches: [t!], targetTouches: [t!], changedTouches: [t!] }));
  if (from === handle) return;
  const forward = (e: Event) => {
    const { touches, targetTouches, changedTouches } = e as TouchEvent;
    const copy = new TouchEvent(e.type, { bubbles: true, cancelable: true, touches: touchesOn(handle, touches), targetTouches: touchesOn(handle, targetTouches), changedTouches: touchesOn(handle, changedTouches) });
    if (!handle.dispatchEvent(copy)) e.preventDefault();
    if (e.type !== "touchmove") for (const type of FINGER_EVENTS) from.removeEventListener(type, forward);
  };
  for (const type of FINGER_EVENTS) from.addEventListener(type, forward, { passive: false });
}

const Ctx = createContext<{ parts: DndParts | null; wake(): void; press(p: Press): void }>({ parts: null, wake: () => undefined, press: () => undefined });

/** Moves the item at `from` to `to`, as a copy. */
export function moveItem<T>(items: T[], from: number, to: number): T[] {
  const next = items.slice();
  next.splice(to, 0, ...next.splice(from, 1));
  return next;
}

export function SortableList(props: ListProps) {
  const [parts, setParts] = useState(dnd.loaded);
  const box = useRef<HTMLDivElement>(null);
  const pending = useRef<Press | null>(null);
  // Which element of the list had the focus when @dnd-kit arrived, by its place among the list's
  // elements (the markup is the same before and after).
  const focused = useRef(-1);

  function wake() {
    if (parts) return;
    dnd.load().then(
      (p) => {
        const all = box.current ? [...box.current.getElementsByTagName("*")] : [];
        focused.current = all.indexOf(document.activeElement as Element);
        setParts(p);
      },
      () => undefined,
    );
  }
  function press(p: Press) {
    pending.current = p;
    const lifted = () => pending.current === p && (pending.current = null);
    if ("x" in p) window.addEventListener("pointerup", lifted, { once: true });
    if ("touch" in p) for (const type of ["touchend", "touchcancel"]) p.from.addEventListener(type, lifted, { once: true });
    wake();
  }

  // The focus moves to the new markup as it is committed, before the browser hands out another
  // key: a key pressed between the commit and a later effect would go to the page's body.
  useLayoutEffect(() => {
    if (!parts || !box.current) return;
    const el = box.current.getElementsByTagName("*")[focused.current];
    if (el instanceof HTMLElement) el.focus();
  }, [parts]);
  useEffect(() => {
    if (!parts || !box.current) return;
    const p = pending.current;
    pending.current = null;
    const handle = p && box.current.querySelector(`[data-reorder="${CSS.escape(p.id)}"]`);
    if (!p || !handle) return;
    if ("x" in p) handle.dispatchEvent(new MouseEvent("mousedown", { bubbles: true, cancelable: true, button: 0, buttons: 1, clientX: p.x, clientY: p.y }));
    else if ("touch" in p) replayTouch(p.from, handle, p.touch);
    else handle.dispatchEvent(new globalThis.KeyboardEvent("keydown", { bubbles: true, cancelable: true, key: p.key, code: p.code }));
  }, [parts]);

  return (
    <Ctx.Provider value={{ parts, wake, press }}>
      <div ref={box} className="contents">
        {parts ? <parts.DndList {...props} /> : props.children}
      </div>
    </Ctx.Provider>
  );
}

export function SortableGroup({ ids, children }: { ids: string[]; children: ReactNode }) {
  const { parts } = useContext(Ctx);
  return parts ? <parts.DndGroup ids={ids}>{children}</parts.DndGroup> : children;
}

export function SortableItem({ id, children }: { id: string; children(sort: SortProps): ReactNode }) {
  const { parts, wake, press } = useContext(Ctx);
  if (parts) return <parts.DndItem id={id}>{children}</parts.DndItem>;
  return children({
    isDragging: false,
    handle: {
      "data-reorder": id,
      "aria-roledescription": "sortable",
      onPointerOver: wake,
      onTouchStart(e: ReactTouchEvent) {
        if (e.touches.length === 1) press({ id, touch: e.nativeEvent.touches[0]!, from: e.currentTarget });
        else wake();
      },
      onFocus: wake,
      onPointerDown(e: PointerEvent) {
        if (e.button === 0 && e.pointerType === "mouse") press({ id, x: e.clientX, y: e.clientY });
      },
      onKeyDown(e: KeyboardEvent) {
        if (e.code !== "Space" && e.code !== "Enter") return;
        e.preventDefault();
        press({ id, key: e.key, code: e.code });
      },
    },
  });
}
