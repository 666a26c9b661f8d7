/**
 * Analytics (/dashboard/analytics): page views, link clicks and e-mail leads for a chosen range, per
 * link clicks and CTR, traffic sources, and CSV/JSON export (decisions.md: real numbers throughout).
 */
import type { InferResponseType } from "hono/client";
import { format } from "date-fns";
import { CalendarDays, Download, Share2 } from "lucide-react";
import { DropdownMenu, Popover, Tabs } from "radix-ui";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { toast } from "sonner";
import { LIMITS } from "#core/limits.ts";
import { ANALYTICS_TEXTS as T, ctrBadgeVariant, DEFAULT_RANGE_DAYS, presetRange, shareTitle } from "#core/schemas/analytics.ts";
import { VISITOR_MESSAGES } from "#core/schemas/visitor.ts";
import { api, unwrap } from "../../api.ts";
import { Button, MenuItem } from "../../components/ui.tsx";
import { useDashboard } from "../../store.ts";

type Report = Extract<InferResponseType<typeof api.analytics.$get>, { totals: unknown }>;
interface Range {
  from: Date;
  to: Date;
  /** The preset in use, or null for a custom range. */
  days: number | null;
}

const fmt = (d: Date) => format(d, "MMM dd");
/** The range's last day is the day before its exclusive end. */
const lastDay = (r: Range) => new Date(r.to.getFullYear(), r.to.getMonth(), r.to.getDate() - 1);
const toInput = (d: Date) => format(d, "yyyy-MM-dd");
const fromInput = (v: string) => {
  const [y, m, d] = v.split("-").map(Number);
  return new Date(y!, m! - 1, d!);
};
function rangeQuery(r: Range) {
  return { from: r.from.toISOString(), to: r.to.toISOString(), tz: String(r.from.getTimezoneOffset()) };
}

const BADGE: Record<ReturnType<typeof ctrBadgeVariant>, string> = {
  default: "bg-brand-600 text-white",
  secondary: "bg-slate-200 text-slate-900",
  outline: "border border-slate-400 text-slate-800",
};

function RangePicker({ range, onChange }: { range: Range; onChange(r: Range): void }) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState(toInput(range.from));
  const [to, setTo] = useState(toInput(lastDay(range)));
  const [error, setError] = useState("");
  useEffect(() => {
    setFrom(toInput(range.from));
    setTo(toInput(lastDay(range)));
  }, [range]);
  function preset(days: number) {
    onChange({ ...presetRange(days, new Date()), days });
    setOpen(false);
  }
  function apply(e: React.FormEvent) {
    e.preventDefault();
    if (!from || !to) return setError("Choose a start and an end date");
    const start = fromInput(from);
    const end = fromInput(to);
    if (end < start) return setError("The end date must be after the start date");
    setError("");
    onChange({ from: start, to: new Date(end.getFullYear(), end.getMonth(), end.getDate() + 1), days: null });
    setOpen(false);
  }
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button variant="secondary" aria-label={`Date range: ${fmt(range.from)} - ${fmt(lastDay(range))}`}>
          <CalendarDays aria-hidden className="size-4" />
          {fmt(range.from)} - {fmt(lastDay(range))}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="end" sideOffset={6} className="z-50 w-72 rounded-md border border-slate-200 bg-white p-3 shadow-lg">
          <div className="flex flex-col gap-1" role="group" aria-label="Presets">
            {LIMITS.ANALYTICS_PRESET_DAYS.map((d) => (
              <Button key={d} variant={range.days === d ? "primary" : "ghost"} className="justify-start" onClick={() => preset(d)} aria-pressed={range.days === d}>
                Last {d} days
              </Button>
            ))}
          </div>
          <form onSubmit={apply} className="mt-3 border-t border-slate-200 pt-3" noValidate>
            <div className="grid grid-cols-2 gap-2">
              <label className="text-sm font-medium">
                From
                <input type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1 text-sm" />
              </label>
              <label className="text-sm font-medium">
                To
                <input type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1 text-sm" />
              </label>
            </div>
            {error ? <p className="mt-1 text-sm text-red-700">{error}</p> : null}
            <Button type="submit" className="mt-2 w-full">
              Apply
            </Button>
          </form>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function Card({ label, children, footer }: { label: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-1 text-3xl font-bold">{children}</p>
      {footer ? <div className="mt-2 text-sm">{footer}</div> : null}
    </div>
  );
}

