/**
 * The Add/Edit Link dialog's fields for a Tip and a Paid download (ADR 231, 235). The owner types
 * amounts in the currency's units ("5" or "4.50"); the dialog sends them in the smallest unit as
 * the API expects, and shows the API's messages next to the field they are about.
 */
import { useId, useState, type ReactNode } from "react";
import { DOWNLOAD_FILE_TYPES, parseAmountText, PAYMENT_CURRENCIES, PAYMENT_MESSAGES, PAYMENTS } from "#core/payments.ts";
import { ApiFailure, api, unwrap } from "../../api.ts";
import { toast } from "../../toast.tsx";
import { FieldError } from "../../../components/auth/fields.tsx";

type Fields = Record<string, string>;

/** The dialog's amount fields for the suggested tips. */
export const TIP_AMOUNT_FIELDS = ["amount1", "amount2", "amount3"] as const;
const CURRENCY_NAMES: Record<(typeof PAYMENT_CURRENCIES)[number], string> = {
  usd: "US dollar (USD)",
  eur: "Euro (EUR)",
  gbp: "Pound sterling (GBP)",
  cad: "Canadian dollar (CAD)",
  aud: "Australian dollar (AUD)",
  nzd: "New Zealand dollar (NZD)",
  chf: "Swiss franc (CHF)",
};
const DOWNLOAD_MB = PAYMENTS.DOWNLOAD_MAX_BYTES / 1024 / 1024;
const ACCEPT = [...Object.keys(DOWNLOAD_FILE_TYPES).map((ext) => `.${ext}`), ...Object.values(DOWNLOAD_FILE_TYPES)].join(",");

/** An amount in the smallest unit as the owner reads and types it: 500 is "5", 450 is "4.50". */
export const amountText = (cents: string | undefined): string => {
  if (!cents || !/^\d+$/.test(cents)) return "";
  const n = Number(cents);
  return n % 100 === 0 ? String(n / 100) : (n / 100).toFixed(2);
};

/** The stored link data as the dialog's fields. */
export function paymentFieldsOf(d: Record<string, string>): Fields {
  const amounts = (d.amounts ?? "").split(",").filter(Boolean);
  return {
    currency: d.currency ?? "usd",
    amount1: amountText(amounts[0]),
    amount2: amountText(amounts[1]),
    amount3: amountText(amounts[2]),
    custom: d.custom === "on" ? "on" : "off",
    min: d.min && Number(d.min) !== PAYMENTS.MIN_AMOUNT ? amountText(d.min) : "",
    max: d.max && Number(d.max) !== PAYMENTS.MAX_AMOUNT ? amountText(d.max) : "",
    price: amountText(d.price),
    cover: d.cover ?? "",
    file: d.file ?? "",
    fileName: d.fileName ?? "",
  };
}

/**
 * The request's data for a Tip or a Paid download, in the smallest unit, and the errors of amounts
 * that are not amounts at all (the server checks the rest and answers field by field).
 */
export function paymentBody(type: "tip" | "paid_download", f: Fields): { data: Record<string, string>; errors: Fields } {
  const errors: Fields = {};
  const cents = (key: string, errKey = key): string | undefined => {
    const text = (f[key] ?? "").trim();
    if (!text) return undefined;
    const n = parseAmountText(text);
    if (n === null) {
      errors[errKey] = PAYMENT_MESSAGES.amountInvalid;
      return undefined;
    }
    return String(n);
  };
  const data: Record<string, string> = { currency: f.currency ?? "", message: f.message ?? "" };
  if (type === "tip") {
    data.amounts = TIP_AMOUNT_FIELDS.map((k) => cents(k))
      .filter((v): v is string => v !== undefined)
      .join(",");
    data.custom = f.custom === "on" ? "on" : "off";
    const min = f.custom === "on" ? cents("min", "data.min") : undefined;
    const max = f.custom === "on" ? cents("max", "data.max") : undefined;
    if (min) data.min = min;
    if (max) data.max = max;
  } else {
    const price = cents("price", "data.price");
    if (price) data.price = price;
    else if (!errors["data.price"] && !(f.price ?? "").trim()) errors["data.price"] = PAYMENT_MESSAGES.priceRequired;
    Object.assign(data, { description: f.description ?? "", cover: f.cover ?? "", file: f.file ?? "" });
  }
  return { data, errors };
}

