/** How the console writes money and moments. */
import { formatMoney } from "#core/schemas/billing.ts";

export const money = (cents: number) => formatMoney(cents);
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }) : "Never");
export const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium" }) : "None");
