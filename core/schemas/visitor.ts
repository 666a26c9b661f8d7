/**
 * What visitors of a public page send (docs/product.md sections 2, 3 and 5, Visitors) and what the page keeps in
 * the browser (cookie consent). The visitor script, the API and the renderer share these texts.
 */
import { z } from "zod";
import { LIMITS, REPORT_REASONS } from "../limits.ts";
import { multiLine } from "../text-rule.ts";
import { REPORT_DETAILS_MAX, VISITOR_MESSAGES } from "../visitor.ts";

export * from "../visitor.ts";

const pageUsername = z.string().trim().toLowerCase().min(1).max(64);
const linkId = z.string().trim().min(1).max(64);
const referrer = z.string().max(LIMITS.URL_MAX).optional();
/** The page's own URL, for its utm_* campaign parameters (core/campaign.ts). */
const url = z.string().max(LIMITS.URL_MAX).optional();

export const TrackEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("page_view"), username: pageUsername, referrer, url }),
  z.object({ type: z.literal("link_click"), username: pageUsername, linkId, referrer, url }),
]);

/** Lead-magnet capture: the e-mail is required and trimmed. */
export const LeadCaptureSchema = z.object({
  linkId,
  email: z
    .string(VISITOR_MESSAGES.emailRequired)
    .trim()
    .min(1, VISITOR_MESSAGES.emailRequired)
    .max(LIMITS.EMAIL_MAX, VISITOR_MESSAGES.emailInvalid)
    .pipe(z.email(VISITOR_MESSAGES.emailInvalid)),
});

export const PageReportSchema = z.object({
  username: pageUsername,
  reason: z.enum(REPORT_REASONS, VISITOR_MESSAGES.reasonRequired),
  details: multiLine().max(REPORT_DETAILS_MAX, `Details must be ${REPORT_DETAILS_MAX} characters or less`).optional().default(""),
});
