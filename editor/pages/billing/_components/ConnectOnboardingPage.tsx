/**
 * The test-mode provider's stand-in for Stripe's Account Link (/billing/connect?link=...): the owner
 * fills in the details Stripe would ask for, then "Submit details" (the account takes payments and
 * payouts) or "Finish later", and goes back to the return address. The details are not stored: the
 * test provider only records that they were sent. A used or expired link says so and offers a new one
 * (the link's refresh address, as Stripe does).
 */
import { useId, useState, type FormEvent } from "react";
import { CONNECT_MESSAGES, EARNINGS_PATH } from "#core/connect.ts";
import { api, ApiFailure, unwrap } from "../../../app/api.ts";
import { TextField } from "../../../components/auth/fields.tsx";
import ErrorBoundary from "../../../components/ErrorBoundary.tsx";
import { Notice, param, useLoaded } from "./page-parts.tsx";

const COUNTRIES = ["United States", "United Kingdom", "Canada", "Australia", "New Zealand", "Germany", "France", "Ireland", "Netherlands", "Switzerland"];
/** Stripe's documented test bank account number. */
const TEST_ACCOUNT_NUMBER = "000123456789";

interface Details {
  name: string;
  country: string;
  account: string;
}

const inputClass = "w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600";

function Onboarding() {
  const id = param("link");
  const { value: link, failure } = useLoaded(() => unwrap(api.connect.test.links[":id"].$get({ param: { id } })), CONNECT_MESSAGES.linkNotFound);
  const [details, setDetails] = useState<Details>({ name: "", country: COUNTRIES[0]!, account: "" });
  const [errors, setErrors] = useState<Partial<Record<keyof Details, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const countryId = useId();

  async function send(outcome: "complete" | "later") {
    setError(null);
    setBusy(true);
    try {
      const { redirectUrl } = await unwrap(api.connect.test.links[":id"].$post({ param: { id }, json: { outcome } }));
      window.location.assign(redirectUrl);
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : "Something went wrong. Please try again later.");
      setBusy(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const found: typeof errors = {};
    if (!details.name.trim()) found.name = "Please enter your legal name";
    if (!/^\d{4,17}$/.test(details.account.replace(/\s/g, ""))) found.account = "Please enter a bank account number (digits only)";
    setErrors(found);
    if (Object.keys(found).length === 0) void send("complete");
  }

  if (failure) return <Notice title="Setup link not valid" text={failure} href={EARNINGS_PATH} link="Back to Plinth" />;
  if (!link) return <p role="status" className="text-slate-600">Loading...</p>;
  if (link.status !== "open") return <Notice title="Setup link expired" text={CONNECT_MESSAGES.linkExpired} href={link.refreshUrl} link="Get a new setup link" />;

  return (
    <section aria-labelledby="onboarding-title" className="w-full max-w-lg rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <h1 id="onboarding-title" className="text-2xl font-bold">
        Set up payouts
      </h1>
      <p className="mt-1 text-sm text-slate-700">
        Stripe pays what your visitors send to your bank account. Account: <span className="font-medium text-slate-900">{link.email}</span>
      </p>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <TextField label="Legal name" value={details.name} error={errors.name} onChange={(e) => setDetails({ ...details, name: e.target.value })} autoComplete="name" maxLength={100} />
        <div>
          <label htmlFor={countryId} className="mb-1 block text-sm font-medium">
            Country
          </label>
          <select id={countryId} value={details.country} onChange={(e) => setDetails({ ...details, country: e.target.value })} autoComplete="country-name" className={inputClass}>
            {COUNTRIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
        <TextField
          label="Bank account number"
          value={details.account}
          error={errors.account}
          hint={`Test mode: use ${TEST_ACCOUNT_NUMBER}.`}
          onChange={(e) => setDetails({ ...details, account: e.target.value })}
          autoComplete="off"
          maxLength={100}
        />
        {error ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            {error}
          </p>
        ) : null}
        <div className="flex flex-col gap-2 sm:flex-row-reverse sm:justify-start">
          <button type="submit" disabled={busy} className="min-h-11 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:bg-slate-400">
            {busy ? "Sending..." : "Submit details"}
          </button>
          <button type="button" disabled={busy} onClick={() => void send("later")} className="min-h-11 rounded-md border border-slate-300 px-4 py-2 font-medium text-slate-800 hover:bg-slate-50 disabled:text-slate-400">
            Finish later
          </button>
        </div>
      </form>
    </section>
  );
}

export default function ConnectOnboardingPage() {
  return (
    <ErrorBoundary>
      <Onboarding />
    </ErrorBoundary>
  );
}
