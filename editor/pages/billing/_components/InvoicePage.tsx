/**
 * A printable invoice (/billing/invoice?id=...), the invoice link of billing history and receipts.
 * Only its owner can open it. "Print or save as PDF" uses the browser's own print dialog.
 */
import { Printer } from "lucide-react";
import { useEffect, useState } from "react";
import { formatTaxRate } from "#core/invoice.ts";
import { BILLING_MESSAGES, formatMoney, INVOICE_STATUS_LABELS } from "#core/schemas/billing.ts";
import { api, ApiFailure, unwrap } from "../../../app/api.ts";
import ErrorBoundary from "../../../components/ErrorBoundary.tsx";
import { longDate } from "../../../components/dates.ts";
import { Notice, param } from "./page-parts.tsx";

type Data = Awaited<ReturnType<typeof load>>;
const load = (id: string) => unwrap(api.billing.invoices[":id"].$get({ param: { id } }));

function Invoice() {
  const id = param("id");
  const [data, setData] = useState<Data | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    load(id)
      .then((d) => {
        setData(d);
        document.title = `Invoice ${d.invoice.number ?? d.invoice.id} | Plinth`;
      })
      .catch((err: unknown) => setFailure(err instanceof ApiFailure ? err.message : BILLING_MESSAGES.invoiceNotFound));
  }, [id]);

  if (failure) return <Notice title={BILLING_MESSAGES.invoiceNotFound} text={failure} href="/dashboard/account-settings?tab=billing" link="Back to Billing" />;
  if (!data) return <p role="status" className="text-slate-600">Loading...</p>;
  const inv = data.invoice;
  const period = inv.periodStart && inv.periodEnd ? `${longDate(inv.periodStart)} to ${longDate(inv.periodEnd)}` : null;

  return (
    <article aria-labelledby="invoice-title" className="w-full max-w-2xl rounded-xl border border-slate-200 bg-white p-6 shadow-sm print:border-0 print:shadow-none sm:p-10">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <address role="group" aria-label="Seller" className="not-italic">
          <p className="text-2xl font-bold text-brand-700">{data.seller.name}</p>
          {data.seller.address.map((line, i) => (
            <p key={i} className="text-sm text-slate-700">
              {line}
            </p>
          ))}
          {data.seller.taxId ? <p className="text-sm text-slate-700">Tax ID: {data.seller.taxId}</p> : null}
          <p className="text-sm text-slate-600">{window.location.host}</p>
        </address>
        <div className="text-right">
          <h1 id="invoice-title" className="text-2xl font-bold">
            Invoice
          </h1>
          <p className="font-mono text-sm">{inv.number ?? inv.id}</p>
          <p className="mt-1 inline-block rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold">{INVOICE_STATUS_LABELS[inv.status]}</p>
        </div>
      </header>
      {data.testMode ? <p className="mt-4 rounded bg-amber-100 px-3 py-1 text-sm text-amber-950">Test mode: no money was charged.</p> : null}

      <dl className="mt-8 grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-semibold">Billed to</dt>
          <dd>{data.billedTo.displayName || data.billedTo.username}</dd>
          <dd>@{data.billedTo.username}</dd>
          <dd>{data.billedTo.email}</dd>
        </div>
        <div className="sm:text-right">
          <dt className="font-semibold">Date of issue</dt>
          <dd>{longDate(inv.date)}</dd>
          {inv.paidAt ? (
            <>
              <dt className="mt-2 font-semibold">Paid on</dt>
              <dd>{longDate(inv.paidAt)}</dd>
            </>
          ) : null}
        </div>
      </dl>

      <table className="mt-8 w-full text-left text-sm">
        <thead className="border-b border-slate-300">
          <tr>
            <th scope="col" className="py-2 font-semibold">Description</th>
            <th scope="col" className="py-2 text-right font-semibold">Amount</th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-b border-slate-200">
            <td className="py-3">
              {inv.description}
              {period ? <span className="block text-slate-600">{period}</span> : null}
            </td>
            <td className="py-3 text-right tabular-nums">{formatMoney(inv.amountCents)}</td>
          </tr>
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" className="pt-3 text-right font-normal">Net</th>
            <td className="pt-3 text-right tabular-nums">{formatMoney(data.totals.netCents)}</td>
          </tr>
          <tr>
            <th scope="row" className="pt-1 text-right font-normal">Tax ({formatTaxRate(data.totals.taxRateBp)})</th>
            <td className="pt-1 text-right tabular-nums">{formatMoney(data.totals.taxCents)}</td>
          </tr>
          <tr>
            <th scope="row" className="pt-1 text-right font-semibold">Total (USD)</th>
            <td className="pt-1 text-right font-bold tabular-nums">{formatMoney(data.totals.grossCents)}</td>
          </tr>
          {inv.status === "paid" ? (
            <tr>
              <th scope="row" className="pt-1 text-right font-normal text-slate-600">Amount due</th>
              <td className="pt-1 text-right tabular-nums text-slate-600">{formatMoney(0)}</td>
            </tr>
          ) : null}
        </tfoot>
      </table>
      {inv.paymentMethod ? <p className="mt-6 text-sm text-slate-700">Paid with {inv.paymentMethod}.</p> : null}

      <div className="mt-8 flex flex-wrap gap-3 print:hidden">
        <button type="button" onClick={() => window.print()} className="inline-flex min-h-10 items-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-medium text-white">
          <Printer aria-hidden className="size-4" /> Print or save as PDF
        </button>
        <a href="/dashboard/account-settings?tab=billing" className="inline-flex min-h-10 items-center rounded-md border border-slate-300 px-4 py-2 font-medium">
          Back to Billing
        </a>
      </div>
    </article>
  );
}

export default function InvoicePage() {
  return (
    <ErrorBoundary>
      <Invoice />
    </ErrorBoundary>
  );
}
