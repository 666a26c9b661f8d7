/**
 * The owner's analytics (decisions.md: real counts, the range applied, traffic sources, export) and
 * collected leads (Plus: the count and CSV are lead_magnets, the list and erasing one are lead_viewing;
 * ADR 142).
 */
import { Hono, type Context } from "hono";
import { DASH } from "#core/dashboard-texts.ts";
import { rangeDays } from "#core/analytics-range.ts";
import { hasFeature } from "#core/plans.ts";
import { AnalyticsRangeSchema, csvRows, ExportQuerySchema, LEADS_TEXTS, LeadIdSchema, LeadsPageQuerySchema } from "#core/schemas/analytics.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError, validationError } from "../errors.ts";
import type { AnalyticsReport } from "../services/analytics.ts";
import { deleteLead, leadsOf, leadsPage } from "../services/leads.ts";
import { getProfile, planStateOf } from "../services/profile.ts";
import { params, query } from "../validate.ts";

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
  // Seeing (and so erasing) single leads is lead_viewing (spec section 6); both keys are Plus and trial.
  const requireLeadViewing = (userId: string) => {
    if (!hasFeature(planStateOf(getProfile(db, userId)), "lead_viewing", now())) throw new ApiError("payment_required", DASH.plusTooltip, { details: { feature: "lead_viewing" } });
  };
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
      // GET /api/analytics/leads?page= - one page of the collected e-mail leads, newest first, and the total (Plus)
      .get("/leads", query(LeadsPageQuerySchema), (c) => {
        const user = currentUser(c);
        requireLeadViewing(user.id);
        return c.json(leadsPage(db, user.id, c.req.valid("query").page));
      })
      // DELETE /api/analytics/leads/:id - erases one lead (a visitor's right to erasure; Plus)
      .delete("/leads/:id", params(LeadIdSchema), (c) => {
        const user = currentUser(c);
        requireLeadViewing(user.id);
        if (!deleteLead(db, user.id, c.req.valid("param").id)) throw new ApiError("not_found", LEADS_TEXTS.notFound);
        return c.json({ deleted: true });
      })
      // GET /api/analytics/leads.csv[?from&to&tz] - the leads of the range, or every lead without one, as CSV (Plus)
      .get("/leads.csv", (c) => {
        const user = currentUser(c);
        requireLeads(user.id);
        const { username } = getProfile(db, user.id);
        const raw = c.req.query();
        const whole = raw.from === undefined && raw.to === undefined;
        const parsed = whole ? null : AnalyticsRangeSchema.safeParse(raw);
        if (parsed && !parsed.success) throw validationError(parsed.error);
        const q = parsed?.data;
        const leads = leadsOf(db, user.id, q ? { from: new Date(q.from), to: new Date(q.to) } : undefined);
        const body = csvRows([["Email", "Link", "Date"], ...leads.map((l) => [l.email, l.linkTitle, l.createdAt])]);
        return attachment(c, body, "text/csv; charset=utf-8", `${q ? fileName("leads", username, rangeDays(q)) : `plinth-leads-${username}-all`}.csv`);
      })
  );
}
