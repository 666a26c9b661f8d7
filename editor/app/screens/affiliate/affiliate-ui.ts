/** The programme's figures as the owner reads them, from core's limits, the look of its tabs, and copying. */
import { AFFILIATE_MESSAGES } from "#core/affiliate.ts";
import { LIMITS } from "#core/limits.ts";
import { formatMoney } from "#core/billing.ts";
import { toast } from "../../toast.tsx";

export { COMMISSION_PERCENT } from "#core/limits.ts";
export const PAYOUT_FEE_PERCENT = `${Math.round(LIMITS.PAYOUT_FEE_RATE * 100)}%`;
export const MIN_PAYOUT = formatMoney(LIMITS.PAYOUT_MIN_CENTS);

export const tabClass =
  "border-b-2 border-transparent px-3 py-2 text-sm font-medium data-[state=active]:border-brand-600 data-[state=active]:text-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600";

export async function copyText(text: string, done: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(done);
  } catch {
    toast.error(AFFILIATE_MESSAGES.copyFailedTitle, { description: AFFILIATE_MESSAGES.copyFailedText });
  }
}
