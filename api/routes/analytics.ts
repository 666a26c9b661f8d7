/**
 * The owner's analytics (decisions.md: real counts, the range applied, traffic sources, export) and
 * collected leads (Plus: lead_magnets).
 */
import { Hono, type Context } from "hono";
import { DASH } from "#core/dashboard-texts.ts";
import { rangeDays } from "#core/analytics-range.ts";
import { hasFeature } from "#core/plans.ts";
import { AnalyticsRangeSchema, csvRows, ExportQuerySchema } from "#core/schemas/analytics.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { leadsOf, type AnalyticsReport } from "../services/analytics.ts";
import { getProfile, planStateOf } from "../services/profile.ts";
import { query } from "../validate.ts";

/** A download's name: the owner and the range's first and last day, as the picker shows them. */
const fileName = (kind: string, username: string, days: { first: string; last: string }) => `plinth-${kind}-${username}-${days.first}-to-${days.last}`;

function attachment(c: Context, body: string, type: string, name: string) {
  return c.body(body, 200, { "Content-Type": type, "Content-Disposition": `attachment; filename="${name}"` });
}

export function reportCsv(r: AnalyticsReport): string {
  return csvRows([
    ["Plinth analytics", `${r.range.first} to ${r.range.last}`],
    [],
    ["Page Views", "Link Clicks", "Email Leads", "Visitors"],
    [r.totals.pageViews, r.totals.linkClicks, r.totals.emailLeads, r.totals.visitors],
    [],
    ["Link Title", "URL", "Clicks", "CTR (%)"],
    ...r.links.map((l) => [l.title, l.target, l.clicks, l.ctr]),
    [],
    ["Date", "Page Views", "Link Clicks", "Visitors"],
    ...r.daily.map((d) => [d.date, d.pageViews, d.linkClicks, d.visitors]),
    [],
    ["Referrer", "Page Views"],
    ...r.sources.referrers.map((s) => [s.domain, s.views]),
    [],
    ["Device", "Page Views"],
    ...r.sources.devices.map((s) => [s.device, s.views]),
    [],
    ["Country", "Page Views"],
    ...r.sources.countries.map((s) => [s.country, s.views]),
    [],
    ["Campaign Source", "Campaign Medium", "Campaign", "Page Views"],
    ...r.campaigns.map((s) => [s.source, s.medium, s.campaign, s.views]),
  ]);
}

export function analyticsRoutes({ db, now, reports }: AppDeps) {
  const leadsAllowed = (userId: string) => hasFeature(planStateOf(getProfile(db, userId)), "lead_magnets", now());
  const detailedAllowed = (userId: string) => hasFeature(planStateOf(getProfile(db, userId)), "detailed_analytics", now());
  const requirePlus = (feature: "lead_magnets" | "detailed_analytics", allowed: boolean) => {
    if (!allowed) throw new ApiError("payment_required", DASH.plusTooltip, { details: { feature } });
  };
  const requireLeads = (userId: string) => requirePlus("lead_magnets", leadsAllowed(userId));
  const options = (userId: string) => ({ leads: leadsAllowed(userId), detailed: detailedAllowed(userId) });

  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // GET /api/analytics?from&to&tz - totals, per-link clicks and CTR, sources and days of the range
      .get("/", query(AnalyticsRangeSchema), async (c) => {
        const user = currentUser(c);
        return c.json(await reports.report(user.id, c.req.valid("query"), options(user.id)));
      })
      // GET /api/analytics/export?format=csv|json&from&to&tz - the same report as a download
      .get("/export", query(ExportQuerySchema), async (c) => {
        const user = currentUser(c);
        const q = c.req.valid("query");
        // Exports hold the detailed report: Plus (ADR 074).
        requirePlus("detailed_analytics", detailedAllowed(user.id));
        const report = await reports.report(user.id, q, options(user.id));
        const name = fileName("analytics", getProfile(db, user.id).username, report.range);
        return q.format === "json"
          ? attachment(c, JSON.stringify(report, null, 2), "application/json; charset=utf-8", `${name}.json`)
          : attachment(c, reportCsv(report), "text/csv; charset=utf-8", `${name}.csv`);
      })
      // GET /api/analytics/leads - collected e-mail leads, newest first (Plus)
      .get("/leads", (c) => {
        const user = currentUser(c);
        requireLeads(user.id);
        return c.json({ leads: leadsOf(db, user.id) });
      })
      // GET /api/analytics/leads.csv?from&to&tz - the leads of the range as CSV (Plus)
      .get("/leads.csv", query(AnalyticsRangeSchema), (c) => {
        const user = currentUser(c);
        requireLeads(user.id);
        const q = c.req.valid("query");
        const leads = leadsOf(db, user.id, { from: new Date(q.from), to: new Date(q.to) });
        const body = csvRows([["Email", "Link", "Date"], ...leads.map((l) => [l.email, l.linkTitle, l.createdAt])]);
        return attachment(c, body, "text/csv; charset=utf-8", `${fileName("leads", getProfile(db, user.id).username, rangeDays(q))}.csv`);
      })
  );
}
