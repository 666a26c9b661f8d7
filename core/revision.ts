/**
 * The messages of ADR 068's revision check, without zod, so the dashboard can show them without
 * loading the validation library; schemas/revision.ts holds the schemas and re-exports these.
 */

export const STALE_WRITE = "This was changed in another tab. Reload to see the latest version.";
/** Our choice: a write without its revision (a page loaded before revisions existed). */
export const REVISION_REQUIRED = "This change does not say which version it was based on. Reload the page and try again.";
