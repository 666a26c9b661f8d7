/**
 * What visitors of a public page are told (docs/product.md sections 2, 3 and 5, Visitors), without zod, so the
 * dashboard can name these texts without loading the validation library; schemas/visitor.ts holds
 * the schemas and re-exports these.
 */

export const VISITOR_MESSAGES = {
  emailRequired: "Please enter your email address",
  emailInvalid: "Please enter a valid email address",
  leadFailed: "Failed to send download link. Please try again.",
  reasonRequired: "Please select a reason",
  copyFailedTitle: "Copy failed",
  copyFailedText: "Unable to copy the link. Please try again.",
  rateLimited: "Too many requests. Please try again later.",
} as const;

/** Our choice: report details are a short note, not an essay. */
export const REPORT_DETAILS_MAX = 2000;
