/**
 * The cash payout request and renew-with-balance dialogs (docs/product.md sections 2, 5, 8 and 9). Both check
 * the form with core's schemas as the owner types, show the money (fee and net; months and total),
 * and send a request key made when the dialog opens, so a double submit is one request.
 */
import { useEffect, useId, useState, type FormEvent, type ReactNode } from "react";
import { toast } from "../../toast.tsx";
import { LIMITS } from "#core/limits.ts";
import {
  AFFILIATE_MESSAGES,
  payoutFeeCents,
  payoutNetCents,
  renewalCostCents,
  renewalMonthOptions,
} from "#core/affiliate.ts";
import { addMonths, formatMoney, PLUS_PRICE } from "#core/billing.ts";
import { api, ApiFailure, clientErrorMessage, unwrap } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { Modal } from "../../components/modal.tsx";
import { longDate } from "../../../components/dates.ts";
import { MIN_PAYOUT, PAYOUT_FEE_PERCENT } from "./affiliate-ui.ts";
import { fieldsOf } from "../../../components/field-errors.ts";
import { FieldError } from "../../../components/auth/fields.tsx";

const newKey = () => crypto.randomUUID();

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

const inputClass = "w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600";

export function PayoutDialog({ open, onOpenChange, eligibleCents, onDone }: { open: boolean; onOpenChange(o: boolean): void; eligibleCents: number; onDone(): void }) {
  const [amount, setAmount] = useState("");
  const [email, setEmail] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(newKey);
  const amountId = useId();
  const emailId = useId();

  useEffect(() => {
    if (!open) return;
    setAmount((eligibleCents / 100).toFixed(2));
    setEmail("");
    setFields({});
    setKey(newKey());
  }, [open, eligibleCents]);

  const cents = Math.round(Number(amount) * 100);
  const valid = amount.trim() !== "" && Number.isFinite(cents) && cents > 0;
  const fee = valid ? payoutFeeCents(cents) : 0;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const { payoutRequestSchema } = await import("#core/schemas/affiliate.ts");
    const parsed = payoutRequestSchema(eligibleCents).safeParse({ amount: amount.trim() === "" ? undefined : Number(amount), payoutEmail: email });
    if (!parsed.success) {
      setBusy(false);
      return setFields(fieldsOf(parsed.error.issues));
    }
    setFields({});
    try {
      await unwrap(api.affiliate.payouts.$post({ json: { amount: parsed.data.amount / 100, payoutEmail: parsed.data.payoutEmail, requestKey: key } }));
      toast.success(AFFILIATE_MESSAGES.payoutRequested, { description: AFFILIATE_MESSAGES.payoutRequestedText });
      onOpenChange(false);
      onDone();
    } catch (err) {
      if (err instanceof ApiFailure && Object.keys(err.fields).length) setFields(err.fields);
      toast.error(AFFILIATE_MESSAGES.payoutFailedTitle, { description: clientErrorMessage(err) ?? AFFILIATE_MESSAGES.payoutFailed });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      dirty={email !== "" || amount !== (eligibleCents / 100).toFixed(2)}
      title="Request Cash Payout" description={`Paid via PayPal within 3-5 business days. A ${PAYOUT_FEE_PERCENT} processing fee applies.`}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field id={amountId} label="Amount (USD)" error={fields.amount} hint={`Between ${MIN_PAYOUT} and ${formatMoney(eligibleCents)}`}>
          <input
            id={amountId}
            type="number"
            inputMode="decimal"
            step="0.01"
            min={LIMITS.PAYOUT_MIN_CENTS / 100}
            max={eligibleCents / 100}
            required
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={fields.amount ? true : undefined}
            aria-describedby={`${amountId}-hint${fields.amount ? ` ${amountId}-error` : ""}`}
            className={inputClass}
          />
        </Field>
        <Field id={emailId} label="PayPal email" error={fields.payoutEmail}>
          <input
            id={emailId}
            type="email"
            autoComplete="email"
            required
            maxLength={LIMITS.EMAIL_MAX}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={fields.payoutEmail ? true : undefined}
            aria-describedby={fields.payoutEmail ? `${emailId}-error` : undefined}
            className={inputClass}
          />
        </Field>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md bg-slate-50 p-3 text-sm" aria-live="polite">
          <dt className="text-slate-600">Requested</dt>
          <dd className="text-right tabular-nums">{formatMoney(valid ? cents : 0)}</dd>
          <dt className="text-slate-600">Processing fee ({PAYOUT_FEE_PERCENT})</dt>
          <dd className="text-right tabular-nums">-{formatMoney(fee)}</dd>
          <dt className="font-semibold">You receive</dt>
          <dd className="text-right font-semibold tabular-nums">{formatMoney(valid ? payoutNetCents(cents) : 0)}</dd>
        </dl>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? "Requesting..." : "Request Payout"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

export function RenewDialog({
  open,
  onOpenChange,
  balanceCents,
  periodEnd,
  onDone,
}: {
  open: boolean;
  onOpenChange(o: boolean): void;
  balanceCents: number;
  periodEnd: string | null;
  onDone(): void;
}) {
  const options = renewalMonthOptions(balanceCents);
  const [months, setMonths] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(newKey);
  const selectId = useId();

  useEffect(() => {
    if (!open) return;
    setMonths(options.length ? "1" : "");
    setError(null);
    setProblem(null);
    setKey(newKey());
  }, [open, options.length]);

  const n = Number(months);
  const total = months ? renewalCostCents(n) : 0;
  const until = months && periodEnd ? addMonths(new Date(periodEnd), n).toISOString() : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const { renewalSchema } = await import("#core/schemas/affiliate.ts");
    const parsed = renewalSchema(balanceCents).safeParse({ months: months ? n : undefined });
    if (!parsed.success) {
      setBusy(false);
      return setError(parsed.error.issues[0]?.message ?? AFFILIATE_MESSAGES.renewalPeriodRequired);
    }
    setError(null);
    setProblem(null);
    try {
      const res = await unwrap(api.affiliate.renewals.$post({ json: { months: parsed.data.months, totalCost: total / 100, requestKey: key } }));
      toast.success(AFFILIATE_MESSAGES.renewed, { description: AFFILIATE_MESSAGES.renewedText(res.months, longDate(res.periodEnd)) });
      onOpenChange(false);
      onDone();
    } catch (err) {
      setProblem(clientErrorMessage(err) ?? null);
      toast.error(AFFILIATE_MESSAGES.renewalFailedTitle, { description: AFFILIATE_MESSAGES.renewalFailed });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      dirty={months !== (options.length ? "1" : "")}
      title="Renew with Balance" description={`Pay for months of Plinth Plus from your rewards balance, ${PLUS_PRICE} a month.`}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field id={selectId} label="Renewal period" error={error ?? undefined}>
          <select
            id={selectId}
            value={months}
            onChange={(e) => setMonths(e.target.value)}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${selectId}-error` : undefined}
            className={inputClass}
          >
            <option value="">Select a period</option>
            {options.map((m) => (
              <option key={m} value={m}>
                {m} {m === 1 ? "month" : "months"}
              </option>
            ))}
          </select>
        </Field>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md bg-slate-50 p-3 text-sm" aria-live="polite">
          <dt className="text-slate-600">Your balance</dt>
          <dd className="text-right tabular-nums">{formatMoney(balanceCents)}</dd>
          <dt className="font-semibold">Total cost</dt>
          <dd className="text-right font-semibold tabular-nums">{formatMoney(total)}</dd>
          <dt className="text-slate-600">Balance after</dt>
          <dd className="text-right tabular-nums">{formatMoney(balanceCents - total)}</dd>
          {until && periodEnd ? (
            <>
              <dt className="text-slate-600">Covers</dt>
              <dd className="text-right">
                {longDate(periodEnd)} to {longDate(until)}
              </dd>
              <dt className="text-slate-600">Next billing date</dt>
              <dd className="text-right">{longDate(until)}</dd>
            </>
          ) : null}
        </dl>
        {problem ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            {problem}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? "Renewing..." : "Renew Now"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
