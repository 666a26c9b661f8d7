/**
 * The operator's console (ADR 105): who may use it, for how long a sign-in lasts there, and the
 * actions its record names.
 */

/** An admin's session ends 12 hours after its sign-in, however active (owners: 30 days, renewed). */
export const ADMIN_SESSION_MS = 12 * 3_600_000;

/** Every action the record names; the shell's are role grants and revocations. */
export const ADMIN_ACTIONS = ["role.grant", "role.revoke"] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/** How many entries one page of the record shows. */
export const AUDIT_PAGE_SIZE = 50;
