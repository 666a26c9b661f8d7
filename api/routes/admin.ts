/**
 * The operator's console API (ADR 105). Every route answers 404 to anyone but an admin with
 * two-factor on (api/auth/admin.ts), exactly as an unknown path does.
 */
import { Hono, type Context } from "hono";
import { ADMIN_TEXTS, AUDIT_PAGE_SIZE } from "#core/admin.ts";
import { z } from "zod";
import { AdminNoteSchema, AdminReasonSchema, AuditQuerySchema, PayoutDecisionSchema, PeopleQuerySchema, type AuditQuery } from "#core/schemas/admin.ts";
import { csvRows } from "#core/schemas/analytics.ts";
import { requireAdmin } from "../auth/admin.ts";
import { currentUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { auditEntries } from "../services/admin-audit.ts";
import { adminPayout, decidePayout, payoutQueue } from "../services/admin-payouts.ts";
import { personOf, searchPeople, signOutEverywhere } from "../services/admin-people.ts";
import { dismissReports, pinnedPageHtml, reopenReports, reportQueue, restoreAccount, restorePage, suspendAccount, suspendPage } from "../services/admin-reports.ts";
import { jsonBody, params, query } from "../validate.ts";

const IdSchema = z.object({ id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/) });
const PayoutListSchema = z.object({ status: z.enum(["pending", "decided"], { error: "Please choose pending or decided" }).default("pending") });

/** The reported version is looked at, never run: no script, no form, no frame, nothing fetched but this server's files. */
const PINNED_PAGE_POLICY = "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox";

/** The largest export: far above any real record, and still a bounded answer. */
const EXPORT_MAX_ROWS = 100_000;

const filterOf = (q: AuditQuery) => ({
  action: q.action,
  actor: q.actor,
  target: q.target,
  from: q.from ? new Date(q.from) : undefined,
  to: q.to ? new Date(q.to) : undefined,
  before: q.before,
});

const adminOf = (c: Context<AppEnv>) => {
  const user = currentUser(c);
  return { id: user.id, email: user.email };
};

