/**
 * The card form of the test-mode checkout and payment-method pages: number, expiry, security code
 * and name, with the autocomplete names browsers and password managers know, the test cards, and
 * the form's state and submit (useCardForm), which both pages share.
 */
import { useId, useState, type FormEvent } from "react";
import { cardFormSchema, formatCardNumber, TEST_CARDS, type CardForm } from "#core/schemas/billing.ts";
import { ApiFailure } from "../../../app/api.ts";
import { fieldsOf } from "../../../components/field-errors.ts";
import { FieldError } from "../../../components/auth/fields.tsx";

export const EMPTY_CARD: CardForm = { number: "", expiry: "", cvc: "", name: "" };

/**
 * The card, its field messages and the form's message. Submitting checks the card with core's
 * schema, then calls `send`; a failure brings back the server's message and field messages. `send`
 * resolves true when it is leaving the page, so the button stays busy until the next page loads.
 */
export function useCardForm(send: (card: CardForm) => Promise<boolean | void>) {
  const [card, setCard] = useState<CardForm>(EMPTY_CARD);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = cardFormSchema(new Date()).safeParse(card);
    if (!parsed.success) return setFields(fieldsOf(parsed.error.issues));
    setFields({});
    setError(null);
    setBusy(true);
    let leaving = false;
    try {
      leaving = (await send(card)) === true;
    } catch (err) {
      if (err instanceof ApiFailure) {
        setFields(err.fields);
        setError(err.message);
      } else setError("Something went wrong. Please try again later.");
    } finally {
      if (!leaving) setBusy(false);
    }
  }

  return { card, setCard, fields, error, busy, submit };
}

const inputClass = "w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600";

function Field(props: { label: string; name: keyof CardForm; value: string; error?: string; onChange(v: string): void; autoComplete: string; inputMode?: "numeric" | "text"; placeholder?: string; maxLength: number }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        placeholder={props.placeholder}
        maxLength={props.maxLength}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        className={inputClass}
      />
      <FieldError id={`${id}-error`} message={props.error} />
    </div>
  );
}

/** "4242424242" as "4242 4242 42"; "1234" as "12 / 34". */
const asCardNumber = (v: string) => formatCardNumber(v.replace(/\D/g, "").slice(0, 19));
function asExpiry(v: string, previous: string): string {
  const digits = v.replace(/\D/g, "").slice(0, 4);
  // Deleting the slash deletes the month's last digit too, as people expect.
  if (v.length < previous.length && previous.endsWith(" / ") && !v.endsWith(" / ")) return digits.slice(0, 1);
  return digits.length >= 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** The fields of a useCardForm, and its message under them. */
export function CardFields({ form }: { form: ReturnType<typeof useCardForm> }) {
  const { card, setCard, fields, error } = form;
  return (
    <>
      <div className="space-y-3">
        <Field label="Card number" name="number" value={card.number} error={fields.number} onChange={(v) => setCard({ ...card, number: asCardNumber(v) })} autoComplete="cc-number" inputMode="numeric" placeholder="1234 1234 1234 1234" maxLength={23} />
        <div className="grid grid-cols-2 gap-3">
          <Field label="Expiry (MM / YY)" name="expiry" value={card.expiry} error={fields.expiry} onChange={(v) => setCard({ ...card, expiry: asExpiry(v, card.expiry) })} autoComplete="cc-exp" inputMode="numeric" placeholder="MM / YY" maxLength={7} />
          <Field label="Security code" name="cvc" value={card.cvc} error={fields.cvc} onChange={(v) => setCard({ ...card, cvc: v.replace(/\D/g, "").slice(0, 4) })} autoComplete="cc-csc" inputMode="numeric" placeholder="CVC" maxLength={4} />
        </div>
        <Field label="Name on card" name="name" value={card.name} error={fields.name} onChange={(v) => setCard({ ...card, name: v })} autoComplete="cc-name" maxLength={100} />
      </div>
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          {error}
        </p>
      ) : null}
    </>
  );
}

export function TestCards() {
  return (
    <section aria-labelledby="test-cards" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm">
      <h2 id="test-cards" className="font-semibold text-amber-950">
        Test cards
      </h2>
      <p className="mt-1 text-amber-950">Any future expiry date, any 3-digit security code and any name.</p>
      <table className="mt-2 w-full text-left">
        <thead className="sr-only">
          <tr>
            <th scope="col">Card number</th>
            <th scope="col">What happens</th>
          </tr>
        </thead>
        <tbody>
          {TEST_CARDS.map((c) => (
            <tr key={c.number}>
              <td className="py-0.5 pr-3 font-mono whitespace-nowrap">{formatCardNumber(c.number)}</td>
              <td className="py-0.5">{c.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
