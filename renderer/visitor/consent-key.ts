/** Where a visitor's cookie choice is kept in localStorage: read by the page's inline script and by the visitor script. */
export const CONSENT_KEY = "plinth-consent";
