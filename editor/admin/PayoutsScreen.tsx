/** Cash payout requests: pay them (with the payment's reference) or reject them (with a reason). ADR 106. */
import { useCallback, useEffect, useId, useState, type ReactNode } from "react";
import { toast } from "sonner";
import type { AdminPayout, BalanceEntry } from "#api/services/admin-payouts.ts";
import { api, ApiFailure, unwrap } from "../app/api.ts";
import { Button } from "../app/components/button.tsx";
import { day, money, when } from "./format.ts";
import { TextDialog, useKeptWhileClosing } from "./TextDialog.tsx";

type Which = "pending" | "decided";
type Deciding = { payout: AdminPayout; decision: "paid" | "rejected" } | null;

export function PayoutsScreen() {
  const [which, setWhich] = useState<Which>("pending");
  const [payouts, setPayouts] = useState<AdminPayout[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [deciding, setDeciding] = useState<Deciding>(null);
  const load = useCallback(async () => {
    setError(null);
    try {
      setPayouts((await unwrap(api.admin.payouts.$get({ query: { status: which } }))).payouts as AdminPayout[]);
    } catch (e) {
      setPayouts(null);
      setError(e instanceof ApiFailure ? e.message : "The payouts could not be loaded.");
    }
  }, [which]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section aria-labelledby="payouts-title">
      <h1 id="payouts-title" className="text-2xl font-bold">
        Payouts
      </h1>
      <div role="group" aria-label="Show" className="mt-4 inline-flex rounded-md border border-slate-300">
        {(["pending", "decided"] as const).map((w) => (
          <button
            key={w}
            type="button"
            aria-pressed={which === w}
            onClick={() => setWhich(w)}
            className={`min-h-10 px-4 text-sm font-medium ${which === w ? "bg-slate-900 text-white" : "bg-white text-slate-700"}`}
          >
            {w === "pending" ? "Pending" : "Decided"}
          </button>
        ))}
      </div>
      {error ? (
        <p role="alert" className="mt-4 text-red-700">
          {error}
        </p>
      ) : payouts === null ? (
        <p role="status" className="mt-4 text-slate-600">
          Loading...
        </p>
      ) : payouts.length === 0 ? (
        <p className="mt-4 text-slate-600">{which === "pending" ? "No payout requests are waiting." : "No payout requests have been decided yet."}</p>
      ) : (
        <ul className="mt-4 space-y-4">
          {payouts.map((p) => (
            <PayoutCard key={p.id} payout={p} onDecide={(decision) => setDeciding({ payout: p, decision })} />
          ))}
        </ul>
      )}
      <DecisionDialog
        deciding={deciding}
        onClose={() => setDeciding(null)}
        onDone={() => {
          setDeciding(null);
          void load();
        }}
      />
    </section>
  );
}

function PayoutCard({ payout: p, onDecide }: { payout: AdminPayout; onDecide(d: "paid" | "rejected"): void }) {
  const [history, setHistory] = useState<BalanceEntry[] | null>(null);
  const headingId = useId();
  const eligibility = p.eligibilityAtRequest as { isEligible?: boolean; eligibleAmountCents?: number } | null;
  return (
    <li aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="font-semibold">
        {money(p.requestedAmountCents)} for {p.username}
      </h2>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <Fact term="Requested">{when(p.createdAt)}</Fact>
        <Fact term="Account">{p.accountEmail}</Fact>
        <Fact term="PayPal e-mail">{p.payoutEmail}</Fact>
        <Fact term="Fee">{money(p.processingFeeCents)}</Fact>
        <Fact term="Net to send">{money(p.netAmountCents)}</Fact>
        <Fact term="Balance now">{money(p.balanceCents)}</Fact>
        <Fact term="Eligible when asked">
          {eligibility ? `${eligibility.isEligible ? "Yes" : "No"}, up to ${money(eligibility.eligibleAmountCents ?? 0)}` : "Not recorded"}
        </Fact>
        <Fact term="Status">
          {p.status === "completed" ? `Paid ${day(p.decidedAt)}, reference ${p.paymentReference}` : p.status === "rejected" ? `Rejected ${day(p.decidedAt)}: ${p.rejectionReason}` : "Pending"}
        </Fact>
      </dl>
      <div className="mt-3 flex flex-wrap gap-2">
        {p.status === "pending" ? (
          <>
            <Button onClick={() => onDecide("paid")}>Mark paid</Button>
            <Button variant="danger" onClick={() => onDecide("rejected")}>
              Reject
            </Button>
          </>
        ) : null}
        <Button
          variant="secondary"
          aria-expanded={history !== null}
          onClick={async () => {
            if (history) return setHistory(null);
            try {
              setHistory((await unwrap(api.admin.payouts[":id"].$get({ param: { id: p.id } }))).payout.history as BalanceEntry[]);
            } catch (e) {
              toast.error(e instanceof ApiFailure ? e.message : "The balance history could not be loaded.");
            }
          }}
        >
          {history ? "Hide balance history" : "Balance history"}
        </Button>
      </div>
      {history ? (
        <table className="mt-3 w-full text-left text-sm">
          <caption className="sr-only">Balance history of {p.username}</caption>
          <thead>
            <tr className="text-slate-600">
              <th scope="col" className="py-1 pr-3 font-medium">Date</th>
              <th scope="col" className="py-1 pr-3 font-medium">What</th>
              <th scope="col" className="py-1 text-right font-medium">Amount</th>
            </tr>
          </thead>
          <tbody>
            {history.map((h, i) => (
              <tr key={i} className="border-t border-slate-100">
                <td className="py-1 pr-3">{day(h.at)}</td>
                <td className="py-1 pr-3">{h.note}</td>
                <td className="py-1 text-right tabular-nums">{h.cents > 0 ? `+${money(h.cents)}` : `−${money(-h.cents)}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </li>
  );
}

/** One term and its value in the console's description lists. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex gap-2">
      <dt className="text-slate-600">{term}:</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function DecisionDialog({ deciding, onClose, onDone }: { deciding: Deciding; onClose(): void; onDone(): void }) {
  const shown = useKeptWhileClosing(deciding);
  if (!shown) return null;
  const paid = shown.decision === "paid";
  const p = shown.payout;
  return (
    <TextDialog
      open={deciding !== null}
      title={paid ? "Mark payout paid" : "Reject payout"}
      description={
        paid
          ? `Send ${money(p.netAmountCents)} to ${p.payoutEmail} via PayPal first, then enter the payment's reference.`
          : `${money(p.requestedAmountCents)} goes back to ${p.username}'s balance. They read the reason in an e-mail.`
      }
      label={paid ? "Payment reference" : "Reason"}
      multiline={!paid}
      maxLength={paid ? 200 : 1000}
      confirm={paid ? "Mark paid" : "Reject payout"}
      danger={!paid}
      onClose={onClose}
      onSubmit={async (text) => {
        const json = paid ? { decision: "paid" as const, reference: text } : { decision: "rejected" as const, reason: text };
        await unwrap(api.admin.payouts[":id"].decision.$post({ param: { id: p.id }, json }));
        toast.success(paid ? `Marked paid: ${money(p.netAmountCents)} to ${p.payoutEmail}` : `Rejected: ${money(p.requestedAmountCents)} is back in ${p.username}'s balance`);
        onDone();
      }}
    />
  );
}
