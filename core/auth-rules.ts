/**
 * The account rules and texts that run in the browser as well as on the server: docs/product.md's
 * messages, the e-mail and password checks, the sign-in e-mail clean-up and where to go after
 * signing in (docs/product.md sections 5, 8 and 9; docs/product.md section 10 "one password policy"). Without zod, so the
 * sign-in and signup pages can check a field as it is typed without shipping a schema library
 * (ADR 122); core/schemas/auth.ts builds its schemas from these same functions.
 */
import { LIMITS } from "./limits.ts";

export const AUTH_TEXT = {
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email address",
  emailTooLong: "Email address is too long",
  emailTaken: "An account with this email already exists. Please sign in instead.",

  passwordRequired: "Password is required",
  passwordTooShort: "Password must be at least 12 characters",
  passwordTooWeak: "Password must include uppercase, lowercase, number, and special character",
  passwordTooLong: `Password must be at most ${LIMITS.PASSWORD_MAX} characters`,
  /** The server's guessability check (ADR 047); its message goes on with why and what to do. */
  passwordTooCommon: "This password is too common: it is on (or close to one on) the lists of leaked passwords attackers try first.",
  passwordGuessable: "This password is too easy to guess.",
  passwordGuessableHint: "Add more words that are less common.",
  passwordPersonal: "Your password must not contain your username or email address.",
  passwordsDontMatch: "Passwords do not match",
  newPasswordsDontMatch: "New passwords don't match",
  currentPasswordRequired: "Current password is required",
  currentPasswordWrong: "Current password is incorrect",

  codeInvalid: "Invalid verification code",
  codeInvalidRetry: "Invalid verification code. Please try again.",
  codeExpired: "This code has expired. Please request a new code.",
  codeSendFailed: "Failed to send verification code. Please try again.",
  codeResendFailed: "Failed to resend code. Please try again.",
  codeResendWait: (seconds: number) => `Please wait ${seconds} seconds before requesting a new code.`,
  twoFactorCodeLength: "A 2FA code must be exactly 6 characters to enable",

  termsRequired: "Please agree to the Terms of Service and Privacy Policy",

  invalidCredentials: "Invalid email or password",
  signInFailed: "An error occurred during sign in",
  signedIn: "Successfully signed in!",
  unverifiedTitle: "Please verify your email address to log in.",
  unverifiedText: "Check your email for a verification link.",
  verificationSent: "Verification email sent!",
  verificationFailed: "Failed to resend verification email",
  emailVerified: "Your email address is verified. You can sign in now.",
  verifyLinkInvalid: "This verification link is invalid or has expired.",
  throttled: (minutes: number) => `Too many attempts. Please try again in ${minutes} minutes.`,
  tooManyRequests: "Too many requests. Please try again later.",

  signUpFailed: "Failed to create account",
  signupExpired: "Your signup session has expired. Please start again.",
  providerFailed: "Failed to sign in with provider",
  providerEmailUnverified: "Your Google email address is not verified.",
  providerFlowInvalid: "This Google sign-in has expired or could not be verified. Please try again.",
  signOutFailed: "Failed to sign out",

  resetSent: "Password reset email sent!",
  resetFailed: "Failed to reset password",
  resetLinkInvalid: "This password reset link is invalid or has expired.",
  passwordUpdated: "Your password has been updated. Please sign in with your new password.",
  passwordChanged: "Password updated successfully",
  passwordChangeFailed: "Failed to update password",

  twoFactorSetupFailed: "Failed to set up 2FA",
  twoFactorVerifyFailed: "Failed to verify 2FA code",
  twoFactorDisableFailed: "Failed to disable 2FA",
  twoFactorNotPending: "Start two-factor setup first.",
  twoFactorAlreadyOn: "Two-factor authentication is already on.",
  twoFactorNotOn: "Two-factor authentication is not on.",
  freshSignInRequired: "For your security, sign in with Google again to make this change.",
  twoFactorExpired: "Your sign-in has expired. Please sign in again.",

  /** The Account tab when the account cannot be loaded. */
  accountLoadFailed: "Something went wrong. Please try again later.",
  confirmPasswordRequired: "Please enter your password to confirm",
  deleteUsernameMismatch: "Please type your username to confirm",
  notAuthenticated: "User not authenticated",
} as const;

// ---------------------------------------------------------------------------------------------
// E-mail

/** What an e-mail address looks like (the pattern zod's `z.email()` uses by default). */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** docs/product.md section 5: the first problem with an address as typed (trimmed), or null when it is fine. */
export function emailError(raw: string): string | null {
  const email = raw.trim();
  if (!email) return AUTH_TEXT.emailRequired;
  if (email.length > LIMITS.EMAIL_MAX) return AUTH_TEXT.emailTooLong;
  return EMAIL_PATTERN.test(email) ? null : AUTH_TEXT.emailInvalid;
}

