/**
 * The version an owner's edit was based on (ADR 068). Every write that changes or removes something
 * already on the draft names the revision it last saw; the API refuses it with 409 and STALE_WRITE when
 * another tab or device changed that thing since, and with 400 when the revision is missing.
 */
import { z } from "zod";
import { REVISION_REQUIRED } from "../revision.ts";

export * from "../revision.ts";

/** A revision as it travels in a JSON body. */
export const RevisionSchema = z.number(REVISION_REQUIRED).int(REVISION_REQUIRED).min(0, REVISION_REQUIRED).max(Number.MAX_SAFE_INTEGER, REVISION_REQUIRED);

/** A revision as text: in a query string (?revision=12) or a multipart form field. */
export const RevisionTextSchema = z
  .string(REVISION_REQUIRED)
  .regex(/^\d{1,15}$/, REVISION_REQUIRED)
  .transform(Number);

/** Deletes carry no body: their revision travels in the query string. */
export const RevisionQuerySchema = z.object({ revision: RevisionTextSchema });

/** A write body: the schema's fields plus the revision they were based on. */
export function withRevision<Shape extends z.core.$ZodShape, Config extends z.core.$ZodObjectConfig>(schema: z.ZodObject<Shape, Config>) {
  return schema.extend({ revision: RevisionSchema });
}
