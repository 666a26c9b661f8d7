/**
 * Analytics (spec sections 2, 3, 4 and 9; decisions.md: real counts per page and per link, the chosen
 * range applied, referrer domains and device classes, CSV and JSON export).
 */
import { z } from "zod";
import { ANALYTICS_MAX_RANGE_DAYS } from "../analytics.ts";

export * from "../analytics.ts";

export const AnalyticsRangeSchema = z
  .object({
    from: z.iso.datetime({ offset: true, error: "Please choose a valid start date" }),
    to: z.iso.datetime({ offset: true, error: "Please choose a valid end date" }),
    /** The owner's offset from UTC in minutes (Date#getTimezoneOffset), so days are their days. */
    tz: z.coerce.number().int().min(-840).max(840).default(0),
  })
  .refine((r) => Date.parse(r.to) > Date.parse(r.from), { message: "The end date must be after the start date", path: ["to"] })
  .refine((r) => Date.parse(r.to) - Date.parse(r.from) <= ANALYTICS_MAX_RANGE_DAYS * 86_400_000, {
    message: `Choose a range of at most ${ANALYTICS_MAX_RANGE_DAYS} days`,
    path: ["from"],
  });
export type AnalyticsRange = z.output<typeof AnalyticsRangeSchema>;

export const ExportQuerySchema = AnalyticsRangeSchema.and(z.object({ format: z.enum(["csv", "json"], "Choose CSV or JSON") }));
