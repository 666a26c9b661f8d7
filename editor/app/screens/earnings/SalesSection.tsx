/**
 * Earnings' Sales section (ADR 236): the owner's paid and refunded sales, newest first, with the
 * date, item, amount, the operator's fee, the net (less any refund) and the buyer's e-mail; 25 a page; the CSV of all
 * of them; and "Resend link" for a paid download, behind a confirmation.
 */
import { Download, Receipt } from "lucide-react";
import { startTransition, useCallback, useEffect, useState } from "react";
import { formatAmount, PAYMENTS } from "#core/payments.ts";
import { api, clientErrorMessage, unwrap } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { Confirm } from "../../components/modal.tsx";
import { Pager } from "../../components/pager.tsx";
import { toast } from "../../toast.tsx";
import { dateAtTime } from "../../../components/dates.ts";
import { Badge } from "../account/billing-ui.tsx";

type Sale = Awaited<ReturnType<typeof loadSales>>["sales"][number];
const loadSales = () => unwrap(api.payments.sales.$get());

export const SALES_PAGE_SIZE = 25;
const RESEND_FAILED = "Could not send the link again";
/** The columns of amounts, right-aligned. */
const MONEY_COLUMNS = new Set(["Amount", "Fee", "Net"]);

export default function SalesSection() {
  const [sales, setSales] = useState<Sale[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [resending, setResending] = useState<Sale | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setFailed(false);
    try {
      const { sales } = await loadSales();
      startTransition(() => setSales(sales));
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function resend() {
    if (!resending) return;
    setBusy(true);
    try {
      const { message } = await unwrap(api.payments.sales[":id"].resend.$post({ param: { id: resending.id } }));
      toast.success(message, { description: `Sent to ${resending.buyerEmail}` });
      setResending(null);
    } catch (err) {
      toast.error(RESEND_FAILED, { description: clientErrorMessage(err) });
      setResending(null);
    } finally {
      setBusy(false);
    }
  }

  let content;
  if (failed && !sales) {
    content = (
      <div role="alert">
        <p>Your sales could not be loaded.</p>
        <Button className="mt-3" onClick={() => void load()}>
          Try again
        </Button>
      </div>
    );
  } else if (!sales) {
    content = <p className="text-slate-600">Loading sales...</p>;
  } else if (sales.length === 0) {
    content = <EmptyState icon={Receipt} title="No sales yet" text="Tips and downloads your visitors pay for show here." headingLevel={3} />;
  } else {
    const pages = Math.max(1, Math.ceil(sales.length / SALES_PAGE_SIZE));
    const current = Math.min(page, pages);
    const shown = sales.slice((current - 1) * SALES_PAGE_SIZE, current * SALES_PAGE_SIZE);
    const th = "py-2 pr-3 font-medium";
    content = (
      <>
        {/* Focusable, so a keyboard scrolls the table sideways on a narrow screen. */}
        <div tabIndex={0} role="region" aria-label="Sales table" className="relative -mx-4 overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-600 sm:mx-0">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <caption className="sr-only">
              Sales, newest first, page {current} of {pages}
            </caption>
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                {["Date", "Item", "Amount", "Fee", "Net", "Buyer"].map((h) => (
                  <th key={h} scope="col" className={MONEY_COLUMNS.has(h) ? `${th} text-right` : th}>
                    {h}
                  </th>
                ))}
                <th scope="col" className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((s) => (
                <tr key={s.id} className="border-b border-slate-100 align-top">
                  <td className="whitespace-nowrap py-2 pr-3">{dateAtTime(new Date(s.date))}</td>
                  <th scope="row" className="py-2 pr-3 font-medium">
                    <span className="break-words">{s.item}</span>
                    <span className="mt-0.5 flex flex-wrap gap-1 font-normal">
                      <Badge variant="outline">{s.kind === "tip" ? "Tip" : "Download"}</Badge>
                      {s.status === "refunded" ? <Badge variant="destructive">Refunded</Badge> : null}
                      {s.status !== "refunded" && s.refunded > 0 ? <Badge variant="secondary">Refunded {formatAmount(s.refunded, s.currency)}</Badge> : null}
                    </span>
                    {s.note && !s.notePrivate ? <span className="mt-1 block font-normal text-slate-600">“{s.note}”</span> : null}
                    {s.note && s.notePrivate ? <span className="mt-1 block font-normal text-slate-600">“{s.note}” (private)</span> : null}
                  </th>
                  <td className="whitespace-nowrap py-2 pr-3 text-right tabular-nums">{formatAmount(s.amount, s.currency)}</td>
                  <td className="whitespace-nowrap py-2 pr-3 text-right tabular-nums">{formatAmount(s.fee, s.currency)}</td>
                  <td className="whitespace-nowrap py-2 pr-3 text-right tabular-nums">{formatAmount(s.net, s.currency)}</td>
                  <td className="max-w-56 break-all py-2 pr-3">{s.buyerEmail ?? ""}</td>
                  <td className="py-2 text-right">
                    {s.kind === "download" && s.status === "paid" && s.buyerEmail ? (
                      <Button variant="secondary" className="whitespace-nowrap" aria-label={`Resend link to ${s.buyerEmail}`} onClick={() => setResending(s)}>
                        Resend link
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pager label="Sales pages" page={current} pages={pages} onPage={setPage} />
      </>
    );
  }

  return (
    <section aria-labelledby="sales" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="sales" className="text-lg font-semibold">
          Sales
        </h2>
        {sales && sales.length > 0 ? (
          <a href="/api/payments/sales.csv" download className="inline-flex min-h-10 items-center gap-1 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50">
            <Download aria-hidden className="size-4" /> Export CSV
          </a>
        ) : null}
      </div>
      {content}
      <Confirm
        open={resending !== null}
        onOpenChange={(o) => (o ? undefined : setResending(null))}
        title="Resend the download link?"
        description={`${resending?.buyerEmail ?? "The buyer"} gets a new link by e-mail, good for ${PAYMENTS.DOWNLOAD_LINK_TTL_MS / 3_600_000} hours and ${PAYMENTS.DOWNLOAD_LINK_MAX_USES} downloads. The link sent before stops working.`}
        confirm="Resend link"
        busy={busy}
        onConfirm={() => void resend()}
      />
    </section>
  );
}
