/**
 * Accounts: the limits and texts of the account flows (spec sections 5, 8 and 9), without zod, so
 * the dashboard's shell can name them without loading the validation library; the schemas that use
 * them are in schemas/auth.ts, which re-exports them.
 */
import { LIMITS } from "./limits.ts";

const MINUTE = 60_000;

/** Limits of the account flows that section 9 does not name (our choices, ADR 040). */
export const AUTH_LIMITS = {
  /** How long a signup in progress lasts after its last step (and holds its username once its e-mail is verified). */
  SIGNUP_HOLD_MS: 30 * MINUTE,
  /** Before its e-mail is verified, a signup holds its username against other people only this long (ADR 107). */
  SIGNUP_UNVERIFIED_HOLD_MS: 10 * MINUTE,
  /** A password-reset link is valid for one hour. */
  RESET_TTL_MS: 60 * MINUTE,
  /** An e-mail verification link (accounts created unverified) is valid for one day. */
  VERIFY_LINK_TTL_MS: 24 * 60 * MINUTE,
  /** The second sign-in step must follow the password within this time. */
  TWO_FACTOR_CHALLENGE_TTL_MS: 10 * MINUTE,
  /** How long Google has to send the user back. */
  OIDC_FLOW_TTL_MS: 10 * MINUTE,
  /** A Google-only account (no password to ask for) changes two-factor only this soon after signing in (ADR 046). */
  FRESH_SIGN_IN_MS: 10 * MINUTE,
  /** Two-factor setup, begun after the password, must be confirmed with a code within this time. */
  TWO_FACTOR_SETUP_TTL_MS: 30 * MINUTE,
  BACKUP_CODES: 8,
  TOTP_PERIOD_S: 30,
  TOTP_DIGITS: 6,
  /** Secret of 20 bytes: 160 bits, 32 base32 characters (spec section 9). */
  TOTP_SECRET_BYTES: 20,
  /** Failed sign-ins from one address (any e-mail) before it is blocked for the throttle window. */
  THROTTLE_IP_MAX_FAILURES: 50,
} as const;

export const AUTH_TEXT = {
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email address",
  emailTooLong: "Email address is too long",

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
  emailTaken: "An account with this email already exists. Please sign in instead.",
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
