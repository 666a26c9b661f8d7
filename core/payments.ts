/**
 * Tips and paid downloads (ADR 230, 231): currencies, amount limits, the download file's rules and
 * the texts, without zod (the dashboard and the renderer read them; schemas/payments.ts holds the
 * schemas). Every amount is an integer in the currency's smallest unit (cents).
 */
import { LEAD_FILE_TYPES } from "./link-files.ts";

/** Currencies a creator may price in: all with two decimals, so one smallest unit is 1/100. */
export const PAYMENT_CURRENCIES = ["usd", "eur", "gbp", "cad", "aud", "nzd", "chf"] as const;
export type PaymentCurrency = (typeof PAYMENT_CURRENCIES)[number];

export const PAYMENTS = {
  /** The smallest payment (1.00): above Stripe's minimum charge in every currency listed. */
  MIN_AMOUNT: 100,
  /** The largest single payment (1,000.00): a tip jar and a digital product, not a storefront. */
  MAX_AMOUNT: 100_000,
  /** Suggested tip amounts on the page. */
  MAX_SUGGESTED: 3,
  /** A visitor's note with a tip. */
  NOTE_MAX: 200,
  THANK_YOU_MAX: 280,
  /** The largest paid download. */
  DOWNLOAD_MAX_BYTES: 25 * 1024 * 1024,
  /** A buyer's download link lasts this long and opens the file this many times. */
  DOWNLOAD_LINK_TTL_MS: 72 * 60 * 60 * 1000,
  DOWNLOAD_LINK_MAX_USES: 5,
} as const;

/** "12.50 US$"-free: the amount as a buyer reads it, e.g. "$12.50", "€5.00". */
export function formatAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);
  } catch {
    return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** "12.50" or "12" as typed in an amount field, to the smallest unit; null when it is not an amount. */
export function parseAmountText(text: string): number | null {
  // A currency sign in front is fine ("$7.50"); a minus sign or anything else is not an amount.
  const t = text.trim().replace(/^[$€£]\s*/, "");
  if (!/^\d{1,7}([.,]\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ""] = t.split(/[.,]/);
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}

/** The download types a paid download may be, by the extension its bytes earned: a lead magnet's, without EPUB. */
const { epub: _epub, ...downloadFileTypes } = LEAD_FILE_TYPES;
export const DOWNLOAD_FILE_TYPES = downloadFileTypes;
export type DownloadFileExt = keyof typeof DOWNLOAD_FILE_TYPES;

export const PAYMENT_MESSAGES = {
  currencyInvalid: "Please choose a currency",
  amountInvalid: "Please enter an amount, like 5 or 4.50",
  amountTooSmall: `The smallest amount is ${(PAYMENTS.MIN_AMOUNT / 100).toFixed(2)}`,
  amountTooLarge: `The largest amount is ${(PAYMENTS.MAX_AMOUNT / 100).toFixed(2)}`,
  amountsRequired: "Add a suggested amount or let visitors choose one",
  tooManyAmounts: `Up to ${PAYMENTS.MAX_SUGGESTED} suggested amounts`,
  minAboveMax: "The smallest amount must not be above the largest",
  amountOutsideRange: "Suggested amounts must be between the smallest and the largest amount",
  priceRequired: "Price is required",
  fileRequired: "Please upload the file buyers download",
  fileUnknown: "This file is not one of your uploads",
  coverInvalid: "Please upload a cover image",
  noteTooLong: `Your note must be ${PAYMENTS.NOTE_MAX} characters or less`,
  downloadInvalidType: "Please select a PDF, ZIP, MP3 or image file (JPG, PNG, GIF, WEBP)",
  downloadTooLarge: `Please select a file smaller than ${PAYMENTS.DOWNLOAD_MAX_BYTES / 1024 / 1024}MB`,
  notAvailable: "This page is not taking payments right now.",
  notTakingPayments: "This creator is not taking payments yet.",
  linkNotFound: "This download link is not valid.",
  linkExpired: "This download link has expired.",
  linkUsedUp: "This download link has been used the most times it can be.",
  linkRefunded: "This purchase was refunded, so its download link no longer works.",
  nothingToResend: "Only a download has a link to send again.",
  linkResent: "Download link sent again",
} as const;

/** The visible texts of the page's payment items. */
export const PAYMENT_TEXTS = {
  otherAmount: "Other amount",
  note: "Leave a note (optional)",
  notePrivate: "Only the creator sees my note",
  tip: "Tip",
  buy: "Buy",
} as const;

// ---- the stored link data (links.link_specific_data, strings) as the page and the checkout read it

export interface TipConfig {
  currency: PaymentCurrency;
  amounts: number[];
  custom: boolean;
  min: number;
  max: number;
  message: string;
}

export interface PaidDownloadConfig {
  currency: PaymentCurrency;
  price: number;
  description: string;
  cover: string;
  fileId: string;
  fileName: string;
  message: string;
}

const isCurrency = (v: string | undefined): v is PaymentCurrency => (PAYMENT_CURRENCIES as readonly string[]).includes(v ?? "");
const amountIn = (v: string | undefined, min: number, max: number): number | null => {
  if (!v || !/^\d{1,9}$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= max ? n : null;
};

/** A Tip link's settings, or null when what is stored is not a whole, valid one (the page then draws nothing). */
export function tipConfigOf(data: Record<string, string | undefined>): TipConfig | null {
  if (!isCurrency(data.currency)) return null;
  const min = amountIn(data.min, PAYMENTS.MIN_AMOUNT, PAYMENTS.MAX_AMOUNT);
  const max = amountIn(data.max, PAYMENTS.MIN_AMOUNT, PAYMENTS.MAX_AMOUNT);
  if (min === null || max === null || min > max) return null;
  const amounts: number[] = [];
  for (const part of (data.amounts ?? "").split(",")) {
    if (!part) continue;
    const a = amountIn(part, min, max);
    if (a === null || amounts.length === PAYMENTS.MAX_SUGGESTED) return null;
    amounts.push(a);
  }
  const custom = data.custom === "on";
  if (amounts.length === 0 && !custom) return null;
  return { currency: data.currency, amounts, custom, min, max, message: data.message ?? "" };
}

/** A Paid download's settings, or null when what is stored is not a whole, valid one. */
export function paidDownloadOf(data: Record<string, string | undefined>): PaidDownloadConfig | null {
  if (!isCurrency(data.currency)) return null;
  const price = amountIn(data.price, PAYMENTS.MIN_AMOUNT, PAYMENTS.MAX_AMOUNT);
  if (price === null || !data.file) return null;
  return { currency: data.currency, price, description: data.description ?? "", cover: data.cover ?? "", fileId: data.file, fileName: data.fileName ?? "", message: data.message ?? "" };
}
