/** Dates as the owner reads them on billing screens and pages: "January 5, 2025" and "Jan 5, 2025". */
import { format } from "date-fns";

export const longDate = (iso: string | null | undefined) => (iso ? format(new Date(iso), "MMMM d, yyyy") : "");
export const shortDate = (iso: string | null | undefined) => (iso ? format(new Date(iso), "MMM d, yyyy") : "");
