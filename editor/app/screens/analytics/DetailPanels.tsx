/**
 * The detailed parts of the report (Plus and trial, ADR 074): Link Performance with each link's clicks
 * over time, Traffic Sources by site and device, Countries and Campaigns; and the Plus Feature prompt
 * that stands in their place for Lite.
 */
import type { InferResponseType } from "hono/client";
import { Crown } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { fillDays } from "#core/analytics-range.ts";
import { DASH } from "#core/dashboard-texts.ts";
import { ANALYTICS_TEXTS as T, ctrBadgeVariant } from "#core/analytics.ts";
import type { api } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { useDashboard } from "../../store.ts";
import { DayChart } from "./DayChart.tsx";

export type Report = Extract<InferResponseType<typeof api.analytics.$get>, { totals: unknown }>;

const BADGE: Record<ReturnType<typeof ctrBadgeVariant>, string> = {
  default: "bg-brand-600 text-white",
  secondary: "bg-slate-200 text-slate-900",
  outline: "border border-slate-400 text-slate-800",
};
const DEVICE_NAMES: Record<string, string> = { mobile: "Mobile", tablet: "Tablet", desktop: "Desktop", other: "Other" };
// Made on first use, as the date formats are (editor/components/dates.ts).
let regions: Intl.DisplayNames | undefined;
/** "Germany (DE)"; a code the browser does not know stays a code; "Unknown" stays as it is. */
export function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  const name = (regions ??= new Intl.DisplayNames(["en"], { type: "region", fallback: "code" })).of(code);
  return name && name !== code ? `${name} (${code})` : code;
}

/** docs/product.md's Plus Feature prompt in place of a part Lite does not include. */
export function PlusPrompt({ part, feature = "detailed_analytics" }: { part: string; feature?: string }) {
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  return (
    <div className="rounded-lg border border-dashed border-amber-300 bg-amber-50 p-6 text-center">
      <p className="font-semibold">{part}</p>
      <p className="mt-1 text-slate-700">{DASH.plusTooltip}</p>
      <Button className="mt-3" onClick={() => openUpgrade(feature)}>
        <Crown aria-hidden className="size-4" /> {T.plusFeature}
      </Button>
    </div>
  );
}

function Table({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            {head.map((h, i) => (
              <th key={h} scope="col" className={`py-2 pr-3 font-medium ${i > 0 && i === head.length - 1 ? "text-right" : ""}`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

function Shares({ title, rows }: { title: string; rows: { name: string; views: number }[] }) {
  const total = rows.reduce((n, r) => n + r.views, 0);
  return (
    <section className="rounded-lg border border-slate-200 p-4" aria-label={title}>
      <h2 className="mb-3 font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No visits in this range.</p>
      ) : (
        <Table caption={title} head={[title === "Countries" ? "Country" : title === "Devices" ? "Device" : "Site", "Page Views"]}>
          {rows.map((r) => (
            <tr key={r.name} className="border-b border-slate-100">
              <th scope="row" className="py-1.5 pr-3 font-normal">
                <span className="block break-words">{r.name}</span>
                <span aria-hidden className="mt-1 block h-1.5 rounded bg-slate-100">
                  <span className="block h-1.5 rounded bg-brand-600" style={{ width: `${(r.views / total) * 100}%` }} />
                </span>
              </th>
              <td className="py-1.5 text-right whitespace-nowrap">
                {r.views} ({Math.round((r.views / total) * 100)}%)
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

export function TrafficSources({ report }: { report: Report }) {
  const { referrers, devices, countries } = report.sources;
  return (
    <div className="space-y-4">
      <div className="grid gap-4 md:grid-cols-2">
        <Shares title="Referrers" rows={referrers.map((r) => ({ name: r.domain, views: r.views }))} />
        <Shares title="Devices" rows={devices.map((d) => ({ name: DEVICE_NAMES[d.device] ?? d.device, views: d.views }))} />
        <Shares title="Countries" rows={countries.map((c) => ({ name: countryName(c.country), views: c.views }))} />
      </div>
      <section className="rounded-lg border border-slate-200 p-4" aria-label="Campaigns">
        <h2 className="mb-3 font-semibold">Campaigns</h2>
        {report.campaigns.length === 0 ? (
          <p className="text-sm text-slate-600">No campaign visits in this range. Add utm_source, utm_medium or utm_campaign to the address you share.</p>
        ) : (
          <Table caption="Campaigns" head={["Source", "Medium", "Campaign", "Page Views"]}>
            {report.campaigns.map((c) => (
              <tr key={`${c.source}\n${c.medium}\n${c.campaign}`} className="border-b border-slate-100">
                <td className="py-1.5 pr-3 break-words">{c.source || "—"}</td>
                <td className="py-1.5 pr-3 break-words">{c.medium || "—"}</td>
                <td className="py-1.5 pr-3 break-words">{c.campaign || "—"}</td>
                <td className="py-1.5 text-right">{c.views}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      <p className="text-sm text-slate-600">Counted without cookies and without storing visitors' addresses; automated visits are left out.</p>
    </div>
  );
}

export function LinkPerformance({ report, loading, days, thisYear }: { report: Report; loading: boolean; days: string[]; thisYear: number }) {
  const [picked, setPicked] = useState("");
  const selectId = useId();
  if (report.links.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
        <p className="font-semibold">{T.noLinks}</p>
        <p className="mt-1 text-slate-600">{T.noLinksText}</p>
      </div>
    );
  }
  const link = report.links.find((l) => l.linkId === picked) ?? report.links[0]!;
  const series = fillDays(link.daily, days, { clicks: 0 }).map((d) => ({ date: d.date, value: d.clicks }));
  return (
    <div>
      <Table caption="Link Performance" head={["Link Title", "URL", "Clicks", "CTR"]}>
        {loading
          ? [0, 1, 2].map((i) => (
              <tr key={i} aria-hidden data-testid="skeleton-row">
                <td colSpan={4} className="py-2">
                  <div className="h-5 animate-pulse rounded bg-slate-100" />
                </td>
              </tr>
            ))
          : report.links.map((l) => (
              <tr key={l.linkId} className="border-b border-slate-100">
                <td className="py-2 pr-3 font-medium">{l.title}</td>
                <td className="py-2 pr-3">
                  <span className="block max-w-[200px] truncate text-slate-600" title={l.target}>
                    {l.target}
                  </span>
                </td>
                <td className="py-2 pr-3 text-right">{l.clicks}</td>
                <td className="py-2 text-right">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[ctrBadgeVariant(l.ctr)]}`}>{l.ctr.toFixed(1)}%</span>
                </td>
              </tr>
            ))}
      </Table>
      <div className="mt-6">
        <label htmlFor={selectId} className="text-sm font-medium">
          Clicks over time for
        </label>
        <select id={selectId} value={link.linkId} onChange={(e) => setPicked(e.target.value)} className="mt-1 block w-full max-w-sm rounded-md border border-slate-300 px-2 py-1.5 text-sm">
          {report.links.map((l) => (
            <option key={l.linkId} value={l.linkId}>
              {l.title}
            </option>
          ))}
        </select>
        <DayChart title={`Clicks per day: ${link.title}`} valueName="Clicks" points={series} thisYear={thisYear} />
      </div>
    </div>
  );
}
