/**
 * Billing tab (docs/product.md section 2; docs/product.md section 10: real invoices from the billing provider): every invoice
 * with its number, date, description, amount, status, a link to the printable invoice and its PDF
 * download (ADR 103). Locked for
 * Lite (billing_history) behind the PLUS gate.
 */
import { Download, FileText, Lock, Receipt } from "lucide-react";
import { useEffect, useState } from "react";
import { FEATURE_LABELS } from "#core/feature-labels.ts";
import { BILLING_MESSAGES, formatMoney, INVOICE_STATUS_LABELS } from "#core/billing.ts";
import { api, ApiFailure, unwrap } from "../../api.ts";
import { PlusBadge } from "../../components/plus-badge.tsx";
import { Button } from "../../components/button.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { isLite, useDashboard } from "../../store.ts";
import { shortDate } from "../../../components/dates.ts";
import { Badge, type BadgeVariant, Panel, ScrollTable } from "./billing-ui.tsx";

type Invoice = Awaited<ReturnType<typeof load>>["invoices"][number];
/** GET /api/billing/invoices/:id/pdf: the invoice as a PDF file. */
const invoicePdfPath = (id: string) => `/api/billing/invoices/${encodeURIComponent(id)}/pdf`;
const load = () => unwrap(api.billing.invoices.$get());

const STATUS_VARIANT: Record<Invoice["status"], BadgeVariant> = { paid: "default", open: "secondary", void: "outline", uncollectible: "destructive" };

function Locked() {
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  return (
    <Panel id="billing-title" title="Billing History" actions={<PlusBadge feature="billing_history" />}>
      <div className="flex flex-col items-start gap-3">
        <p className="flex items-start gap-2 text-slate-700">
          <Lock aria-hidden className="mt-0.5 size-4 shrink-0" />
          {FEATURE_LABELS.billing_history} is a Plinth Plus feature. Upgrade to see your invoices here.
        </p>
        <Button onClick={() => openUpgrade("billing_history")}>Upgrade to Plus</Button>
      </div>
    </Panel>
  );
}

export default function BillingTab() {
  const me = useDashboard((s) => s.me);
  const [invoices, setInvoices] = useState<Invoice[] | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "locked" | "failed">("loading");
  const lite = isLite(me);

  useEffect(() => {
    if (lite) return setState("locked");
    let live = true;
    load()
      .then((r) => {
        if (!live) return;
        setInvoices(r.invoices);
        setState("ready");
      })
      .catch((err: unknown) => live && setState(err instanceof ApiFailure && err.status === 402 ? "locked" : "failed"));
    return () => {
      live = false;
    };
  }, [lite]);

  if (state === "locked") return <Locked />;
  if (state === "failed") return <p role="alert" className="text-red-800">{BILLING_MESSAGES.invoicesFailed}</p>;
  if (state === "loading" || !invoices) return <p className="text-slate-600">Loading...</p>;

  return (
    <Panel id="billing-title" title="Billing History">
      {invoices.length === 0 ? (
        <EmptyState icon={Receipt} headingLevel={3} title="Nothing billed yet" text="No invoices yet. Your invoices appear here after your first payment." />
      ) : (
        <ScrollTable
          caption="Your invoices, newest first"
          minWidth="min-w-[36rem]"
          head={
            <>
              <th scope="col" className="px-4 py-2 font-medium sm:px-2">Invoice</th>
              <th scope="col" className="px-2 py-2 font-medium">Date</th>
              <th scope="col" className="px-2 py-2 font-medium">Description</th>
              <th scope="col" className="px-2 py-2 text-right font-medium">Amount</th>
              <th scope="col" className="px-2 py-2 font-medium">Status</th>
              <th scope="col" className="px-2 py-2 font-medium"><span className="sr-only">Invoice links</span></th>
            </>
          }
        >
          {invoices.map((inv) => (
            <tr key={inv.id} className="border-b border-slate-100 last:border-0">
              <td className="px-4 py-2 font-mono text-xs sm:px-2">{inv.number ?? inv.id}</td>
              <td className="whitespace-nowrap px-2 py-2">{shortDate(inv.date)}</td>
              <td className="px-2 py-2">{inv.description}</td>
              <td className="px-2 py-2 text-right tabular-nums">{formatMoney(inv.amountCents)}</td>
              <td className="px-2 py-2">
                <Badge variant={STATUS_VARIANT[inv.status]}>{INVOICE_STATUS_LABELS[inv.status]}</Badge>
              </td>
              <td className="px-2 py-2">
                <span className="flex flex-wrap gap-x-3 gap-y-1">
                  {inv.invoiceUrl ? (
                    <a href={inv.invoiceUrl} target="_blank" rel="noopener" className="inline-flex min-h-6 items-center gap-1 font-medium text-brand-700 underline-offset-4 hover:underline">
                      <FileText aria-hidden className="size-4" />
                      View<span className="sr-only"> invoice {inv.number ?? inv.id}</span>
                    </a>
                  ) : null}
                  <a href={invoicePdfPath(inv.id)} download className="inline-flex min-h-6 items-center gap-1 font-medium text-brand-700 underline-offset-4 hover:underline">
                    <Download aria-hidden className="size-4" />
                    Download PDF<span className="sr-only"> of invoice {inv.number ?? inv.id}</span>
                  </a>
                </span>
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </Panel>
  );
}
