/**
 * Accounts: docs/product.md's texts and rules for e-mail, password, verification codes, terms, the sign-in
 * form, password change and two-factor (docs/product.md sections 5, 8 and 9; docs/product.md section 10 "one password
 * policy"). Named once here; the auth pages guide with them and the API enforces them.
 */
import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { AUTH_TEXT, EMAIL_PATTERN, passwordPolicyError, sanitizeEmailInput } from "../auth-rules.ts";
import { UsernameSchema } from "./username.ts";

export * from "../auth-rules.ts";

const MINUTE = 60_000;

/** Limits of the account flows that docs/product.md's section 9 does not name (our choices, ADR 040). */
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
  /** Secret of 20 bytes: 160 bits, 32 base32 characters (docs/product.md section 9). */
  TOTP_SECRET_BYTES: 20,
  /** Failed sign-ins from one address (any e-mail) before it is blocked for the throttle window. */
  THROTTLE_IP_MAX_FAILURES: 50,
} as const;


// ---------------------------------------------------------------------------------------------
// E-mail

/** docs/product.md section 5: required, looks like an address, at most 254 characters. Stored lowercased. */
export const EmailSchema = z
  .string(AUTH_TEXT.emailRequired)
  .trim()
  .min(1, AUTH_TEXT.emailRequired)
  .max(LIMITS.EMAIL_MAX, AUTH_TEXT.emailTooLong)
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: AUTH_TEXT.emailInvalid }))
  .transform((v) => v.toLowerCase());

// ---------------------------------------------------------------------------------------------
// Password

/** The one password policy (docs/product.md section 10), with its first message (core/auth-rules.ts). */
export const PasswordSchema = z.string(AUTH_TEXT.passwordRequired).check((ctx) => {
  const message = passwordPolicyError(ctx.value);
  if (message) ctx.issues.push({ code: "custom", message, input: ctx.value });
});

/** Any password as typed at sign-in: never trimmed, bounded so hashing time stays bounded. */
const EnteredPasswordSchema = z.string(AUTH_TEXT.passwordRequired).min(1, AUTH_TEXT.passwordRequired).max(LIMITS.PASSWORD_MAX, AUTH_TEXT.passwordTooLong);

export const NewPasswordFormSchema = z
  .object({ password: PasswordSchema, confirmPassword: z.string(AUTH_TEXT.passwordsDontMatch).max(LIMITS.PASSWORD_MAX) })
  .refine((v) => v.password === v.confirmPassword, { message: AUTH_TEXT.passwordsDontMatch, path: ["confirmPassword"] });

// ---------------------------------------------------------------------------------------------
// Codes

/** A six-digit code as typed: digits only. */
export const OtpSchema = z
  .string(AUTH_TEXT.codeInvalid)
  .trim()
  .regex(new RegExp(`^[0-9]{${LIMITS.OTP_LENGTH}}$`), AUTH_TEXT.codeInvalid);

/** Backup codes are shown as xxxxx-xxxxx (lowercase base32); typed with or without the hyphen. */
export const BACKUP_CODE_RE = /^[a-z2-7]{5}-?[a-z2-7]{5}$/;
export function normalizeBackupCode(raw: string): string {
  return raw.trim().toLowerCase().replace(/[\s-]/g, "");
}

/** At sign-in and when disabling: a TOTP code or a backup code. */
export const SecondFactorCodeSchema = z
  .string(AUTH_TEXT.codeInvalid)
  .trim()
  .min(1, AUTH_TEXT.codeInvalid)
  .max(32, AUTH_TEXT.codeInvalid)
  .refine((v) => /^[0-9]{6}$/.test(v) || BACKUP_CODE_RE.test(v.toLowerCase().replace(/\s/g, "")), AUTH_TEXT.codeInvalid);

// ---------------------------------------------------------------------------------------------
// Forms and request bodies

export const PLAN_CHOICES = ["lite", "plus"] as const;
export type PlanChoice = (typeof PLAN_CHOICES)[number];

export const TermsSchema = z.literal(true, AUTH_TEXT.termsRequired);

