/**
 * docs/product.md section 4, Logout upsell. Kept dependency-free: the landing page reads it without loading zod.
 */

/** Session-storage key set at sign-out when the landing page should show the upgrade dialog. */
export const LOGOUT_UPSELL_KEY = "plinth_logout_upsell";
/** The upgrade prompt's reason, recorded as its feature key. */
export const LOGOUT_UPSELL_REASON = "logout_redirect";
