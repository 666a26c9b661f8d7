/**
 * A count per day as a line over every day of the range (zeros included), drawn as SVG (ADR 101):
 * a value axis from 0, dates under it, the day's value on hover and on keyboard focus (arrow keys,
 * Home and End move between days), and the same numbers as a table behind "Show as table".
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { dayLabel } from "#core/analytics-range.ts";
import { Button } from "../../components/button.tsx";
import { dateTickIndexes, valueTicks } from "./chart-scale.ts";

export interface DayValue {
  date: string;
  value: number;
}

const HEIGHT = 200;
const M = { left: 44, right: 16, top: 12, bottom: 28 };

/** The container's width in pixels, followed as it changes (320 px phones to wide screens). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const follow = () => setWidth(Math.max(200, Math.floor(el.getBoundingClientRect().width)));
    follow();
    const observer = new ResizeObserver(follow);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

export function DayChart({ title, valueName, points, thisYear }: { title: string; valueName: string; points: DayValue[]; thisYear: number }) {
  const { ref, width } = useWidth();
  const [active, setActive] = useState<number | null>(null);
  const [table, setTable] = useState(false);
  const ids = useId();
  const n = points.length;
  const last = n - 1;
  const label = (d: string) => dayLabel(d, thisYear);
  const say = (p: DayValue) => `${label(p.date)}: ${p.value} ${valueName.toLowerCase()}`;

  const ticks = valueTicks(Math.max(0, ...points.map((p) => p.value)));
  const top = ticks[ticks.length - 1]!;
  const plotW = width - M.left - M.right;
  const plotH = HEIGHT - M.top - M.bottom;
  const x = (i: number) => M.left + (n <= 1 ? plotW / 2 : (i * plotW) / last);
  const y = (v: number) => M.top + plotH - (v / top) * plotH;
  const wide = points.some((p) => !p.date.startsWith(`${thisYear}-`));
  const dates = dateTickIndexes(n, Math.max(2, Math.floor(plotW / (wide ? 110 : 80))));
  const line = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join("");

  function onKey(e: KeyboardEvent) {
    const moves: Record<string, number> = { ArrowLeft: (active ?? last) - 1, ArrowRight: (active ?? -1) + 1, Home: 0, End: last };
    if (!(e.key in moves)) return;
    e.preventDefault();
    setActive(Math.min(last, Math.max(0, moves[e.key]!)));
  }
  function onPointer(e: PointerEvent<SVGSVGElement>) {
    const box = e.currentTarget.getBoundingClientRect();
    const at = ((e.clientX - box.left) / box.width) * width;
    setActive(n <= 1 ? 0 : Math.min(last, Math.max(0, Math.round(((at - M.left) / plotW) * last))));
  }

  const shown = active === null ? null : points[active];
  return (
    <figure className="mt-6">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <figcaption id={`${ids}-title`} className="text-sm font-medium">
          {title}
        </figcaption>
        <Button variant="ghost" aria-expanded={table} aria-controls={`${ids}-table`} onClick={() => setTable(!table)}>
          {table ? "Hide table" : "Show as table"}
        </Button>
      </div>
      <div
        ref={ref}
        tabIndex={0}
        role="group"
        aria-labelledby={`${ids}-title`}
        aria-describedby={`${ids}-hint`}
        onKeyDown={onKey}
        onFocus={() => setActive((a) => a ?? last)}
        onBlur={() => setActive(null)}
        className="relative rounded border border-slate-200"
      >
        <span id={`${ids}-hint`} className="sr-only">
          Use the left and right arrow keys to read each day.
        </span>
        <svg width={width} height={HEIGHT} aria-hidden className="block max-w-full touch-none" onPointerMove={onPointer} onPointerLeave={() => setActive(null)}>
          {ticks.map((t) => (
            <g key={t}>
              <line x1={M.left} x2={width - M.right} y1={y(t)} y2={y(t)} className="stroke-slate-200" />
              <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-slate-600 text-[11px]">
                {t}
              </text>
            </g>
          ))}
          {dates.map((i) => (
            <text key={i} x={x(i)} y={HEIGHT - 8} textAnchor={i === 0 && n > 1 ? "start" : i === last && n > 1 ? "end" : "middle"} className="fill-slate-600 text-[11px]">
              {label(points[i]!.date)}
            </text>
          ))}
          <path d={line} fill="none" strokeWidth={2} strokeLinejoin="round" className="stroke-brand-600" />
          {n <= 62 ? points.map((p, i) => <circle key={p.date} cx={x(i)} cy={y(p.value)} r={2.5} className="fill-brand-600" />) : null}
          {shown ? (
            <g>
              <line x1={x(active!)} x2={x(active!)} y1={M.top} y2={M.top + plotH} className="stroke-slate-400" strokeDasharray="3 3" />
              <circle cx={x(active!)} cy={y(shown.value)} r={5} strokeWidth={2} className="fill-white stroke-brand-700" />
            </g>
          ) : null}
        </svg>
        <p
          role="status"
          className={`pointer-events-none absolute top-1 rounded bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white ${shown ? "" : "sr-only"}`}
          style={shown ? { left: Math.min(Math.max(0, x(active!) - 60), width - 130) } : undefined}
        >
          {shown ? say(shown) : ""}
        </p>
      </div>
      {table ? (
        <div id={`${ids}-table`} className="mt-3 max-h-80 overflow-auto" tabIndex={0} role="region" aria-labelledby={`${ids}-title`}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{title}</caption>
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Date
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  {valueName}
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.date} className="border-b border-slate-100">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {label(p.date)}
                  </th>
                  <td className="py-1 text-right">{p.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </figure>
  );
}
