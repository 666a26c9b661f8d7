/** The record of every admin action and shell command, filtered, a page at a time, and as CSV (ADR 105). */
import { useEffect, useId, useState, type FormEvent, type ReactNode } from "react";
import type { AuditEntry } from "#api/services/admin-audit.ts";
import { ADMIN_ACTIONS } from "#core/admin.ts";
import { api, ApiFailure, unwrap } from "../app/api.ts";
import { Button } from "../app/components/button.tsx";
import { when } from "./format.ts";

const ACTION_LABELS: Record<(typeof ADMIN_ACTIONS)[number], string> = {
  "role.grant": "Admin role granted",
  "role.revoke": "Admin role revoked",
  "payout.paid": "Payout marked paid",
  "payout.rejected": "Payout rejected",
  "account.sign_out_everywhere": "Signed out everywhere",
  "reports.dismiss": "Reports dismissed",
  "reports.reopen": "Reports reopened",
  "page.suspend": "Page suspended",
  "page.restore": "Page restored",
  "account.suspend": "Account suspended",
  "account.restore": "Account restored",
};

type Filters = { action: string; actor: string; target: string; from: string; to: string };
const EMPTY: Filters = { action: "", actor: "", target: "", from: "", to: "" };

/** The filters as the API takes them: dates as whole local days, the last one included. */
function queryOf(f: Filters): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.action) q.action = f.action;
  if (f.actor.trim()) q.actor = f.actor;
  if (f.target.trim()) q.target = f.target;
  if (f.from) q.from = new Date(`${f.from}T00:00:00`).toISOString();
  if (f.to) {
    const end = new Date(`${f.to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    q.to = end.toISOString();
  }
  return q;
}

/** One filter: its label above its control. */
function Filter({ label, children }: { label: string; children(id: string): ReactNode }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

const changes = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].map((k) => `${k}: ${JSON.stringify(before[k] ?? null)} → ${JSON.stringify(after[k] ?? null)}`).join("; ");

export function AuditScreen() {
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function load(f: Filters, before?: number) {
    setError(null);
    try {
      const query = { ...queryOf(f), ...(before ? { before } : {}) };
      const page = await unwrap(api.admin.audit.$get({ query }));
      setEntries((old) => (before && old ? [...old, ...(page.entries as AuditEntry[])] : (page.entries as AuditEntry[])));
      setNext(page.next);
    } catch (e) {
      if (!before) setEntries(null);
      setError(e instanceof ApiFailure ? e.message : "The record could not be loaded.");
    }
  }
  useEffect(() => {
    void load(EMPTY);
  }, []);
  function apply(e: FormEvent) {
    e.preventDefault();
    setApplied(filters);
    void load(filters);
  }
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setFilters({ ...filters, [k]: e.target.value });
  const input = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2";

  return (
    <section aria-labelledby="audit-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 id="audit-title" className="text-2xl font-bold">
          Audit log
        </h1>
        <a href={`/api/admin/audit.csv?${new URLSearchParams(queryOf(applied))}`} className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium" download>
          Export CSV
        </a>
      </div>
      <form onSubmit={apply} aria-label="Filter the record" className="mt-4 grid grid-cols-1 gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5">
        <Filter label="Action">
          {(id) => (
            <select id={id} value={filters.action} onChange={set("action")} className={input}>
              <option value="">Any action</option>
              {ADMIN_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {ACTION_LABELS[a]}
                </option>
              ))}
            </select>
          )}
        </Filter>
        <Filter label="Who">{(id) => <input id={id} value={filters.actor} onChange={set("actor")} className={input} />}</Filter>
        <Filter label="Target">{(id) => <input id={id} value={filters.target} onChange={set("target")} className={input} />}</Filter>
        <Filter label="From">{(id) => <input id={id} type="date" value={filters.from} onChange={set("from")} className={input} />}</Filter>
        <Filter label="To">{(id) => <input id={id} type="date" value={filters.to} onChange={set("to")} className={input} />}</Filter>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-5">
          <Button type="submit">Apply filters</Button>
          <Button
            variant="secondary"
            onClick={() => {
              setFilters(EMPTY);
              setApplied(EMPTY);
              void load(EMPTY);
            }}
          >
            Clear
          </Button>
        </div>
      </form>
      {error ? (
        <p role="alert" className="mt-4 text-red-700">
          {error}
        </p>
      ) : null}
      {entries === null ? null : entries.length === 0 ? (
        <p role="status" className="mt-4 text-slate-600">
          Nothing in the record matches.
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full min-w-[40rem] text-left text-sm">
            <caption className="sr-only">Audit log entries, newest first</caption>
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                {["When", "Who", "Action", "Target", "Reason", "Changes"].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.seq} className="border-t border-slate-100 align-top">
                  <td className="whitespace-nowrap px-3 py-2">{when(e.at)}</td>
                  <td className="px-3 py-2">{e.actor}</td>
                  <td className="px-3 py-2">{ACTION_LABELS[e.action as keyof typeof ACTION_LABELS] ?? e.action}</td>
                  <td className="break-all px-3 py-2">{e.targetLabel || e.targetId}</td>
                  <td className="whitespace-pre-line px-3 py-2">{e.reason}</td>
                  <td className="break-words px-3 py-2 text-slate-600">{changes(e.before, e.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next ? (
        <Button variant="secondary" className="mt-4" onClick={() => void load(applied, next)}>
          Show older entries
        </Button>
      ) : null}
    </section>
  );
}