export function adminRoutes(deps: AppDeps) {
  const { db } = deps;
  return (
    new Hono<AppEnv>()
      .use("*", requireAdmin(deps))
      // GET /api/admin/session - who is signed in to the console, and when that sign-in ends
      .get("/session", (c) => {
        const user = currentUser(c);
        return c.json({ email: user.email, expiresAt: c.get("session")!.expiresAt.toISOString() });
      })
      // GET /api/admin/audit?action&actor&target&from&to&before - the record, newest first, a page at a time
      .get("/audit", query(AuditQuerySchema), (c) => {
        const entries = auditEntries(db, { ...filterOf(c.req.valid("query")), limit: AUDIT_PAGE_SIZE + 1 });
        const more = entries.length > AUDIT_PAGE_SIZE;
        return c.json({ entries: entries.slice(0, AUDIT_PAGE_SIZE), next: more ? entries[AUDIT_PAGE_SIZE - 1]!.seq : null });
      })
      // GET /api/admin/audit.csv - the same filters, every matching entry
      .get("/audit.csv", query(AuditQuerySchema), (c) => {
        const entries = auditEntries(db, { ...filterOf(c.req.valid("query")), limit: EXPORT_MAX_ROWS });
        const body = csvRows([
          ["When (UTC)", "Actor", "Action", "Target type", "Target id", "Target", "Reason", "Before", "After"],
          ...entries.map((e) => [e.at, e.actor, e.action, e.targetType, e.targetId, e.targetLabel, e.reason, JSON.stringify(e.before), JSON.stringify(e.after)]),
        ]);
        return c.body(body, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="plinth-audit-log.csv"' });
      })
      // GET /api/admin/payouts?status=pending|decided - cash payout requests to pay, or decided lately
      .get("/payouts", query(PayoutListSchema), (c) => c.json({ payouts: payoutQueue(db, c.req.valid("query").status) }))
      // GET /api/admin/payouts/:id - one request with the owner's balance history
      .get("/payouts/:id", params(IdSchema), (c) => {
        const payout = adminPayout(db, c.req.valid("param").id);
        if (!payout) throw new ApiError("not_found", ADMIN_TEXTS.payoutNotFound);
        return c.json({ payout });
      })
      // GET /api/admin/people?q - accounts whose e-mail or username contains q
      .get("/people", query(PeopleQuerySchema), (c) => c.json({ people: searchPeople(db, c.req.valid("query").q) }))
      // GET /api/admin/people/:id - one account's plan, subscription, dates, two-factor, balance and reports
      .get("/people/:id", params(IdSchema), (c) => c.json({ person: personOf(db, c.req.valid("param").id) }))
      // POST /api/admin/people/:id/sign-out-everywhere {reason} - end every session of the account
      .post("/people/:id/sign-out-everywhere", params(IdSchema), jsonBody(AdminReasonSchema), (c) => {
        const user = currentUser(c);
        return c.json(signOutEverywhere(db, { id: user.id, email: user.email }, c.req.valid("param").id, c.req.valid("json").reason, deps.now()));
      })
      // GET /api/admin/reports - open reports grouped by page, the page reported last first
      .get("/reports", (c) => c.json({ pages: reportQueue(db) }))
      // GET /api/admin/reports/:id/pinned - the page (by its owner's id) as published when first reported, run as nothing
      .get("/reports/:id/pinned", params(IdSchema), (c) =>
        c.body(pinnedPageHtml(deps, c.req.valid("param").id), 200, {
          "Content-Type": "text/html; charset=utf-8",
          "Content-Security-Policy": PINNED_PAGE_POLICY,
          "Cache-Control": "no-store",
          "X-Robots-Tag": "noindex, nofollow",
        }),
      )
      // POST /api/admin/reports/:id/dismiss {note} - close the page's open reports
      .post("/reports/:id/dismiss", params(IdSchema), jsonBody(AdminNoteSchema), (c) =>
        c.json(dismissReports(deps, adminOf(c), c.req.valid("param").id, c.req.valid("json").note)),
      )
      // POST /api/admin/reports/:id/reopen {note} - undo the page's last dismissal
      .post("/reports/:id/reopen", params(IdSchema), jsonBody(AdminNoteSchema), (c) =>
        c.json(reopenReports(deps, adminOf(c), c.req.valid("param").id, c.req.valid("json").note)),
      )
      // POST /api/admin/pages/:id/suspend {reason} - the public page becomes "This page is unavailable"
      .post("/pages/:id/suspend", params(IdSchema), jsonBody(AdminReasonSchema), async (c) =>
        c.json(await suspendPage(deps, adminOf(c), c.req.valid("param").id, c.req.valid("json").reason)),
      )
      // POST /api/admin/pages/:id/restore {note} - the last published version is live again
      .post("/pages/:id/restore", params(IdSchema), jsonBody(AdminNoteSchema), async (c) =>
        c.json(await restorePage(deps, adminOf(c), c.req.valid("param").id, c.req.valid("json").note)),
      )
      // POST /api/admin/people/:id/suspend {reason} - no sign-in, sessions ended, page suspended
      .post("/people/:id/suspend", params(IdSchema), jsonBody(AdminReasonSchema), async (c) =>
        c.json(await suspendAccount(deps, adminOf(c), c.req.valid("param").id, c.req.valid("json").reason)),
      )
      // POST /api/admin/people/:id/restore {note} - sign-in allowed and the page restored
      .post("/people/:id/restore", params(IdSchema), jsonBody(AdminNoteSchema), async (c) =>
        c.json(await restoreAccount(deps, adminOf(c), c.req.valid("param").id, c.req.valid("json").note)),
      )
      // POST /api/admin/payouts/:id/decision {decision: "paid", reference} | {decision: "rejected", reason}
      .post("/payouts/:id/decision", params(IdSchema), jsonBody(PayoutDecisionSchema), async (c) => {
        const user = currentUser(c);
        const payout = await decidePayout(deps, { id: user.id, email: user.email }, c.req.valid("param").id, c.req.valid("json"));
        return c.json({ payout });
      })
  );
}
