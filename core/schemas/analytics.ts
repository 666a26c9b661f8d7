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

/** A page of the leads list (ADR 142), 1-based. */
export const LeadsPageQuerySchema = z.object({
  page: z.coerce.number("Please choose a valid page").int("Please choose a valid page").min(1, "Please choose a valid page").max(1_000_000, "Please choose a valid page").default(1),
});

/** A lead's id in a path: our ids are at most 64 characters of letters, digits, - and _. */
export const LeadIdSchema = z.object({ id: z.string().regex(/^[\w-]{1,64}$/) });
