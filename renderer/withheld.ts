/**
 * page_versions.withheld_items read back (ADR 259). Apart from core/plan-hides.ts, which the
 * dashboard's live preview loads and which stays without zod.
 */
import { z } from "zod";
import { PLAN_HIDE_KINDS, type PlanItemKey } from "#core/plan-hides.ts";

/** page_versions.withheld_items as stored (ADR 259): null, or a list of item keys. */
const PlanItemKeysSchema = z.array(z.object({ kind: z.enum(PLAN_HIDE_KINDS), id: z.string().optional() }).strict()).nullable();

/** The items a version withholds, read from its row's value: empty when none. */
export function withheldOf(value: unknown): PlanItemKey[] {
  return PlanItemKeysSchema.parse(value ?? null) ?? [];
}
