/**
 * Accounts: the spec's texts and rules for e-mail, password, verification codes, terms, the sign-in
 * form, password change and two-factor (spec sections 5, 8 and 9; decisions.md "one password
 * policy"). Named once here; the auth pages guide with them and the API enforces them.
 */
import { z } from "zod";
import { AUTH_TEXT } from "../auth.ts";
import { LIMITS } from "../limits.ts";
import { UsernameSchema } from "./username.ts";

export { AUTH_LIMITS, AUTH_TEXT } from "../auth.ts";

// ---------------------------------------------------------------------------------------------
// E-mail

/** Spec section 5: required, looks like an address, at most 254 characters. Stored lowercased. */
export const EmailSchema = z
  .string(AUTH_TEXT.emailRequired)
  .trim()
  .min(1, AUTH_TEXT.emailRequired)
  .max(LIMITS.EMAIL_MAX, AUTH_TEXT.emailTooLong)
  .pipe(z.email(AUTH_TEXT.emailInvalid))
  .transform((v) => v.toLowerCase());

/**
 * Spec section 5: the sign-in e-mail text is sanitised: script blocks, tags, 'javascript:' and inline
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

/** Spec section 5: the accepted special characters. */
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

/** Spec section 5: weak under 3 checks, medium 3-4, strong 5; the meter is checks / 5. */
export function passwordStrength(password: string): { passed: number; strength: PasswordStrength; meter: number } {
  const passed = Object.values(passwordChecks(password)).filter(Boolean).length;
  const strength: PasswordStrength = passed < 3 ? "weak" : passed < 5 ? "medium" : "strong";
  return { passed, strength, meter: passed / LIMITS.PASSWORD_CHECKS_TOTAL };
}

/** The one password policy (decisions.md): 12+ characters and 4 of the 5 checks. */
export const PasswordSchema = z
  .string(AUTH_TEXT.passwordRequired)
  .min(1, AUTH_TEXT.passwordRequired)
  .max(LIMITS.PASSWORD_MAX, AUTH_TEXT.passwordTooLong)
  .refine((p) => p.length >= LIMITS.PASSWORD_MIN, AUTH_TEXT.passwordTooShort)
  .refine(
    (p) => p.length < LIMITS.PASSWORD_MIN || passwordStrength(p).passed >= LIMITS.PASSWORD_CHECKS_REQUIRED,
    AUTH_TEXT.passwordTooWeak,
  );

/** The first policy message for a password, or null when it passes (for live feedback). */
export function passwordPolicyError(password: string): string | null {
  const r = PasswordSchema.safeParse(password);
  return r.success ? null : (r.error.issues[0]?.message ?? AUTH_TEXT.passwordTooWeak);
}

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

/** Spec section 3: the login form (email max 254, password, rememberMe). The e-mail is sanitised first. */
export const LoginFormSchema = z.object({
  email: z
    .string(AUTH_TEXT.emailRequired)
    .max(4096, AUTH_TEXT.emailTooLong)
    .transform(sanitizeEmailInput)
    .pipe(EmailSchema),
  password: EnteredPasswordSchema,
  rememberMe: z.boolean().default(false),
});
export type LoginForm = z.input<typeof LoginFormSchema>;

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

/** Account settings, Security: change password (decisions.md: the signup policy applies). */
export const PasswordChangeSchema = z
  .object({
    currentPassword: z.string(AUTH_TEXT.currentPasswordRequired).min(1, AUTH_TEXT.currentPasswordRequired).max(LIMITS.PASSWORD_MAX),
    newPassword: PasswordSchema,
    confirmPassword: z.string().max(LIMITS.PASSWORD_MAX),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: AUTH_TEXT.newPasswordsDontMatch, path: ["confirmPassword"] });

/** Enabling two-factor needs exactly six digits (spec section 5, Account). */
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
