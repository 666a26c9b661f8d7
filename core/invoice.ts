/**
 * What an invoice says beyond the payment (issue 23, ADR 103): its number in the one sequence, and
 * net, tax and gross. Prices are what the owner pays (tax included), so the tax is worked out of the
 * gross once, rounded half up to the cent, and the net is what is left: the three always add up.
 * Rates are kept as hundredths of a percent (basis points), so 8.25% is 825 and no float is rounded.
 */

export const INVOICE_NUMBER_PREFIX = "PLN-";

/** 1 -> "PLN-000001"; past a million the number simply grows a digit. */
export function formatInvoiceNumber(n: number): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`Invalid invoice number ${n}`);
  return `${INVOICE_NUMBER_PREFIX}${String(n).padStart(6, "0")}`;
}

/** The highest rate accepted: 100% (10000 basis points). */
export const MAX_TAX_RATE_BP = 10_000;

/** "20" -> 2000, "8.25" -> 825, "0" -> 0; null when it is not 0 to 100 with at most two decimals. */
export function parseTaxRatePercent(text: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const bp = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  return bp <= MAX_TAX_RATE_BP ? bp : null;
}

/** 2000 -> "20%", 825 -> "8.25%", 750 -> "7.5%". */
export function formatTaxRate(bp: number): string {
  const whole = Math.floor(bp / 100);
  const rest = bp % 100;
  return rest === 0 ? `${whole}%` : `${whole}.${String(rest).padStart(2, "0").replace(/0$/, "")}%`;
}

export interface InvoiceTotals {
  netCents: number;
  taxCents: number;
  grossCents: number;
  taxRateBp: number;
}

/**
 * Net and tax inside a tax-inclusive gross: tax = gross x rate / (100% + rate), rounded half up to
 * the cent in integer arithmetic; net = gross - tax.
 */
export function invoiceTotals(grossCents: number, taxRateBp: number): InvoiceTotals {
  if (!Number.isSafeInteger(grossCents) || grossCents < 0) throw new RangeError(`Invalid amount ${grossCents}`);
  if (!Number.isInteger(taxRateBp) || taxRateBp < 0 || taxRateBp > MAX_TAX_RATE_BP) throw new RangeError(`Invalid tax rate ${taxRateBp}`);
  const divisor = 10_000 + taxRateBp;
  // floor(x / d + 1/2) without floats: half a cent rounds up.
  const taxCents = Math.floor((2 * grossCents * taxRateBp + divisor) / (2 * divisor));
  return { netCents: grossCents - taxCents, taxCents, grossCents, taxRateBp };
}
