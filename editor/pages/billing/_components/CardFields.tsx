/**
 * The card form of the test-mode checkout and payment-method pages: number, expiry, security code
 * and name, with the autocomplete names browsers and password managers know, and the test cards.
 */
import { useId } from "react";
import { formatCardNumber, TEST_CARDS, type CardForm } from "#core/schemas/billing.ts";

export const EMPTY_CARD: CardForm = { number: "", expiry: "", cvc: "", name: "" };

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
      {props.error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {props.error}
        </p>
      ) : null}
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

export function CardFields({ card, onChange, fields }: { card: CardForm; onChange(c: CardForm): void; fields: Record<string, string> }) {
  return (
    <div className="space-y-3">
      <Field label="Card number" name="number" value={card.number} error={fields.number} onChange={(v) => onChange({ ...card, number: asCardNumber(v) })} autoComplete="cc-number" inputMode="numeric" placeholder="1234 1234 1234 1234" maxLength={23} />
      <div className="grid grid-cols-2 gap-3">
        <Field label="Expiry (MM / YY)" name="expiry" value={card.expiry} error={fields.expiry} onChange={(v) => onChange({ ...card, expiry: asExpiry(v, card.expiry) })} autoComplete="cc-exp" inputMode="numeric" placeholder="MM / YY" maxLength={7} />
        <Field label="Security code" name="cvc" value={card.cvc} error={fields.cvc} onChange={(v) => onChange({ ...card, cvc: v.replace(/\D/g, "").slice(0, 4) })} autoComplete="cc-csc" inputMode="numeric" placeholder="CVC" maxLength={4} />
      </div>
      <Field label="Name on card" name="name" value={card.name} error={fields.name} onChange={(v) => onChange({ ...card, name: v })} autoComplete="cc-name" maxLength={100} />
    </div>
  );
}

export function fieldsOf(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const f: Record<string, string> = {};
  for (const issue of issues) f[String(issue.path[0])] ??= issue.message;
  return f;
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
