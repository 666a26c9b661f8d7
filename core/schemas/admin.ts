/** What the operator's console accepts (ADR 105). */
import { z } from "zod";
import { ADMIN_ACTIONS } from "../admin.ts";

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    // No control characters in a filter (they could not match anything honest).
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), message)
    .optional()
    .transform((s) => (s ? s : undefined));

export const AuditQuerySchema = z
  .object({
    action: z.enum(ADMIN_ACTIONS, { error: "Please choose an action from the list" }).optional(),
    actor: optionalText(254, "Please enter at most 254 characters without control characters"),
    target: optionalText(254, "Please enter at most 254 characters without control characters"),
    from: z.iso.datetime({ offset: true, error: "Please choose a valid start date" }).optional(),
    to: z.iso.datetime({ offset: true, error: "Please choose a valid end date" }).optional(),
    before: z.coerce.number({ error: "Please open the record from its first page" }).int("Please open the record from its first page").positive("Please open the record from its first page").max(Number.MAX_SAFE_INTEGER, "Please open the record from its first page").optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "The start date must be before the end date", path: ["to"] });
export type AuditQuery = z.output<typeof AuditQuerySchema>;
