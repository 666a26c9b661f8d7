/**
 * Pieces the billing screens share: the status badge, the scrolling table, the section frame, and
 * the one way into checkout (every Upgrade button in the dashboard goes through startCheckout).
 */
import type { ReactNode } from "react";
import { toast } from "../../toast.tsx";
import { BILLING_MESSAGES, type BillingInterval } from "#core/billing.ts";
import { api, ApiFailure, unwrap } from "../../api.ts";

export type BadgeVariant = "default" | "secondary" | "destructive" | "outline";
const BADGE: Record<BadgeVariant, string> = {
  default: "bg-brand-600 text-white",
  secondary: "bg-slate-200 text-slate-900",
  destructive: "bg-red-600 text-white",
  outline: "border border-slate-400 text-slate-800",
};

export function Badge({ variant, children }: { variant: BadgeVariant; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${BADGE[variant]}`}>{children}</span>;
}

/**
 * Sends the owner to the hosted checkout. Cancelling it brings them back to where they were; paying
 * lands on the Subscription tab.
 */
export async function startCheckout(interval: BillingInterval = "month"): Promise<boolean> {
  const here = window.location.pathname.replace(/\/+$/, "");
  try {
    // Only a dashboard path the server takes as a return address is sent (core's CheckoutBodySchema,
    // loaded here rather than with every screen: ADR 123).
    const { CheckoutBodySchema } = await import("#core/schemas/billing.ts");
    const back = CheckoutBodySchema.safeParse({ returnPath: here });
    const { url } = await unwrap(api.billing.checkout.$post({ json: back.success ? { returnPath: here, interval } : { interval } }));
    window.location.assign(url);
    return true;
  } catch (err) {
    toast.error(BILLING_MESSAGES.checkoutFailed, { description: err instanceof ApiFailure ? err.message : undefined });
    return false;
  }
}

/**
 * A table of billing rows (invoices, monthly earnings, payouts) that scrolls inside its box on a narrow
 * screen instead of widening the page. `minWidth` is a Tailwind min-w class written out in full.
 */
export function ScrollTable({ caption, minWidth, className = "", head, children }: { caption: string; minWidth: string; className?: string; head: ReactNode; children: ReactNode }) {
  return (
    <div className={`relative -mx-4 overflow-x-auto sm:mx-0 ${className}`.trimEnd()}>
      <table className={`w-full ${minWidth} text-left text-sm`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A section's frame, as the other account tabs draw theirs. */
export function Panel({ title, id, children, actions }: { title: string; id: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
