/**
 * Drag and drop as spec section 9 sets it, shared by every sortable list of the dashboard: a mouse
 * drag starts after 5 px, a touch drag after a 120 ms long press, the keyboard lifts with space, moves
 * with the arrows, drops with space and cancels with escape; lists scroll by themselves near an edge;
 * items settle in 0.4 s (the spec allows 0.33 to 0.55 s).
 */
import { KeyboardSensor, MouseSensor, TouchSensor, useSensor, useSensors, type AutoScrollOptions } from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";

export const SORTABLE_TRANSITION = { duration: 400, easing: "cubic-bezier(0.25, 1, 0.5, 1)" };

/** Scrolling starts within 25% of the container's size from an edge. */
export const AUTO_SCROLL: AutoScrollOptions = { threshold: { x: 0.25, y: 0.25 }, acceleration: 28 };

export function useDashboardSensors() {
  return useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 120, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}
