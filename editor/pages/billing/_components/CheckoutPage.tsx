/**
 * The test-mode provider's hosted checkout (/billing/checkout?session=...): the order, the card
 * form with the published test cards, and Pay. A declined card shows the network's message and
 * leaves the session open; paying sends the owner to the success address.
 */
import { Lock } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { CARD_MESSAGES, cardFormSchema, formatMoney, type CardForm } from "#core/schemas/billing.ts";
import ErrorBoundary from "../../../components/ErrorBoundary.tsx";
import { api, call, Failure, param } from "./billing-client.ts";
import { CardFields, EMPTY_CARD, fieldsOf, TestCards } from "./CardFields.tsx";

type Session = Awaited<ReturnType<typeof load>>;
const load = (id: string) => call(api.billing.test.sessions[":id"].$get({ param: { id } }));

function Message({ title, text, href, link }: { title: string; text: string; href: string; link: string }) {
  return (
    <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-2 text-slate-700">{text}</p>
      <a href={href} className="mt-6 inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white">
        {link}
      </a>
    </div>
  );
}

function Checkout() {
  const id = param("session");
  const [session, setSession] = useState<Session | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [card, setCard] = useState<CardForm>(EMPTY_CARD);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    load(id)
      .then(setSession)
      .catch((err: unknown) => setFailure(err instanceof Failure ? err.message : CARD_MESSAGES.sessionNotFound));
  }, [id]);

  if (failure) return <Message title="Checkout unavailable" text={failure} href="/dashboard/account-settings?tab=subscription" link="Back to Plinth" />;
  if (!session) return <p role="status" className="text-slate-600">Loading...</p>;
  if (session.status === "complete") return <Message title="Payment complete" text={CARD_MESSAGES.sessionComplete} href={session.successUrl} link="Continue" />;
  if (session.status === "expired") return <Message title="Checkout expired" text={CARD_MESSAGES.sessionExpired} href={session.cancelUrl} link="Back to Plinth" />;

  const amount = formatMoney(session.amountCents);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = cardFormSchema(new Date()).safeParse(card);
    if (!parsed.success) return setFields(fieldsOf(parsed.error.issues));
    setFields({});
    setError(null);
    setBusy(true);
    try {
      const { redirectUrl } = await call(api.billing.test.sessions[":id"].pay.$post({ param: { id }, json: card }));
      window.location.assign(redirectUrl);
    } catch (err) {
      setBusy(false);
      if (err instanceof Failure) {
        setFields(err.fields);
        setError(err.message);
      } else setError("Something went wrong. Please try again later.");
    }
  }

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
        <p className="text-sm text-slate-600">Billed monthly from today. Cancel any time from Account & Billing; you keep Plus until the end of the month you paid for.</p>
        <TestCards />
      </section>

      <section aria-labelledby="pay-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h2 id="pay-title" className="text-lg font-semibold">
          Pay with card
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Email: <span className="font-medium text-slate-900">{session.email}</span>
        </p>
        <form onSubmit={submit} noValidate className="mt-4 space-y-4">
          <CardFields card={card} onChange={setCard} fields={fields} />
          {error ? (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
              {error}
            </p>
          ) : null}
          <button type="submit" disabled={busy} className="flex min-h-11 w-full items-center justify-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:bg-slate-400">
            <Lock aria-hidden className="size-4" />
            {busy ? "Processing..." : `Pay ${amount}`}
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
