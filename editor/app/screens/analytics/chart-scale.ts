/** Axis arithmetic for the analytics charts (pure, so it is tested without a browser). */

/** A round top for the value axis and its ticks from 0: 1, 2 or 5 times a power of ten per step. */
export function valueTicks(max: number, count = 4): number[] {
  if (max <= 0) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!);
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) ticks.push(v);
  return ticks;
}

/** Which of `n` days get a date under the axis: the first, the last and evenly spaced ones between. */
export function dateTickIndexes(n: number, most: number): number[] {
  if (n <= 0) return [];
  if (n <= most) return Array.from({ length: n }, (_, i) => i);
  const step = Math.ceil((n - 1) / (most - 1));
  const out: number[] = [];
  for (let i = 0; i < n - 1; i += step) out.push(i);
  // The last day always shows; a tick too close before it gives way.
  if (out.length > 1 && n - 1 - out[out.length - 1]! < step / 2) out.pop();
  out.push(n - 1);
  return out;
}
