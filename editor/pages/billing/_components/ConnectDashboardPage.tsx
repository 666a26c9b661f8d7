/**
 * The test-mode provider's stand-in for Stripe's Express dashboard (/billing/connect/dashboard?
 * account=...): the account's payouts state and the payments made on it, each with a Refund button
 * that refunds the whole charge and reports it as Stripe would (charge.refunded).
 */
import { useState } from "react";
import { CONNECT_MESSAGES, EARNINGS_PATH } from "#core/connect.ts";
import { formatAmount } from "#core/payments.ts";
import { api, ApiFailure, unwrap } from "../../../app/api.ts";
import ErrorBoundary from "../../../components/ErrorBoundary.tsx";
import { Notice, param, useLoaded } from "./page-parts.tsx";

const dateOf = (iso: string) => new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });

function Dashboard() {
  const id = param("account");
  const { value: account, failure, reload } = useLoaded(() => unwrap(api.connect.test.accounts[":id"].$get({ param: { id } })), CONNECT_MESSAGES.accountNotFound);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  async function refund(sessionId: string, label: string) {
    setBusy(sessionId);
    setMessage(null);
    try {
      await unwrap(api.connect.test.sessions[":id"].refund.$post({ param: { id: sessionId } }));
      setMessage({ text: `Refunded ${label}.`, error: false });
      reload();
    } catch (err) {
      setMessage({ text: err instanceof ApiFailure ? err.message : "Something went wrong. Please try again later.", error: true });
    } finally {
      setBusy(null);
    }
  }

  if (failure) return <Notice title="Dashboard unavailable" text={failure} href={EARNINGS_PATH} link="Back to Plinth" />;
  if (!account) return <p role="status" className="text-slate-600">Loading...</p>;

  return (
    <div className="w-full max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Payouts dashboard</h1>
        <p className="mt-1 text-sm text-slate-700">
          {account.email} · {account.payoutsEnabled ? "Payouts on" : "Payouts paused: finish setting up your account"}
        </p>
        <p className="mt-1 text-sm text-slate-600">Tax forms and payout schedules live here on Stripe. In test mode there are none.</p>
      </div>
      <section aria-labelledby="payments-title" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <h2 id="payments-title" className="text-lg font-semibold">
          Payments
        </h2>
        <div role="status" aria-live="polite" className={message?.error ? "mt-2 text-sm text-red-700" : "mt-2 text-sm text-green-800"}>
          {message?.text ?? ""}
        </div>
        {account.payments.length === 0 ? (
          <p className="mt-2 text-slate-600">No payments yet.</p>
        ) : (
          <div className="mt-2 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className="py-2 pr-3">Date</th>
                  <th scope="col" className="py-2 pr-3">Item</th>
                  <th scope="col" className="py-2 pr-3 text-right">Amount</th>
                  <th scope="col" className="py-2 pr-3 text-right">Plinth fee</th>
                  <th scope="col" className="py-2 pr-3">Buyer</th>
                  <th scope="col" className="py-2">
                    <span className="sr-only">Refund</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {account.payments.map((p) => {
                  const label = `${p.name} (${formatAmount(p.amount, p.currency)})`;
                  return (
                    <tr key={p.id} className="border-b border-slate-100 last:border-0">
                      <td className="py-2 pr-3 whitespace-nowrap">{dateOf(p.paidAt)}</td>
                      <td className="py-2 pr-3">{p.name}</td>
                      <td className="py-2 pr-3 text-right tabular-nums">{formatAmount(p.amount, p.currency)}</td>
                      <td className="py-2 pr-3 text-right tabular-nums">{formatAmount(p.fee, p.currency)}</td>
                      <td className="py-2 pr-3 break-all">{p.buyerEmail ?? ""}</td>
                      <td className="py-2 text-right">
                        {p.refunded ? (
                          <span className="text-slate-600">Refunded</span>
                        ) : (
                          <button type="button" disabled={busy !== null} onClick={() => void refund(p.id, label)} aria-label={`Refund ${label}`} className="min-h-9 rounded-md border border-slate-300 px-3 py-1 font-medium hover:bg-slate-50 disabled:text-slate-400">
                            {busy === p.id ? "Refunding..." : "Refund"}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <p>
        <a href={EARNINGS_PATH} className="text-brand-700 underline underline-offset-4">
          Back to Plinth
        </a>
      </p>
    </div>
  );
}

export default function ConnectDashboardPage() {
  return (
    <ErrorBoundary>
      <Dashboard />
    </ErrorBoundary>
  );
}
