/**
 * The schedule badge of a link (docs/product.md section 4, Link schedule badge): scheduled before the start,
 * expired after the end, otherwise active (with or without an end). No badge when neither is set.
 */
export type ScheduleBadge =
  | { kind: "scheduled"; at: Date }
  | { kind: "expired"; at: Date }
  | { kind: "active"; at: Date | null }
  | null;

export function scheduleBadge(start: Date | null, end: Date | null, now: Date): ScheduleBadge {
  if (!start && !end) return null;
  if (start && now.getTime() < start.getTime()) return { kind: "scheduled", at: start };
  if (end && now.getTime() > end.getTime()) return { kind: "expired", at: end };
  return { kind: "active", at: end };
}