/**
 * The error of a suggested amount field: its own (typed, not an amount), or the server's about the
 * n-th amount sent (data.amounts.n counts only the filled fields).
 */
function amountError(f: Fields, errors: Fields, key: (typeof TIP_AMOUNT_FIELDS)[number]): string | undefined {
  if (errors[key]) return errors[key];
  const sent = TIP_AMOUNT_FIELDS.filter((k) => (f[k] ?? "").trim() !== "");
  const i = sent.indexOf(key);
  return i >= 0 ? errors[`data.amounts.${i}`] : undefined;
}

interface Props {
  f: Fields;
  setF(update: (s: Fields) => Fields): void;
  errors: Fields;
  /** The dialog's labelled field (label, input, error), by key. */
  input(k: string, label: string, opts?: { required?: boolean; errKey?: string; placeholder?: string; hint?: ReactNode; inputMode?: "decimal" }): ReactNode;
  field(props: { id: string; label: string; error?: string; required?: boolean; children: ReactNode }): ReactNode;
  inputClass: string;
}

function CurrencySelect({ f, setF, errors, field, inputClass }: Props) {
  const error = errors["data.currency"];
  return field({
    id: "link-currency",
    label: "Currency",
    required: true,
    error,
    children: (
      <select
        id="link-currency"
        value={f.currency ?? "usd"}
        onChange={(e) => setF((s) => ({ ...s, currency: e.target.value }))}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "link-currency-error" : undefined}
        className={inputClass}
      >
        {PAYMENT_CURRENCIES.map((c) => (
          <option key={c} value={c}>
            {CURRENCY_NAMES[c]}
          </option>
        ))}
      </select>
    ),
  });
}

/** An optional text of the link's own (the thank-you message, a download's description). */
function TextField({ f, setF, errors, field, inputClass, name, label, rows }: Props & { name: "message" | "description"; label: string; rows: number }) {
  const error = errors[`data.${name}`];
  return field({
    id: `link-${name}`,
    label,
    error,
    children: (
      <textarea
        id={`link-${name}`}
        value={f[name] ?? ""}
        onChange={(e) => setF((s) => ({ ...s, [name]: e.target.value }))}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `link-${name}-error` : undefined}
        className={inputClass}
      />
    ),
  });
}

const connectNote = <p className="mb-3 text-sm text-slate-600">Visitors pay through Stripe once your account is connected under Earnings.</p>;

