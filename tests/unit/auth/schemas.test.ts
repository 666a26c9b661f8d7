import { describe, expect, it } from "vitest";
import {
  AUTH_TEXT,
  EmailSchema,
  LoginFormSchema,
  NewPasswordFormSchema,
  OtpSchema,
  PasswordChangeSchema,
  passwordChecks,
  passwordPolicyError,
  passwordStrength,
  safeNextPath,
  sanitizeEmailInput,
  SecondFactorCodeSchema,
  TermsSchema,
} from "#core/schemas/auth.ts";

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0]!.message);

describe("e-mail (docs/product.md section 5)", () => {
  it("is required, must look like an address, and is at most 254 characters", () => {
    expect(firstMessage(EmailSchema.safeParse(""))).toBe(AUTH_TEXT.emailRequired);
    expect(firstMessage(EmailSchema.safeParse("   "))).toBe(AUTH_TEXT.emailRequired);
    expect(firstMessage(EmailSchema.safeParse(undefined))).toBe(AUTH_TEXT.emailRequired);
    expect(firstMessage(EmailSchema.safeParse("name@"))).toBe(AUTH_TEXT.emailInvalid);
    expect(firstMessage(EmailSchema.safeParse(`${"a".repeat(243)}@example.com`))).toBe(AUTH_TEXT.emailTooLong);
    expect(EmailSchema.parse(`${"a".repeat(242)}@example.com`)).toHaveLength(254);
    expect(EmailSchema.parse("  Mixed.Case@Example.COM ")).toBe("mixed.case@example.com");
  });

  it("sign-in sanitises script blocks, tags, javascript: and inline handlers, trims and cuts to 254", () => {
    expect(sanitizeEmailInput("<script>alert('x')</script>me@example.com")).toBe("me@example.com");
    expect(sanitizeEmailInput("<SCRIPT type=x>a</SCRIPT >me@example.com")).toBe("me@example.com");
    expect(sanitizeEmailInput("<b>me@example.com</b>")).toBe("me@example.com");
    expect(sanitizeEmailInput("JavaScript :me@example.com")).toBe("me@example.com");
    expect(sanitizeEmailInput('onerror="alert(1)" me@example.com')).toBe("me@example.com");
    expect(sanitizeEmailInput("  me@example.com  ")).toBe("me@example.com");
    expect(sanitizeEmailInput("x".repeat(400))).toHaveLength(254);
    expect(LoginFormSchema.parse({ email: "<i>Me@Example.com</i>", password: "p" })).toEqual({ email: "me@example.com", password: "p", rememberMe: false });
  });
});

describe("password (one policy, docs/product.md section 10)", () => {
  it("counts the five checks with docs/product.md's special characters", () => {
    expect(passwordChecks("Abcdefghijk1!")).toEqual({ length: true, upper: true, lower: true, number: true, special: true });
    for (const ch of `!@#$%^&*(),.?":{}|<>`) expect(passwordChecks(`a${ch}`).special, ch).toBe(true);
    for (const ch of ["-", "_", "+", "=", "~", " "]) expect(passwordChecks(`a${ch}`).special, ch).toBe(false);
  });

  it("rates weak under 3 checks, medium 3-4, strong 5; the meter is checks / 5", () => {
    expect(passwordStrength("")).toEqual({ passed: 0, strength: "weak", meter: 0 });
    expect(passwordStrength("abc1")).toMatchObject({ passed: 2, strength: "weak" });
    expect(passwordStrength("Abc1")).toMatchObject({ passed: 3, strength: "medium", meter: 0.6 });
    expect(passwordStrength("Abcdefghijk1")).toMatchObject({ passed: 4, strength: "medium" });
    expect(passwordStrength("Abcdefghijk1!")).toEqual({ passed: 5, strength: "strong", meter: 1 });
  });

  it("needs 12 characters and 4 of the 5 checks, with docs/product.md's messages", () => {
    expect(passwordPolicyError("")).toBe(AUTH_TEXT.passwordRequired);
    expect(passwordPolicyError("Ab1!")).toBe(AUTH_TEXT.passwordTooShort);
    expect(passwordPolicyError("abcdefghijkl")).toBe(AUTH_TEXT.passwordTooWeak);
    expect(passwordPolicyError("abcdefghijk1")).toBe(AUTH_TEXT.passwordTooWeak);
    expect(passwordPolicyError("abcdefghij1!")).toBeNull();
    expect(passwordPolicyError("Abcdefghijk1")).toBeNull();
    expect(passwordPolicyError("A1!a".repeat(65))).toBe(AUTH_TEXT.passwordTooLong);
  });

  it("confirmation must match ('Passwords do not match'; in settings 'New passwords don't match')", () => {
    expect(firstMessage(NewPasswordFormSchema.safeParse({ password: "Abcdefghijk1!", confirmPassword: "Abcdefghijk1" }))).toBe("Passwords do not match");
    expect(
      firstMessage(PasswordChangeSchema.safeParse({ currentPassword: "x", newPassword: "Abcdefghijk1!", confirmPassword: "other" })),
    ).toBe("New passwords don't match");
  });
});

describe("codes and terms", () => {
  it("a code is six digits", () => {
    expect(OtpSchema.safeParse("012345").success).toBe(true);
    for (const bad of ["12345", "1234567", "12a456", "", "１２３４５６"]) expect(firstMessage(OtpSchema.safeParse(bad)), bad).toBe(AUTH_TEXT.codeInvalid);
  });

  it("the second factor is a six-digit code or a backup code", () => {
    expect(SecondFactorCodeSchema.safeParse("123456").success).toBe(true);
    expect(SecondFactorCodeSchema.safeParse("abcde-fgh23").success).toBe(true);
    expect(SecondFactorCodeSchema.safeParse("ABCDEFGH23").success).toBe(true);
    expect(SecondFactorCodeSchema.safeParse("abcde-fgh1").success).toBe(false);
    expect(SecondFactorCodeSchema.safeParse("<script>").success).toBe(false);
  });

  it("terms must be agreed to", () => {
    expect(firstMessage(TermsSchema.safeParse(false))).toBe(AUTH_TEXT.termsRequired);
    expect(firstMessage(TermsSchema.safeParse(undefined))).toBe(AUTH_TEXT.termsRequired);
    expect(TermsSchema.safeParse(true).success).toBe(true);
  });
});

describe("where to go after sign-in", () => {
  it("goes back to the dashboard page the owner came from, never elsewhere", () => {
    expect(safeNextPath(null)).toBe("/dashboard/links");
    expect(safeNextPath("/dashboard/bio")).toBe("/dashboard/bio");
    expect(safeNextPath("/dashboard/account-settings?tab=security")).toBe("/dashboard/account-settings?tab=security");
    for (const bad of ["https://evil.example", "//evil.example", "/dashboard\\..\\x", "/\\evil", "javascript:alert(1)", "/auth/login", "/dashboardx", `/dashboard/${"a".repeat(600)}`, "/dashboard/\u0000x", "/dashboard\u007f", "/dashboard/\u001b[x"]) {
      expect(safeNextPath(bad), bad).toBe("/dashboard/links");
    }
  });
});
