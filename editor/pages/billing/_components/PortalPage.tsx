/**
 * The test-mode provider's payment-method page, the "customer portal" (/billing/portal?session=...):
 * the subscription and the card on file, and a form for a new card. A past-due invoice is paid with
 * the new card at once.
 */
import { CreditCard } from "lucide-react";
import { useState } from "react";
import { formatMoney } from "#core/schemas/billing.ts";
import { api, unwrap } from "../../../app/api.ts";
import ErrorBoundary from "../../../components/ErrorBoundary.tsx";
import { longDate } from "../../../components/dates.ts";
import { CardFields, EMPTY_CARD, TestCards, useCardForm } from "./CardFields.tsx";
import { Notice, useTestSession } from "./page-parts.tsx";

const STATUS: Record<string, string> = { active: "Active", past_due: "Past due", canceled: "Ended" };

function Portal() {
  const { id, session, failure, refresh } = useTestSession();
  const [done, setDone] = useState<string | null>(null);
  const form = useCardForm(async (card) => {
    setDone(null);
    const res = await unwrap(api.billing.test.sessions[":id"]["payment-method"].$post({ param: { id }, json: card }));
    setDone(res.settledCents ? `${res.message} Your payment of ${formatMoney(res.settledCents)} went through.` : res.message);
    form.setCard(EMPTY_CARD);
    await refresh();
  });

  if (failure) return <Notice title="Page unavailable" text={failure} href="/dashboard/account-settings?tab=subscription" link="Back to Plinth" />;
  if (!session) return <p role="status" className="text-slate-600">Loading...</p>;

  const sub = session.subscription;
  const due = sub?.status === "past_due" ? sub.amountDueCents : 0;
  const expired = session.status === "expired";

  return (
    <div className="w-full max-w-xl space-y-5">
      <h1 className="text-2xl font-bold">Manage your subscription</h1>
      <section aria-labelledby="plan-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="plan-title" className="text-lg font-semibold">
          Plinth Plus
        </h2>
        <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-2">
          {sub ? (
            <>
              <div>
                <dt className="text-slate-600">Status</dt>
                <dd className="font-medium">{sub.cancelAtPeriodEnd && sub.status === "active" ? "Cancels at period end" : STATUS[sub.status]}</dd>
              </div>
              <div>
                <dt className="text-slate-600">{sub.status === "past_due" ? "Unpaid since" : sub.cancelAtPeriodEnd ? "Access until" : "Next payment"}</dt>
                <dd className="font-medium">{longDate(sub.currentPeriodEnd)}</dd>
              </div>
            </>
          ) : null}
          <div>
            <dt className="text-slate-600">Payment method</dt>
            <dd className="flex items-center gap-2 font-medium">
              <CreditCard aria-hidden className="size-4" />
              {session.card ? `${session.card.brand} ending in ${session.card.last4}` : "None"}
            </dd>
          </div>
        </dl>
        {due ? (
          <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            Your last payment of {formatMoney(due)} failed. Add a card that works and we'll charge it right away.
          </p>
        ) : null}
      </section>

      <section aria-labelledby="card-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="card-title" className="text-lg font-semibold">
          Update payment method
        </h2>
        {expired ? (
          <p className="mt-2 text-slate-700">This page has expired. Open it again from your dashboard.</p>
        ) : (
          <form onSubmit={form.submit} noValidate className="mt-4 space-y-4">
            <CardFields form={form} />
            {done ? (
              <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
                {done}
              </p>
            ) : null}
            <button type="submit" disabled={form.busy} className="flex min-h-11 w-full items-center justify-center rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:bg-slate-400">
              {form.busy ? "Saving..." : due ? `Save card and pay ${formatMoney(due)}` : "Save card"}
            </button>
          </form>
        )}
      </section>
      <TestCards />
      <p className="text-center">
        <a href={session.successUrl} className="font-medium text-brand-700 underline underline-offset-4">
          Return to Plinth
        </a>
      </p>
    </div>
  );
}

export default function PortalPage() {
  return (
    <ErrorBoundary>
      <Portal />
    </ErrorBoundary>
  );
}
