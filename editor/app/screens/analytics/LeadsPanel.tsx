/**
 * The Email Leads tab (ADR 142): every address the owner's lead magnets collected, newest first, a page
 * at a time, with the link it came through and when; all of them as CSV; and Delete on each, for a
 * visitor who asks to be erased. Loads with the tab's first showing (ADR 131).
 */
import type { InferResponseType } from "hono/client";
import { Download, Inbox, Trash2 } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { LEADS_TEXTS as T } from "#core/analytics.ts";
import { dateAtTime } from "../../../components/dates.ts";
import { api, clientErrorMessage, unwrap } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { Confirm } from "../../components/modal.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { useRowFocus } from "../../components/focus.ts";
import { Pager } from "../../components/pager.tsx";
import { toast } from "../../toast.tsx";
import { LoadFailed } from "../LoadFailed.tsx";

type LeadsPage = InferResponseType<typeof api.analytics.leads.$get, 200>;
type Lead = LeadsPage["leads"][number];

export default function LeadsPanel() {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<LeadsPage | null>(null);
  const [failed, setFailed] = useState(false);
  const [deleting, setDeleting] = useState<Lead | null>(null);
  const [busy, setBusy] = useState(false);
  const exportLink = useRef<HTMLAnchorElement>(null);
  const rowFocus = useRowFocus(() => exportLink.current);
  // The confirm keeps naming the lead while it closes.
  const named = useRef<Lead | null>(null);
  if (deleting) named.current = deleting;

  const load = useCallback(async (p: number) => {
    try {
      const next = await unwrap(api.analytics.leads.$get({ query: { page: String(p) } }));
      // A page emptied by a delete (or by a delete in another tab): the one before it.
      if (next.leads.length === 0 && p > 1) return setPage(p - 1);
      setData(next);
      setFailed(false);
    } catch (e) {
      console.warn("Error fetching leads", e);
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load(page);
  }, [load, page]);

  async function erase() {
    if (!deleting) return;
    setBusy(true);
    try {
      await unwrap(api.analytics.leads[":id"].$delete({ param: { id: deleting.id } }));
      rowFocus.removed();
      toast.success(T.deleted);
      setDeleting(null);
      await load(page);
    } catch (err) {
      setDeleting(null);
      toast.error(T.deleteFailed, { description: clientErrorMessage(err) });
      await load(page);
    } finally {
      setBusy(false);
    }
  }

  if (failed && !data) return <LoadFailed role="alert" text={T.loadFailed} onRetry={() => void load(page)} />;
  if (!data) return <p className="text-slate-600">Loading leads...</p>;
  if (data.total === 0) return <EmptyState icon={Inbox} title={T.emptyTitle} text={T.emptyText} headingLevel={3} />;

  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-prose text-sm text-slate-600">
          {T.intro} {data.total === 1 ? "1 lead" : `${data.total} leads`} in all.
        </p>
        <a ref={exportLink} href="/api/analytics/leads.csv" className="inline-flex min-h-10 items-center gap-1 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50">
          <Download aria-hidden className="size-4" /> {T.exportAll}
        </a>
      </div>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Email leads, newest first, page {data.page} of {pages}</caption>
          <thead className="border-b border-slate-200 text-slate-600">
            <tr>
              {["Email", "Link", "Date"].map((h) => (
                <th key={h} scope="col" className="py-2 pr-3 font-medium">
                  {h}
                </th>
              ))}
              <th scope="col" className="py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.leads.map((l) => (
              <tr key={l.id} className="border-b border-slate-100">
                <th scope="row" className="max-w-64 break-all py-2 pr-3 font-medium">
                  {l.email}
                </th>
                <td className="py-2 pr-3">{l.linkTitle}</td>
                <td className="whitespace-nowrap py-2 pr-3">{dateAtTime(new Date(l.createdAt))}</td>
                <td className="py-2 text-right">
                  <Button variant="ghost" data-row-menu aria-label={`Delete ${l.email}`} onClick={() => setDeleting(l)}>
                    <Trash2 aria-hidden className="size-4" />
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager label="Lead pages" page={data.page} pages={pages} onPage={setPage} />
      <Confirm
        open={deleting !== null}
        onOpenChange={(o) => !o && !busy && setDeleting(null)}
        title={T.deleteTitle}
        description={T.deleteText(named.current?.email ?? "")}
        confirm="Delete"
        danger
        busy={busy}
        onConfirm={() => void erase()}
        focusOnClose={rowFocus.onClose}
      />
    </div>
  );
}