function DailyChart({ daily }: { daily: Report["daily"] }) {
  if (daily.length === 0) return null;
  const max = Math.max(1, ...daily.map((d) => d.pageViews));
  return (
    <figure className="mt-6">
      <figcaption className="mb-2 text-sm font-medium">Page views per day</figcaption>
      <div aria-hidden className="flex h-32 items-end gap-px rounded border border-slate-200 p-2">
        {daily.map((d) => (
          <div key={d.date} title={`${d.date}: ${d.pageViews}`} className="min-w-0 flex-1 rounded-t bg-brand-600" style={{ height: `${(d.pageViews / max) * 100}%` }} />
        ))}
      </div>
      <table className="sr-only">
        <caption>Page views and link clicks per day</caption>
        <thead>
          <tr>
            <th>Date</th>
            <th>Page views</th>
            <th>Link clicks</th>
          </tr>
        </thead>
        <tbody>
          {daily.map((d) => (
            <tr key={d.date}>
              <td>{d.date}</td>
              <td>{d.pageViews}</td>
              <td>{d.linkClicks}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function Shares({ title, rows }: { title: string; rows: { name: string; views: number }[] }) {
  const total = rows.reduce((n, r) => n + r.views, 0);
  return (
    <div className="rounded-lg border border-slate-200 p-4">
      <h2 className="mb-3 font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No visits in this range.</p>
      ) : (
        <ul className="space-y-2">
          {rows.map((r) => (
            <li key={r.name}>
              <div className="flex justify-between text-sm">
                <span className="truncate">{r.name}</span>
                <span>
                  {r.views} ({Math.round((r.views / total) * 100)}%)
                </span>
              </div>
              <div aria-hidden className="mt-1 h-2 rounded bg-slate-100">
                <div className="h-2 rounded bg-brand-600" style={{ width: `${(r.views / total) * 100}%` }} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const DEVICE_NAMES: Record<string, string> = { mobile: "Mobile", tablet: "Tablet", desktop: "Desktop", other: "Other" };

export default function AnalyticsScreen() {
  const me = useDashboard((s) => s.me);
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  const dataVersion = useDashboard((s) => s.dataVersion);
  const [range, setRange] = useState<Range>(() => ({ ...presetRange(DEFAULT_RANGE_DAYS, new Date()), days: DEFAULT_RANGE_DAYS }));
  const [report, setReport] = useState<Report | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async (r: Range) => {
    setLoading(true);
    try {
      setReport(await unwrap(api.analytics.$get({ query: rangeQuery(r) })));
      setFailed(false);
    } catch (e) {
      console.warn("Error fetching analytics", e);
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load(range);
  }, [load, range, dataVersion]);

  if (!me) return null;
  const url = `${window.location.origin}/${me.username}`;
  const q = new URLSearchParams(rangeQuery(range)).toString();

  async function share() {
    const title = shareTitle(me!.displayName, me!.username);
    if (navigator.share) {
      try {
        await navigator.share({ title, url });
        return;
      } catch (e) {
        if (e instanceof DOMException && e.name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast.success("Link copied to clipboard");
    } catch {
      toast.error(VISITOR_MESSAGES.copyFailedTitle, { description: VISITOR_MESSAGES.copyFailedText });
    }
  }

  const header = (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
      <div>
        <h1 id="screen-title" className="text-2xl font-bold">
          {T.title}
        </h1>
        <p className="mt-1 text-slate-600">{T.subtitle}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <RangePicker range={range} onChange={setRange} />
        <DropdownMenu.Root>
          <DropdownMenu.Trigger asChild>
            <Button variant="secondary">
              <Download aria-hidden className="size-4" /> Export
            </Button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content align="end" sideOffset={6} className="z-50 min-w-44 rounded-md border border-slate-200 bg-white p-1 shadow-lg">
              <MenuItem onSelect={() => window.location.assign(`/api/analytics/export?format=csv&${q}`)}>Export to CSV</MenuItem>
              <MenuItem onSelect={() => window.location.assign(`/api/analytics/export?format=json&${q}`)}>Export to JSON</MenuItem>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </div>
    </div>
  );

  if (!report) {
    return (
      <section aria-labelledby="screen-title">
        {header}
        {loading ? (
          <p className="text-slate-600">{T.loading}</p>
        ) : failed ? (
          <div role="alert" className="rounded-lg border border-slate-200 p-6">
            <p>We couldn't load your analytics right now.</p>
            <Button className="mt-3" onClick={() => void load(range)}>
              Try again
            </Button>
          </div>
        ) : null}
      </section>
    );
  }

  if (report.allTimePageViews === 0) {
    return (
      <section aria-labelledby="screen-title">
        {header}
        <div className="rounded-lg border border-dashed border-slate-300 p-10 text-center">
          <h2 className="text-lg font-semibold">{T.emptyTitle}</h2>
          <p className="mx-auto mt-1 max-w-prose text-slate-600">{T.emptyText}</p>
          <Button className="mt-4" onClick={share}>
            <Share2 aria-hidden className="size-4" /> {T.share}
          </Button>
        </div>
      </section>
    );
  }

  const { totals } = report;
  const tabClass = "border-b-2 border-transparent px-3 py-2 text-sm font-medium data-[state=active]:border-brand-600 data-[state=active]:text-brand-700";
  return (
    <section aria-labelledby="screen-title" aria-busy={loading}>
      {header}
      <Tabs.Root defaultValue="overview">
        <Tabs.List className="mb-4 flex flex-wrap gap-1 border-b border-slate-200" aria-label="Analytics">
          <Tabs.Trigger value="overview" className={tabClass}>
            Overview
          </Tabs.Trigger>
          <Tabs.Trigger value="links" className={tabClass}>
            Link Performance
          </Tabs.Trigger>
          <Tabs.Trigger value="sources" className={tabClass}>
            Traffic Sources
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="overview">
          <div className="grid gap-4 sm:grid-cols-3">
            <Card label="Page Views">{totals.pageViews}</Card>
            <Card label="Link Clicks">{totals.linkClicks}</Card>
            <Card
              label="Email Leads"
              footer={
                totals.emailLeads === null ? (
                  <Button variant="secondary" onClick={() => openUpgrade("lead_magnets")}>
                    {T.plusFeature}
                  </Button>
                ) : (
                  <div className="flex flex-wrap items-center gap-2">
                    <a href={`/api/analytics/leads.csv?${q}`} className="inline-flex items-center gap-1 font-medium text-brand-700 underline">
                      <Download aria-hidden className="size-4" /> Download CSV
                    </a>
                    {me.plan.isTrialActive && !me.plan.isPayingPlus ? <span className="text-slate-600">{T.trialLeads}</span> : null}
                  </div>
                )
              }
            >
              {totals.emailLeads === null ? <span aria-label="Not available on Plinth Lite">—</span> : totals.emailLeads}
            </Card>
          </div>
          <DailyChart daily={report.daily} />
        </Tabs.Content>
        <Tabs.Content value="links">
          {report.links.length === 0 ? (
            <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
              <p className="font-semibold">{T.noLinks}</p>
              <p className="mt-1 text-slate-600">{T.noLinksText}</p>
            </div>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="border-b border-slate-200 text-slate-600">
                  <tr>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Link Title
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      URL
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">
                      Clicks
                    </th>
                    <th scope="col" className="py-2 text-right font-medium">
                      CTR
                    </th>
                  </tr>
                </thead>
                <tbody>
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
                            <span className="block max-w-[200px] truncate text-slate-600" title={l.url}>
                              {l.url}
                            </span>
                          </td>
                          <td className="py-2 pr-3 text-right">{l.clicks}</td>
                          <td className="py-2 text-right">
                            <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[ctrBadgeVariant(l.ctr)]}`}>{l.ctr.toFixed(1)}%</span>
                          </td>
                        </tr>
                      ))}
                </tbody>
              </table>
            </div>
          )}
        </Tabs.Content>
        <Tabs.Content value="sources">
          <div className="grid gap-4 md:grid-cols-2">
            <Shares title="Referrers" rows={report.sources.referrers.map((r) => ({ name: r.domain, views: r.views }))} />
            <Shares title="Devices" rows={report.sources.devices.map((d) => ({ name: DEVICE_NAMES[d.device] ?? d.device, views: d.views }))} />
          </div>
          <p className="mt-3 text-sm text-slate-600">Counted without cookies and without storing visitors' addresses; automated visits are left out.</p>
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}