/** docs/product.md section 3: the login form (email max 254, password, rememberMe). The e-mail is sanitised first. */
export const LoginFormSchema = z.object({
  email: z
    .string(AUTH_TEXT.emailRequired)
    .max(4096, AUTH_TEXT.emailTooLong)
    .transform(sanitizeEmailInput)
    .pipe(EmailSchema),
  password: EnteredPasswordSchema,
  rememberMe: z.boolean().default(false),
});

/** Signup step 1: the username and the e-mail the code goes to. */
export const SignupStartSchema = z.object({ username: UsernameSchema, email: EmailSchema });
export const SignupUsernameSchema = z.object({ username: UsernameSchema });
export const SignupVerifySchema = z.object({ code: OtpSchema });

/** The last step: the password (unless the account signs in with Google), the plan and the terms. */
export const SignupCompleteSchema = z
  .object({
    password: PasswordSchema.optional(),
    confirmPassword: z.string().max(LIMITS.PASSWORD_MAX).optional(),
    plan: z.enum(PLAN_CHOICES, "Please choose a plan").default("lite"),
    agreedToTerms: TermsSchema,
    rememberMe: z.boolean().default(true),
  })
  .refine((v) => v.password === undefined || v.password === v.confirmPassword, {
    message: AUTH_TEXT.passwordsDontMatch,
    path: ["confirmPassword"],
  });

export const EmailOnlySchema = z.object({ email: EmailSchema });

/** Tokens in links are 32 base32 characters; anything else is refused before a lookup. */
export const LinkTokenSchema = z.string(AUTH_TEXT.resetLinkInvalid).trim().regex(/^[a-z2-7]{32}$/, AUTH_TEXT.resetLinkInvalid);

export const ResetPasswordSchema = z
  .object({ token: LinkTokenSchema, password: PasswordSchema, confirmPassword: z.string().max(LIMITS.PASSWORD_MAX) })
  .refine((v) => v.password === v.confirmPassword, { message: AUTH_TEXT.passwordsDontMatch, path: ["confirmPassword"] });

export const VerifyEmailSchema = z.object({ token: z.string().trim().regex(/^[a-z2-7]{32}$/, AUTH_TEXT.verifyLinkInvalid) });

/** Account settings, Security: change password (docs/product.md section 10: the signup policy applies). */
export const PasswordChangeSchema = z
  .object({
    currentPassword: z.string(AUTH_TEXT.currentPasswordRequired).min(1, AUTH_TEXT.currentPasswordRequired).max(LIMITS.PASSWORD_MAX),
    newPassword: PasswordSchema,
    confirmPassword: z.string().max(LIMITS.PASSWORD_MAX),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: AUTH_TEXT.newPasswordsDontMatch, path: ["confirmPassword"] });

/** Enabling two-factor needs exactly six digits (docs/product.md section 5, Account). */
export const TwoFactorEnableSchema = z.object({
  code: z
    .string(AUTH_TEXT.twoFactorCodeLength)
    .trim()
    .length(LIMITS.OTP_LENGTH, AUTH_TEXT.twoFactorCodeLength)
    .regex(/^[0-9]+$/, AUTH_TEXT.codeInvalid),
});
export const SecondFactorSchema = z.object({ code: SecondFactorCodeSchema });

/** The current password, asked for before a change that could lock the owner out (ADR 046); absent for a Google-only account. */
const ConfirmPasswordSchema = z.string().max(LIMITS.PASSWORD_MAX, AUTH_TEXT.passwordTooLong).optional();

/** Setting up two-factor: the password first, then the QR code. */
export const TwoFactorSetupSchema = z.object({ password: ConfirmPasswordSchema });
/** Turning two-factor off, or making new backup codes: the password and a code from the app (or a backup code). */
export const TwoFactorChangeSchema = z.object({ password: ConfirmPasswordSchema, code: SecondFactorCodeSchema });

export const DeleteAccountSchema = z.object({
  password: ConfirmPasswordSchema,
  confirmUsername: z.string().max(100).optional(),
  /** The owner saw that their subscription ends now (ADR 049); without it a live subscription stops the deletion. */
  endSubscription: z.boolean().optional(),
});

