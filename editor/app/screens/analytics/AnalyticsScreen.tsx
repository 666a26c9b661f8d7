/**
 * Analytics (/dashboard/analytics): page views, visitors, link clicks and e-mail leads for a chosen
 * range with every day drawn; for Plus and trial also per-link clicks over time, traffic sources,
 * countries, campaigns and CSV/JSON export (ADR 074), and the collected e-mail leads themselves (ADR
 * 142), where Lite sees the Plus Feature prompt.
 */
import { BarChart3, Crown, Download, Share2 } from "lucide-react";
import { Tabs } from "radix-ui";
import { lazy, startTransition, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { toast } from "../../toast.tsx";
import { daysBetween, fillDays } from "#core/analytics-range.ts";
import { DASH } from "#core/dashboard-texts.ts";
import { ANALYTICS_TEXTS as T, DEFAULT_RANGE_DAYS, LEADS_TEXTS, presetRange, shareTitle } from "#core/analytics.ts";
import { VISITOR_MESSAGES } from "#core/visitor.ts";
import { api, clientErrorMessage, unwrap } from "../../api.ts";
import { LazyMenu } from "../../components/lazy-menu.tsx";
import { Button } from "../../components/button.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { useDashboard } from "../../store.ts";
import { DayChart } from "./DayChart.tsx";
import type { Report } from "./DetailPanels.tsx";
import { daysOf, rangeQuery, type Range } from "./range.ts";
import { RangePicker } from "./RangePicker.tsx";
import { LoadFailed } from "../LoadFailed.tsx";
import { ScreenHeader } from "../ScreenHeader.tsx";

// The Links and Traffic Sources tabs load their panels when first shown (ADR 131).
const LinkPerformance = lazy(() => import("./DetailPanels.tsx").then((m) => ({ default: m.LinkPerformance })));
const TrafficSources = lazy(() => import("./DetailPanels.tsx").then((m) => ({ default: m.TrafficSources })));
const PlusPrompt = lazy(() => import("./DetailPanels.tsx").then((m) => ({ default: m.PlusPrompt })));
const LeadsPanel = lazy(() => import("./LeadsPanel.tsx"));

function Card({ label, children, footer }: { label: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-1 text-3xl font-bold">{children}</p>
      {footer ? <div className="mt-2 text-sm">{footer}</div> : null}
    </div>
  );
}

export default function AnalyticsScreen() {
  const me = useDashboard((s) => s.me);
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  const dataVersion = useDashboard((s) => s.dataVersion);
  const [range, setRange] = useState<Range>(() => ({ ...presetRange(DEFAULT_RANGE_DAYS, new Date()), days: DEFAULT_RANGE_DAYS }));
  const [report, setReport] = useState<Report | null>(null);
  const [loading, setLoading] = useState(true);
  /** Why the range has no numbers: the server's message for a refused range, "" for a failed load. */
  const [failure, setFailure] = useState<string | null>(null);
  const [tab, setTab] = useState("overview");
  const latest = useRef(0);

  const load = useCallback(async (r: Range) => {
    // Only the newest range's answer counts: an older one arriving late must not show under the new label.
    // The report renders as a transition, in slices: a year of charts and tables is a long render.
    const call = ++latest.current;
    setLoading(true);
    try {
      const next = await unwrap(api.analytics.$get({ query: rangeQuery(r) }));
      if (call !== latest.current) return;
      startTransition(() => {
        setReport(next);
        setFailure(null);
        setLoading(false);
      });
    } catch (e) {
      if (call !== latest.current) return;
      console.warn("Error fetching analytics", e);
      // The old numbers belong to another range: they go.
      startTransition(() => {
        setReport(null);
        setFailure(clientErrorMessage(e) ?? "");
        setLoading(false);
      });
    }
  }, []);
  useEffect(() => {
    void load(range);
  }, [load, range, dataVersion]);

  if (!me) return null;
  const url = me.pageAddress;
  const q = new URLSearchParams(rangeQuery(range)).toString();
  const detailed = report ? report.detailed : me.plan.features.includes("detailed_analytics");
  const { first, last } = daysOf(range);
  const days = daysBetween(first, last);
  const thisYear = new Date().getFullYear();

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
        <ScreenHeader path="/dashboard/analytics" />
      </div>
      <div className="flex flex-wrap gap-2">
        <RangePicker range={range} onChange={setRange} />
        {detailed ? (
          <LazyMenu
            align="end"
            sideOffset={6}
            className="z-50 min-w-44 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
            trigger={
              <Button variant="secondary">
                <Download aria-hidden className="size-4" /> Export
              </Button>
            }
          >
            {({ MenuItem }) => (
              <>
                <MenuItem onSelect={() => window.location.assign(`/api/analytics/export?format=csv&${q}`)}>Export to CSV</MenuItem>
                <MenuItem onSelect={() => window.location.assign(`/api/analytics/export?format=json&${q}`)}>Export to JSON</MenuItem>
              </>
            )}
          </LazyMenu>
        ) : (
          <Button variant="secondary" title={DASH.plusTooltip} aria-label={`Export: ${T.plusFeature}. ${DASH.plusTooltip}`} onClick={() => openUpgrade("detailed_analytics")}>
            <Crown aria-hidden className="size-4 text-amber-700" /> Export
          </Button>
        )}
      </div>
    </div>
  );

  if (!report) {
    return (
      <section aria-labelledby="screen-title" aria-busy={loading}>
        {header}
        {loading ? (
          <p className="text-slate-600">{T.loading}</p>
        ) : failure ? (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6">
            <p className="font-medium text-red-800">{failure}</p>
          </div>
        ) : failure === "" ? (
          <LoadFailed role="alert" text="We couldn't load your analytics right now." onRetry={() => void load(range)} />
        ) : null}
      </section>
    );
  }

  if (report.allTimePageViews === 0) {
    return (
      <section aria-labelledby="screen-title">
        {header}
        <EmptyState
          icon={BarChart3}
          title={T.emptyTitle}
          text={T.emptyText}
          action={
            <Button onClick={share}>
              <Share2 aria-hidden className="size-4" /> {T.share}
            </Button>
          }
        />
      </section>
    );
  }

  const { totals } = report;
  const leadViewing = me.plan.features.includes("lead_viewing");
  const daily = fillDays(report.daily, days, { pageViews: 0, linkClicks: 0, visitors: 0 });
  const tabClass = "border-b-2 border-transparent px-3 py-2 text-sm font-medium data-[state=active]:border-brand-600 data-[state=active]:text-brand-700";
  return (
    <section aria-labelledby="screen-title" aria-busy={loading}>
      {header}
      <Tabs.Root value={tab} onValueChange={setTab}>
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
          <Tabs.Trigger value="leads" className={tabClass}>
            {LEADS_TEXTS.tab}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="overview">
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Card label="Page Views">{totals.pageViews}</Card>
            <Card label="Visitors">{totals.visitors}</Card>
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
                    {leadViewing ? (
                      <button type="button" className="font-medium text-brand-700 underline" onClick={() => setTab("leads")}>
                        View leads
                      </button>
                    ) : null}
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
          <DayChart title="Page views per day" valueName="Page views" points={daily.map((d) => ({ date: d.date, value: d.pageViews }))} thisYear={thisYear} />
        </Tabs.Content>
        <Tabs.Content value="links">
          <Suspense fallback={null}>
            {report.detailed ? <LinkPerformance report={report} loading={loading} days={days} thisYear={thisYear} /> : <PlusPrompt part="Link Performance" />}
          </Suspense>
        </Tabs.Content>
        <Tabs.Content value="sources">
          <Suspense fallback={null}>{report.detailed ? <TrafficSources report={report} /> : <PlusPrompt part="Traffic Sources, Countries and Campaigns" />}</Suspense>
        </Tabs.Content>
        <Tabs.Content value="leads">
          <Suspense fallback={null}>{leadViewing ? <LeadsPanel /> : <PlusPrompt part={LEADS_TEXTS.tab} feature="lead_viewing" />}</Suspense>
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}
