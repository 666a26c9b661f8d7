/**
 * The operator's console (ADR 105): who may use it, for how long a sign-in lasts there, and the
 * actions its record names.
 */

/** An admin's session ends 12 hours after its sign-in, however active (owners: 30 days, renewed). */
export const ADMIN_SESSION_MS = 12 * 3_600_000;

/** Every action the record names; the shell's are role grants and revocations. */
export const ADMIN_ACTIONS = [
  "role.grant",
  "role.revoke",
  "payout.paid",
  "payout.rejected",
  "account.sign_out_everywhere",
  "reports.dismiss",
  "reports.reopen",
  "page.suspend",
  "page.restore",
  "account.suspend",
  "account.restore",
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/** How many entries one page of the record shows. */
export const AUDIT_PAGE_SIZE = 50;

/** The console's messages. */
export const ADMIN_TEXTS = {
  payoutNotFound: "Payout request not found",
  payoutDecided: "This payout request has already been decided. Reload to see its status.",
  referenceRequired: "Please enter the payment reference",
  referenceTooLong: "Please keep the payment reference to 200 characters",
  reasonRequired: "Please give the reason the owner will read",
  reasonTooLong: "Please keep the reason to 1,000 characters",
  pageOfRecord: "Please open the record from its first page",
  accountNotFound: "Account not found",
  searchTooShort: "Please enter at least 2 characters of an e-mail address or username",
  pageNotFound: "Page not found",
  noOpenReports: "This page has no open reports. Reload to see the queue.",
  noDismissal: "This page has no dismissed reports to reopen.",
  pinnedVersionGone: "The reported version of this page is no longer kept.",
  noteRequired: "Please enter a note for the record",
  noteTooLong: "Please keep the note to 1,000 characters",
  alreadySuspended: "This page is already suspended. Reload to see its state.",
  notSuspended: "This page is not suspended. Reload to see its state.",
  accountAlreadySuspended: "This account is already suspended. Reload to see its state.",
  accountNotSuspended: "This account is not suspended. Reload to see its state.",
  ownAccount: "You cannot suspend your own account.",
  /** ADR 149: an admin is suspended only once the role is revoked from the shell. */
  adminAccount: "This account is an admin. Revoke its admin role from the shell first (npm run admin -- revoke <email>), then suspend it.",
  /** Issue 35: the page of a suspended account comes back with the account, never alone. */
  accountOfPageSuspended: "This page's account is suspended. Restore the account (People, then the account) to bring its page back.",
} as const;

/** What the owner reads about a suspension (dashboard banner, sign-in, publish). */
export const SUSPENSION_TEXTS = {
  publishRefused: "Your page is suspended, so it cannot be published.",
  bannerTitle: "Your page is suspended",
  bannerBody: "Visitors see \"This page is unavailable\" at your page's address. Reason:",
  signInRefused: "This account is suspended. Please contact support.",
} as const;
