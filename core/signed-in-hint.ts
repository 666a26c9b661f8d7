/**
 * The signed-in hint: a non-secret cookie that tells the static site pages whether to show Login and
 * Sign Up or Dashboard before first paint (ADR 051). It grants nothing; the HttpOnly session cookie
 * stays the only proof of a session. The server keeps it in step with the session on every site page.
 */
export const SIGNED_IN_HINT_COOKIE = "plinth_signed_in";
export const SIGNED_IN_HINT_VALUE = "1";

/**
 * The inline head script that reads it. Over https the server names the cookie
 * `__Host-plinth_signed_in` (api/auth/cookies.ts); a built page does not know which origin serves
 * it, so the script accepts either name.
 */
export const SIGNED_IN_HINT_SCRIPT = `if(/(?:^|; )(?:__Host-)?${SIGNED_IN_HINT_COOKIE}=${SIGNED_IN_HINT_VALUE}(?:;|$)/.test(document.cookie))document.documentElement.dataset.auth="in"`;