export function TipFields(props: Props) {
  const { f, setF, errors, input } = props;
  const groupError = errors["data.amounts"];
  return (
    <>
      {connectNote}
      <CurrencySelect {...props} />
      <fieldset className="mb-3" aria-describedby={groupError ? "link-amounts-error" : "link-amounts-hint"}>
        <legend className="mb-1 text-sm font-medium">Suggested amounts</legend>
        <p id="link-amounts-hint" className="mb-2 text-xs text-slate-600">
          Up to {PAYMENTS.MAX_SUGGESTED}, like 5 or 4.50. Each shows as a button on your page.
        </p>
        <div className="grid gap-2 sm:grid-cols-3">
          {TIP_AMOUNT_FIELDS.map((k, i) => {
            const error = amountError(f, errors, k);
            return (
              <div key={k}>
                <label htmlFor={`link-${k}`} className="sr-only">
                  Suggested amount {i + 1}
                </label>
                <input
                  id={`link-${k}`}
                  inputMode="decimal"
                  value={f[k] ?? ""}
                  onChange={(e) => setF((s) => ({ ...s, [k]: e.target.value }))}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `link-${k}-error` : undefined}
                  placeholder={["3", "5", "10"][i]}
                  className={props.inputClass}
                />
                <FieldError id={`link-${k}-error`} message={error} />
              </div>
            );
          })}
        </div>
        <FieldError id="link-amounts-error" message={groupError} />
      </fieldset>
      <div className="mb-3 flex items-center gap-2">
        <input id="link-custom" type="checkbox" checked={f.custom === "on"} onChange={(e) => setF((s) => ({ ...s, custom: e.target.checked ? "on" : "off" }))} />
        <label htmlFor="link-custom" className="text-sm">
          Let visitors choose an amount
        </label>
      </div>
      {f.custom === "on" ? (
        <div className="grid gap-2 sm:grid-cols-2">
          {input("min", "Smallest amount (optional)", { errKey: "data.min", placeholder: String(PAYMENTS.MIN_AMOUNT / 100), inputMode: "decimal" })}
          {input("max", "Largest amount (optional)", { errKey: "data.max", placeholder: String(PAYMENTS.MAX_AMOUNT / 100), inputMode: "decimal" })}
        </div>
      ) : null}
      <TextField {...props} name="message" label="Thank-you message (optional)" rows={2} />
    </>
  );
}

/** The file a Paid download sells: uploaded privately (POST /api/payments/files), its id kept with the link. */
function DownloadFileField({ f, setF, errors, onPlusRequired }: Props & { onPlusRequired(feature: string): void }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const error = problem ?? errors["data.file"];

  async function upload(file: File | undefined) {
    if (!file) return;
    setProblem(null);
    if (file.size > PAYMENTS.DOWNLOAD_MAX_BYTES) return setProblem(PAYMENT_MESSAGES.downloadTooLarge);
    setBusy(true);
    try {
      const body = await unwrap(api.payments.files.$post({ form: { file } }));
      setF((s) => ({ ...s, file: body.id, fileName: body.name ?? file.name }));
      toast.success("File uploaded");
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 402 && err.details.feature) onPlusRequired(err.details.feature);
      else if (err instanceof ApiFailure && err.status > 0 && err.status < 500) {
        // The server's message and, when it has one, what to do instead ("Invalid file type. Please select a PDF, ...").
        const more = typeof err.details.description === "string" ? err.details.description : "";
        setProblem(more ? `${err.message}. ${more}` : err.message);
      } else setProblem("Failed to upload file. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mb-3">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {f.file ? "Replace the file" : "File buyers download"}
        {f.file ? null : <span aria-hidden className="text-red-600"> *</span>}
      </label>
      {f.file ? (
        <p className="mb-1 text-sm" data-testid="download-file">
          File: <strong className="break-all">{f.fileName || "Uploaded file"}</strong>
        </p>
      ) : null}
      <input
        id={id}
        type="file"
        accept={ACCEPT}
        disabled={busy}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        onChange={(e) => {
          void upload(e.target.files?.[0]);
          e.target.value = "";
        }}
        className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm hover:file:bg-slate-50 disabled:opacity-60"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600" aria-live="polite">
        {busy ? "Uploading…" : `PDF, ZIP, MP3 or an image, up to ${DOWNLOAD_MB} MB. Only buyers can download it.`}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function PaidDownloadFields(props: Props & { cover: ReactNode; onPlusRequired(feature: string): void }) {
  return (
    <>
      {connectNote}
      <div className="grid gap-2 sm:grid-cols-2">
        {props.input("price", "Price", { required: true, errKey: "data.price", placeholder: "9.00", inputMode: "decimal" })}
        <CurrencySelect {...props} />
      </div>
      <TextField {...props} name="description" label="Description (optional)" rows={3} />
      {props.cover}
      <DownloadFileField {...props} />
      <TextField {...props} name="message" label="Thank-you message (optional)" rows={2} />
    </>
  );
}
