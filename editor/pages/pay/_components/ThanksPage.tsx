/**
 * The success page of a tip or a paid download (/pay/thanks?sale=...&key=..., ADR 232, 237): the
 * sale's key in the address opens the buyer's own receipt. The provider's webhook may come a moment
 * after the buyer: until it has, the page says the payment is being confirmed and offers a refresh;
 * once it has, it thanks the visitor, shows the creator's thank-you message and, for a download, the
 * download link (the same one the e-mail carries).
 */
import { Download } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { formatAmount, PAYMENTS } from "#core/payments.ts";
import { ApiFailure, unwrap } from "../../../app/api.ts";
import ErrorBoundary from "../../../components/ErrorBoundary.tsx";

interface Receipt {
  status: "open" | "paid" | "refunded";
  kind: "tip" | "download";
  title: string;
  amount: number;
  currency: string;
  message: string;
  downloadUrl: string | null;
  expiresAt: string | null;
}

export const THANKS_TEXTS = {
  notFound: "This receipt link is not valid. If you paid, your receipt is in your e-mail.",
  confirming: "Your payment is being confirmed",
  confirmingText: "This usually takes a few seconds. Refresh in a moment to see your receipt.",
  refresh: "Refresh",
  tipThanks: "Thank you for your tip!",
  downloadThanks: "Thank you for your purchase!",
  refunded: "This payment was refunded",
  refundedText: "The money went back to your card, and the download link no longer works.",
  fromCreator: "A message from the creator",
} as const;

const param = (name: string) => new URLSearchParams(window.location.search).get(name) ?? "";
const card = "w-full max-w-lg rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm";

function Thanks() {
  const sale = param("sale");
  const key = param("key");
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [round, setRound] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    setChecking(true);
    unwrap(fetch(`/api/pay/sales/${encodeURIComponent(sale)}?key=${encodeURIComponent(key)}`))
      .then((r) => setReceipt(r as Receipt))
      .catch((err: unknown) => setFailure(err instanceof ApiFailure && err.status === 404 ? THANKS_TEXTS.notFound : "Something went wrong. Please try again later."))
      .finally(() => setChecking(false));
  }, [sale, key, round]);

  // A refresh that found the payment confirmed moves focus to the new heading.
  const status = receipt?.status;
  useEffect(() => {
    if (round > 0 && status && status !== "open") heading.current?.focus();
  }, [status, round]);

  if (failure)
    return (
      <div className={card}>
        <h1 className="text-2xl font-bold">Receipt not found</h1>
        <p role="alert" className="mt-2 text-slate-700">
          {failure}
        </p>
      </div>
    );
  if (!receipt) return <p role="status" className="text-slate-600">Loading...</p>;

  const amount = formatAmount(receipt.amount, receipt.currency);
  if (receipt.status === "open")
    return (
      <div className={card}>
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold">
          {THANKS_TEXTS.confirming}
        </h1>
        <p className="mt-2 text-slate-700">{THANKS_TEXTS.confirmingText}</p>
        <button type="button" disabled={checking} onClick={() => setRound((r) => r + 1)} className="mt-6 min-h-11 rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:bg-slate-400">
          {checking ? "Checking..." : THANKS_TEXTS.refresh}
        </button>
        <p role="status" className="sr-only">
          {checking ? "Checking your payment" : ""}
        </p>
      </div>
    );
  if (receipt.status === "refunded")
    return (
      <div className={card}>
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold">
          {THANKS_TEXTS.refunded}
        </h1>
        <p className="mt-2 text-slate-700">
          {receipt.title} ({amount}). {THANKS_TEXTS.refundedText}
        </p>
      </div>
    );

  return (
    <div className={card}>
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold">
        {receipt.kind === "tip" ? THANKS_TEXTS.tipThanks : THANKS_TEXTS.downloadThanks}
      </h1>
      <p className="mt-2 text-slate-700">
        {receipt.kind === "tip" ? "You tipped" : "You bought"} <span className="font-medium text-slate-900 break-words">{receipt.title}</span> for <span className="font-medium text-slate-900">{amount}</span>.
      </p>
      {receipt.message ? (
        <figure className="mt-4 rounded-lg bg-slate-50 p-4 text-left">
          <figcaption className="text-sm font-medium text-slate-600">{THANKS_TEXTS.fromCreator}</figcaption>
          <blockquote className="mt-1 break-words whitespace-pre-line text-slate-900">{receipt.message}</blockquote>
        </figure>
      ) : null}
      {receipt.kind === "download" && receipt.downloadUrl ? (
        <div className="mt-6">
          <a href={receipt.downloadUrl} className="inline-flex min-h-11 items-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
            <Download aria-hidden className="size-4" />
            Download {receipt.title}
          </a>
          <p className="mt-2 text-sm text-slate-600">
            The link works {PAYMENTS.DOWNLOAD_LINK_MAX_USES} times, until {new Date(receipt.expiresAt!).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })}. We also sent it to your e-mail.
          </p>
        </div>
      ) : null}
    </div>
  );
}

export default function ThanksPage() {
  return (
    <ErrorBoundary>
      <Thanks />
    </ErrorBoundary>
  );
}
