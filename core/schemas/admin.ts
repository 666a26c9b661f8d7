/** What the operator's console accepts (ADR 105, 106). */
import { z } from "zod";
import { ADMIN_ACTIONS, ADMIN_TEXTS } from "../admin.ts";
import { multiLine, singleLine } from "../text-rule.ts";

const FILTER_MAX = "Please enter at most 254 characters";
const optionalFilter = () =>
  singleLine()
    .max(254, FILTER_MAX)
    .transform((s) => (s ? s : undefined))
    .optional();

export const AuditQuerySchema = z
  .object({
    action: z.enum(ADMIN_ACTIONS, { error: "Please choose an action from the list" }).optional(),
    actor: optionalFilter(),
    target: optionalFilter(),
    from: z.iso.datetime({ offset: true, error: "Please choose a valid start date" }).optional(),
    to: z.iso.datetime({ offset: true, error: "Please choose a valid end date" }).optional(),
    before: z.coerce
      .number({ error: ADMIN_TEXTS.pageOfRecord })
      .int(ADMIN_TEXTS.pageOfRecord)
      .positive(ADMIN_TEXTS.pageOfRecord)
      .max(Number.MAX_SAFE_INTEGER, ADMIN_TEXTS.pageOfRecord)
      .optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "The start date must be before the end date", path: ["to"] });
export type AuditQuery = z.output<typeof AuditQuerySchema>;

/** Mark paid (with the payment's reference) or reject (with the reason the owner reads). */
export const PayoutDecisionSchema = z.discriminatedUnion(
  "decision",
  [
    z.object({
      decision: z.literal("paid"),
      reference: singleLine(ADMIN_TEXTS.referenceRequired).min(1, ADMIN_TEXTS.referenceRequired).max(200, ADMIN_TEXTS.referenceTooLong),
    }),
    z.object({
      decision: z.literal("rejected"),
      reason: multiLine(ADMIN_TEXTS.reasonRequired).min(1, ADMIN_TEXTS.reasonRequired).max(1000, ADMIN_TEXTS.reasonTooLong),
    }),
  ],
  { error: "Please choose to mark the payout paid or reject it" },
);
export type PayoutDecision = z.output<typeof PayoutDecisionSchema>;

/** An admin action on an account says why, for the record. */
export const AdminReasonSchema = z.object({
  reason: multiLine(ADMIN_TEXTS.reasonRequired).min(1, ADMIN_TEXTS.reasonRequired).max(1000, ADMIN_TEXTS.reasonTooLong),
});

export const PeopleQuerySchema = z.object({
  q: singleLine(ADMIN_TEXTS.searchTooShort).min(2, ADMIN_TEXTS.searchTooShort).max(254, "Please enter at most 254 characters"),
});

/** Dismissing or reopening a page's reports takes a note for the record. */
export const AdminNoteSchema = z.object({
  note: multiLine(ADMIN_TEXTS.noteRequired).min(1, ADMIN_TEXTS.noteRequired).max(1000, ADMIN_TEXTS.noteTooLong),
});