/**
 * docs/product.md section 5: the sign-in e-mail text is sanitised: script blocks, tags, 'javascript:' and inline
 * event-handler patterns removed, trimmed, cut to 254.
 */
export function sanitizeEmailInput(raw: string): string {
  return raw
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<[^>]*>/g, "")
    .replace(/javascript\s*:/gi, "")
    .replace(/\bon[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]*)/gi, "")
    .trim()
    .slice(0, LIMITS.EMAIL_MAX);
}

// ---------------------------------------------------------------------------------------------
// Password

/** docs/product.md section 5: the accepted special characters. */
export const PASSWORD_SPECIALS = `!@#$%^&*(),.?":{}|<>`;
const SPECIAL_RE = /[!@#$%^&*(),.?":{}|<>]/;

export type PasswordCheck = "length" | "upper" | "lower" | "number" | "special";
export const PASSWORD_CHECK_LABELS: Record<PasswordCheck, string> = {
  length: "At least 12 characters",
  upper: "One uppercase letter",
  lower: "One lowercase letter",
  number: "One number",
  special: "One special character",
};

export function passwordChecks(password: string): Record<PasswordCheck, boolean> {
  return {
    length: password.length >= LIMITS.PASSWORD_MIN,
    upper: /[A-Z]/.test(password),
    lower: /[a-z]/.test(password),
    number: /[0-9]/.test(password),
    special: SPECIAL_RE.test(password),
  };
}

export type PasswordStrength = "weak" | "medium" | "strong";

/** docs/product.md section 5: weak under 3 checks, medium 3-4, strong 5; the meter is checks / 5. */
export function passwordStrength(password: string): { passed: number; strength: PasswordStrength; meter: number } {
  const passed = Object.values(passwordChecks(password)).filter(Boolean).length;
  const strength: PasswordStrength = passed < 3 ? "weak" : passed < 5 ? "medium" : "strong";
  return { passed, strength, meter: passed / LIMITS.PASSWORD_CHECKS_TOTAL };
}

/**
 * The one password policy (docs/product.md section 10): 12+ characters and 4 of the 5 checks. The first policy
 * message for a password, or null when it passes.
 */
export function passwordPolicyError(password: string): string | null {
  if (!password) return AUTH_TEXT.passwordRequired;
  if (password.length > LIMITS.PASSWORD_MAX) return AUTH_TEXT.passwordTooLong;
  if (password.length < LIMITS.PASSWORD_MIN) return AUTH_TEXT.passwordTooShort;
  return passwordStrength(password).passed >= LIMITS.PASSWORD_CHECKS_REQUIRED ? null : AUTH_TEXT.passwordTooWeak;
}

/**
 * A new password and its confirmation, by field: the policy's message, or once the password passes,
 * whether the two match. None when both are fine.
 */
export function newPasswordErrors(password: string, confirmPassword: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const policy = passwordPolicyError(password);
  if (policy) fields.password = policy;
  // An over-long confirmation can never match; the mismatch itself is told once the password passes.
  if (confirmPassword.length > LIMITS.PASSWORD_MAX || (!policy && password !== confirmPassword)) fields.confirmPassword = AUTH_TEXT.passwordsDontMatch;
  return fields;
}

// ---------------------------------------------------------------------------------------------
// Where to go after signing in

export const AFTER_SIGN_IN = "/dashboard/links";

/**
 * The page the owner was sent away from, if it is one of ours: a dashboard path on this origin
 * (never "//host" or "/\host", which browsers treat as another origin).
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || next.length > 512) return AFTER_SIGN_IN;
  if (!/^\/dashboard(?:[/?#]|$)/.test(next)) return AFTER_SIGN_IN;
  // Backslashes, white space and control characters: browsers read some of them as "//".
  if (/[\\\s\u0000-\u001f\u007f]/.test(next) || next.startsWith("//")) return AFTER_SIGN_IN;
  return next;
}

/** The sign-in form as typed (docs/product.md section 3): the cleaned e-mail's problem and the password's, by field. */
export function loginErrors(email: string, password: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const emailProblem = emailError(sanitizeEmailInput(email));
  if (emailProblem) fields.email = emailProblem;
  if (!password) fields.password = AUTH_TEXT.passwordRequired;
  else if (password.length > LIMITS.PASSWORD_MAX) fields.password = AUTH_TEXT.passwordTooLong;
  return fields;
}
