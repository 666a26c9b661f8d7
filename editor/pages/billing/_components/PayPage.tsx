/**
 * The test-mode provider's stand-in for a Stripe Checkout page on a creator's account
 * (/billing/pay?session=...): what the visitor pays for (a tip or a download, at the amount the
 * server set), their e-mail for the receipt, the card form with the published test cards, and Pay.
 * The amount was chosen on the creator's page; "Choose another amount" and Cancel go back there.
 */
import { Lock } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { CONNECT_MESSAGES } from "#core/connect.ts";
import type { TestConnectSessionView } from "#api/billing/test-mode/connect.ts";
import { formatAmount } from "#core/payments.ts";
import { unwrap } from "../../../app/api.ts";
import ErrorBoundary from "../../../components/ErrorBoundary.tsx";
import { CardFields, TestCards, useCardForm } from "./CardFields.tsx";
import { Notice, param, useLoaded } from "./page-parts.tsx";


const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const sessionPath = (id: string) => `/api/pay/test/sessions/${encodeURIComponent(id)}`;

function Pay() {
  const id = param("session");
  const { value: session, failure } = useLoaded(() => unwrap(fetch(sessionPath(id))) as Promise<TestConnectSessionView>, CONNECT_MESSAGES.sessionNotFound);
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const emailId = useId();
  const form = useCardForm(async (card) => {
    const res = fetch(sessionPath(id), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: email.trim(), number: card.number }) });
    const { redirectUrl } = (await unwrap(res)) as { redirectUrl: string };
    window.location.assign(redirectUrl);
    return true;
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const bad = EMAIL.test(email.trim()) ? null : "Please enter a valid email address";
    setEmailError(bad);
    if (!bad) void form.submit(e);
  }

  if (failure) return <Notice title="Payment page unavailable" text={failure} href="/" link="Go back" />;
  if (!session) return <p role="status" className="text-slate-600">Loading...</p>;
  if (session.status === "complete") return <Notice title="Payment complete" text="This payment has been made. Thank you!" href={session.successUrl} link="Continue" />;
  if (session.status === "expired") return <Notice title="Payment page expired" text={CONNECT_MESSAGES.sessionExpired} href={session.cancelUrl} link="Back to the page" />;

  const amount = formatAmount(session.amount, session.currency);
  const emailMessage = emailError ?? form.fields.email;

  return (
    <div className="grid w-full max-w-4xl gap-6 md:grid-cols-2">
      <section aria-labelledby="order-title" className="space-y-4">
        <h1 id="order-title" className="text-2xl font-bold break-words">
          {session.kind === "tip" ? `Tip: ${session.name}` : session.name}
        </h1>
        <div className="text-4xl font-bold tabular-nums">{amount}</div>
        <p className="text-sm text-slate-700">
          {session.kind === "tip" ? "A one-time tip, paid to the creator through Stripe." : "A one-time purchase. Your download link comes by e-mail and on the next page."}
        </p>
        {session.kind === "tip" ? (
          <p className="text-sm">
            <a href={session.cancelUrl} className="text-brand-700 underline underline-offset-4">
              Choose another amount
            </a>
          </p>
        ) : null}
        <TestCards />
      </section>

      <section aria-labelledby="pay-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h2 id="pay-title" className="text-lg font-semibold">
          Pay with card
        </h2>
        <form onSubmit={submit} noValidate className="mt-4 space-y-4">
          <div>
            <label htmlFor={emailId} className="mb-1 block text-sm font-medium">
              Email
            </label>
            <input
              id={emailId}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoComplete="email"
              maxLength={254}
              aria-invalid={emailMessage ? true : undefined}
              aria-describedby={emailMessage ? `${emailId}-error` : `${emailId}-hint`}
              className="w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
            />
            {emailMessage ? (
              <p id={`${emailId}-error`} className="mt-1 text-sm text-red-700">
                {emailMessage}
              </p>
            ) : (
              <p id={`${emailId}-hint`} className="mt-1 text-sm text-slate-600">
                {session.kind === "tip" ? "For your receipt." : "Your download link is sent here."}
              </p>
            )}
          </div>
          <CardFields form={form} />
          <button type="submit" disabled={form.busy} className="flex min-h-11 w-full items-center justify-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:bg-slate-400">
            <Lock aria-hidden className="size-4" />
            {form.busy ? "Processing..." : `Pay ${amount}`}
          </button>
          <p className="text-center text-sm">
            <a href={session.cancelUrl} className="text-slate-700 underline underline-offset-4">
              Cancel and go back
            </a>
          </p>
        </form>
      </section>
    </div>
  );
}

export default function PayPage() {
  return (
    <ErrorBoundary>
      <Pay />
    </ErrorBoundary>
  );
}

