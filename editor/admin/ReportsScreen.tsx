/**
 * Reported pages (ADR 108): open reports grouped by page, newest first, with the version the first
 * report saw; dismiss, suspend and restore, each with a note or reason, each undoable from its toast.
 */
import { useCallback, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import type { ReportedPage } from "#api/services/admin-reports.ts";
import { REPORT_REASON_LABELS, type ReportReason } from "#core/limits.ts";
import { api, ApiFailure, unwrap } from "../app/api.ts";
import { Button } from "../app/components/button.tsx";
import { when } from "./format.ts";
import { Fact } from "./PayoutsScreen.tsx";
import { TextDialog, useKeptWhileClosing } from "./TextDialog.tsx";
import { undoAction } from "./undo.ts";

type Action = "dismiss" | "suspend" | "restore";
type Acting = { page: ReportedPage; action: Action } | null;

const reasonLabel = (r: string) => REPORT_REASON_LABELS[r as ReportReason] ?? r;

/** The console's page actions, shared with the undo buttons of their toasts. */
const pageActions = {
  dismiss: (id: string, note: string) => unwrap(api.admin.reports[":id"].dismiss.$post({ param: { id }, json: { note } })),
  reopen: (id: string, note: string) => unwrap(api.admin.reports[":id"].reopen.$post({ param: { id }, json: { note } })),
  suspend: (id: string, reason: string) => unwrap(api.admin.pages[":id"].suspend.$post({ param: { id }, json: { reason } })),
  restore: (id: string, note: string) => unwrap(api.admin.pages[":id"].restore.$post({ param: { id }, json: { note } })),
};

export function ReportsScreen() {
  const [pages, setPages] = useState<ReportedPage[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [acting, setActing] = useState<Acting>(null);
  const load = useCallback(async () => {
    setError(null);
    try {
      setPages((await unwrap(api.admin.reports.$get())).pages as ReportedPage[]);
    } catch (e) {
      setPages(null);
      setError(e instanceof ApiFailure ? e.message : "The reports could not be loaded.");
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section aria-labelledby="reports-title">
      <h1 id="reports-title" className="text-2xl font-bold">
        Reports
      </h1>
      {error ? (
        <p role="alert" className="mt-4 text-red-700">
          {error}
        </p>
      ) : pages === null ? (
        <p role="status" className="mt-4 text-slate-600">
          Loading...
        </p>
      ) : pages.length === 0 ? (
        <p className="mt-4 text-slate-600">No reported pages are waiting.</p>
      ) : (
        <ul className="mt-4 space-y-4">
          {pages.map((p) => (
            <ReportCard key={p.userId} page={p} onAct={(action) => setActing({ page: p, action })} />
          ))}
        </ul>
      )}
      <ActionDialog acting={acting} onClose={() => setActing(null)} onDone={() => void load()} />
    </section>
  );
}

function ReportCard({ page: p, onAct }: { page: ReportedPage; onAct(a: Action): void }) {
  const headingId = useId();
  const total = p.reports.length;
  return (
    <li aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="break-words font-semibold">
        /{p.username}: {total} {total === 1 ? "report" : "reports"}
      </h2>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <Fact term="Account">{p.accountEmail}</Fact>
        <Fact term="Reasons">{total ? p.reasons.map((r) => `${reasonLabel(r.reason)} (${r.count})`).join(", ") : "No open reports"}</Fact>
        <Fact term="Last reported">{when(p.lastReportedAt)}</Fact>
        <Fact term="First reported">{when(p.firstReportedAt)}</Fact>
        <Fact term="Status">{p.suspendedAt ? `Suspended ${when(p.suspendedAt)}: ${p.suspensionReason}` : "Live"}</Fact>
      </dl>
      {total ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium text-slate-800">Details of each report</summary>
          <ul className="mt-2 divide-y divide-slate-100">
            {p.reports.map((r) => (
              <li key={r.id} className="py-2">
                <p>
                  <span className="font-medium">{reasonLabel(r.reason)}</span> · {when(r.createdAt)} · reporter{" "}
                  <code className="break-all text-xs">{r.reporter ? r.reporter.slice(0, 12) : "unknown"}</code>
                </p>
                <p className="mt-1 whitespace-pre-line break-words text-slate-700">{r.details || "No details given."}</p>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {p.pinnedVersion !== null ? (
          <a
            href={`/api/admin/reports/${encodeURIComponent(p.userId)}/pinned`}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex min-h-10 items-center rounded-md border border-slate-300 px-4 text-sm font-medium text-brand-700 underline"
          >
            View version {p.pinnedVersion} as reported (opens in a new tab)
          </a>
        ) : null}
        {p.suspendedAt ? (
          <Button onClick={() => onAct("restore")}>Restore page</Button>
        ) : (
          <Button variant="danger" onClick={() => onAct("suspend")}>
            Suspend page
          </Button>
        )}
        {total ? (
          <Button variant="secondary" onClick={() => onAct("dismiss")}>
            Dismiss
          </Button>
        ) : null}
      </div>
    </li>
  );
}

const DIALOGS: Record<Action, { title: string; label: string; confirm: string; danger: boolean; description(p: ReportedPage): string }> = {
  dismiss: { title: "Dismiss reports", label: "Note", confirm: "Dismiss", danger: false, description: (p) => `The open ${p.reports.length === 1 ? "report" : "reports"} of /${p.username} leave the queue. The note is kept in the record.` },
  suspend: {
    title: "Suspend page",
    label: "Reason",
    confirm: "Suspend page",
    danger: true,
    description: (p) => `/${p.username} then shows "This page is unavailable" and cannot be published. The owner reads the reason in an e-mail and in the dashboard.`,
  },
  restore: { title: "Restore page", label: "Note", confirm: "Restore page", danger: false, description: (p) => `/${p.username} shows its last published version again, and the owner is told by e-mail.` },
};

function ActionDialog({ acting, onClose, onDone }: { acting: Acting; onClose(): void; onDone(): void }) {
  const shown = useKeptWhileClosing(acting);
  if (!shown) return null;
  const { page: p, action } = shown;
  const d = DIALOGS[action];
  return (
    <TextDialog
      open={acting !== null}
      title={d.title}
      description={d.description(p)}
      label={d.label}
      multiline
      maxLength={1000}
      confirm={d.confirm}
      danger={d.danger}
      onClose={onClose}
      onSubmit={async (text) => {
        const id = p.userId;
        if (action === "dismiss") {
          await pageActions.dismiss(id, text);
          toast.success(`Dismissed the reports of /${p.username}`, { action: undoAction(() => pageActions.reopen(id, `Undo of the dismissal: ${text}`), "Reports reopened", onDone) });
        } else if (action === "suspend") {
          await pageActions.suspend(id, text);
          toast.success(`Suspended /${p.username}`, { action: undoAction(() => pageActions.restore(id, `Undo of the suspension: ${text}`), "Page restored", onDone) });
        } else {
          const { previousReason } = await pageActions.restore(id, text);
          toast.success(`Restored /${p.username}`, { action: undoAction(() => pageActions.suspend(id, previousReason), "Page suspended again", onDone) });
        }
        onDone();
      }}
    />
  );
}
