/**
 * The test-mode provider's hosted checkout (/billing/checkout?session=...): the order, the card
 * form with the published test cards, and Pay. A declined card shows the network's message and
 * leaves the session open; paying sends the owner to the success address.
 */
import { Lock } from "lucide-react";
import { CARD_MESSAGES, formatMoney } from "#core/schemas/billing.ts";
import { api, unwrap } from "../../../app/api.ts";
import ErrorBoundary from "../../../components/ErrorBoundary.tsx";
import { CardFields, TestCards, useCardForm } from "./CardFields.tsx";
import { Notice, useTestSession } from "./page-parts.tsx";

function Checkout() {
  const { id, session, failure } = useTestSession();
  const form = useCardForm(async (card) => {
    const { redirectUrl } = await unwrap(api.billing.test.sessions[":id"].pay.$post({ param: { id }, json: card }));
    window.location.assign(redirectUrl);
    return true;
  });

  if (failure) return <Notice title="Checkout unavailable" text={failure} href="/dashboard/account-settings?tab=subscription" link="Back to Plinth" />;
  if (!session) return <p role="status" className="text-slate-600">Loading...</p>;
  if (session.status === "complete") return <Notice title="Payment complete" text={CARD_MESSAGES.sessionComplete} href={session.successUrl} link="Continue" />;
  if (session.status === "expired") return <Notice title="Checkout expired" text={CARD_MESSAGES.sessionExpired} href={session.cancelUrl} link="Back to Plinth" />;

  const amount = formatMoney(session.amountCents);

  return (
    <div className="grid w-full max-w-4xl gap-6 md:grid-cols-2">
      <section aria-labelledby="order-title" className="space-y-4">
        <h1 id="order-title" className="text-2xl font-bold">
          Subscribe to Plinth Plus
        </h1>
        <p className="text-4xl font-bold tabular-nums">
          {amount} <span className="text-base font-normal text-slate-600">per month</span>
        </p>
        <dl className="space-y-1 text-sm text-slate-700">
          <div className="flex justify-between gap-4">
            <dt>{session.description}</dt>
            <dd className="tabular-nums">{amount}</dd>
          </div>
          <div className="flex justify-between gap-4 border-t border-slate-200 pt-1 font-semibold text-slate-900">
            <dt>Due today</dt>
            <dd className="tabular-nums">{amount}</dd>
          </div>
        </dl>
        <p className="text-sm text-slate-600">
          {session.interval === "year"
            ? "Billed yearly from today. Cancel any time from Account & Billing; you keep Plus until the end of the year you paid for."
            : "Billed monthly from today. Cancel any time from Account & Billing; you keep Plus until the end of the month you paid for."}
        </p>
        <TestCards />
      </section>

      <section aria-labelledby="pay-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h2 id="pay-title" className="text-lg font-semibold">
          Pay with card
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Email: <span className="font-medium text-slate-900">{session.email}</span>
        </p>
        <form onSubmit={form.submit} noValidate className="mt-4 space-y-4">
          <CardFields form={form} />
          <button type="submit" disabled={form.busy} className="flex min-h-11 w-full items-center justify-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:bg-slate-400">
            <Lock aria-hidden className="size-4" />
            {form.busy ? "Processing..." : `Pay ${amount}`}
          </button>
          <p className="text-center text-sm">
            <a href={session.cancelUrl} className="text-slate-700 underline underline-offset-4">
              Cancel and return to Plinth
            </a>
          </p>
        </form>
      </section>
    </div>
  );
}

export default function CheckoutPage() {
  return (
    <ErrorBoundary>
      <Checkout />
    </ErrorBoundary>
  );
}
