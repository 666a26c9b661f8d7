/**
 * The zod-free account rules the sign-in and signup pages check fields with (ADR 122): the same
 * first message as the API's schemas for every input, so a field's live error and the server's agree.
 */
import { describe, expect, it } from "vitest";
import { AUTH_TEXT, EmailSchema, emailError, LoginFormSchema, loginErrors, NewPasswordFormSchema, newPasswordErrors, PasswordSchema, passwordPolicyError } from "#core/schemas/auth.ts";
import { fieldsOf } from "../../../editor/components/field-errors.ts";

const EMAILS = ["", "   ", "me@example.com", " Me@Example.COM ", "not-an-email", "a@b", "a@b.c", "a..b@example.com", ".a@example.com", "a b@example.com", `${"a".repeat(250)}@example.com`, "<script>@x.com", "o'neil+tag@mail.example.org"];
const PASSWORDS = ["", "Ab1!", "abcdefghijkl", "Abcdefghijk1", "Abcdefghijk!", "Sturdy-Password-42!", "x".repeat(257), `Aa1!${"x".repeat(253)}`];

describe("emailError", () => {
  it("names docs/product.md's messages", () => {
    expect(emailError("")).toBe(AUTH_TEXT.emailRequired);
    expect(emailError("not-an-email")).toBe(AUTH_TEXT.emailInvalid);
    expect(emailError(`${"a".repeat(250)}@example.com`)).toBe(AUTH_TEXT.emailTooLong);
    expect(emailError("  me@example.com ")).toBeNull();
  });
  it("agrees with the API's EmailSchema on every sample", () => {
    for (const e of EMAILS) {
      const r = EmailSchema.safeParse(e);
      expect(emailError(e), JSON.stringify(e)).toBe(r.success ? null : r.error.issues[0]!.message);
    }
  });
});

describe("password rules", () => {
  it("passwordPolicyError is the first message of PasswordSchema", () => {
    for (const p of PASSWORDS) {
      const r = PasswordSchema.safeParse(p);
      expect(passwordPolicyError(p), p.slice(0, 20)).toBe(r.success ? null : r.error.issues[0]!.message);
    }
  });
  it("newPasswordErrors gives NewPasswordFormSchema's messages by field", () => {
    for (const p of PASSWORDS)
      for (const c of [p, `${p}-typo`, ""]) {
        const r = NewPasswordFormSchema.safeParse({ password: p, confirmPassword: c });
        expect(newPasswordErrors(p, c)).toEqual(r.success ? {} : fieldsOf(r.error.issues));
      }
    expect(newPasswordErrors("Sturdy-Password-42!", "other")).toEqual({ confirmPassword: AUTH_TEXT.passwordsDontMatch });
  });
});

describe("loginErrors", () => {
  it("gives LoginFormSchema's messages by field, the e-mail cleaned first", () => {
    for (const e of [...EMAILS, "<script>alert(1)</script>me@example.com", "<b></b>"])
      for (const p of ["", "x", "x".repeat(257)]) {
        const r = LoginFormSchema.safeParse({ email: e, password: p });
        expect(loginErrors(e, p), `${e} / ${p.length}`).toEqual(r.success ? {} : fieldsOf(r.error.issues));
      }
  });
});
