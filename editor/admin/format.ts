/** How the console writes money and moments. */
import { formatMoney } from "#core/schemas/billing.ts";
import { shortDate } from "../components/dates.ts";

export const money = (cents: number) => formatMoney(cents);
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }) : "Never");
export const day = (iso: string | null) => shortDate(iso) || "None";
