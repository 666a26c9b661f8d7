/**
 * Drag and drop as docs/product.md section 9 sets it, shared by every sortable list of the dashboard: a mouse
 * drag starts after 5 px, a touch drag after a 120 ms long press, the keyboard lifts with space, moves
 * with the arrows, drops with space and cancels with escape; lists scroll by themselves near an edge;
 * items settle in 0.4 s (docs/product.md allows 0.33 to 0.55 s).
 *
 * This module is @dnd-kit (about 15 KB gzip): `components/sortable.tsx` loads it the first time the
 * owner reaches a sortable list (ADR 132). Screens use that module's parts, never this one directly.
 */
import { closestCenter, DndContext, KeyboardSensor, MouseSensor, TouchSensor, useSensor, useSensors, type Announcements, type AutoScrollOptions } from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import type { ReactNode } from "react";
import type { SortProps } from "./components/sortable.tsx";

const SORTABLE_TRANSITION = { duration: 400, easing: "cubic-bezier(0.25, 1, 0.5, 1)" };

/** Scrolling starts within 25% of the container's size from an edge. */
const AUTO_SCROLL: AutoScrollOptions = { threshold: { x: 0.25, y: 0.25 }, acceleration: 28 };

function useDashboardSensors() {
  return useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 120, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}

export interface ListProps {
  /** Called when an item is dropped over another one. */
  onMove(activeId: string, overId: string): void;
  announcements: Announcements;
  /** What a screen reader says on a handle. */
  instructions: string;
  children: ReactNode;
}

export function DndList({ onMove, announcements, instructions, children }: ListProps) {
  const sensors = useDashboardSensors();
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={({ active, over }) => {
        if (over && active.id !== over.id) onMove(String(active.id), String(over.id));
      }}
      autoScroll={AUTO_SCROLL}
      accessibility={{ announcements, screenReaderInstructions: { draggable: instructions } }}
    >
      {children}
    </DndContext>
  );
}

export function DndGroup({ ids, children }: { ids: string[]; children: ReactNode }) {
  return (
    <SortableContext items={ids} strategy={verticalListSortingStrategy}>
      {children}
    </SortableContext>
  );
}

export function DndItem({ id, children }: { id: string; children(sort: SortProps): ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, transition: SORTABLE_TRANSITION });
  return children({
    ref: setNodeRef,
    style: { transform: CSS.Transform.toString(transform), transition },
    isDragging,
    handle: { ref: setActivatorNodeRef, ...attributes, ...listeners, "data-reorder": id },
  });
}
