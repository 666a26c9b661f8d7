/**
 * The account e-mails: plain text only, so nothing a user typed can ever become markup in a mail
 * client. Every one goes through the mailer (outbox by default, SMTP when configured).
 */
import type { MailMessage } from "../mail/mailer.ts";

const MINUTES = (ms: number) => Math.round(ms / 60_000);

export function signupCodeMail(to: string, code: string, ttlMs: number): MailMessage {
  return {
    to,
    subject: `Your Plinth verification code: ${code}`,
    text: [
      `Your Plinth verification code is ${code}`,
      "",
      `Enter it on the signup page to confirm your email address. It expires in ${MINUTES(ttlMs)} minutes.`,
      "",
      "If you did not try to create a Plinth account, you can ignore this email.",
    ].join("\n"),
  };
}

/** Sent instead of a code when the address already has an account, so signup reveals nothing. */
export function alreadyRegisteredMail(to: string, origin: string): MailMessage {
  return {
    to,
    subject: "You already have a Plinth account",
    text: [
      "Someone (hopefully you) tried to create a Plinth account with this email address, but it already has one.",
      "",
      `Sign in: ${origin}/auth/login`,
      `Forgot your password? Reset it: ${origin}/auth/forgot-password`,
      "",
      "If this was not you, you can ignore this email.",
    ].join("\n"),
  };
}

export function passwordResetMail(to: string, link: string, ttlMs: number): MailMessage {
  return {
    to,
    subject: "Reset your Plinth password",
    text: [
      "We received a request to reset the password of your Plinth account.",
      "",
      `Choose a new password: ${link}`,
      "",
      `The link works once and expires in ${MINUTES(ttlMs)} minutes. Setting a new password signs you out everywhere.`,
      "If you did not ask for this, you can ignore this email; your password stays the same.",
    ].join("\n"),
  };
}

export function verifyEmailMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: "Verify your Plinth email address",
    text: ["Confirm your email address to sign in to Plinth:", "", link, "", "If you did not ask for this, you can ignore this email."].join("\n"),
  };
}

export function passwordChangedMail(to: string, origin: string): MailMessage {
  return {
    to,
    subject: "Your Plinth password was changed",
    text: [
      "The password of your Plinth account was just changed, and every other session was signed out.",
      "",
      `If this was not you, reset your password now: ${origin}/auth/forgot-password`,
    ].join("\n"),
  };
}

export function twoFactorChangedMail(to: string, enabled: boolean): MailMessage {
  return {
    to,
    subject: enabled ? "Two-factor authentication is on" : "Two-factor authentication was turned off",
    text: enabled
      ? "Two-factor authentication is now on for your Plinth account. Keep your backup codes somewhere safe."
      : "Two-factor authentication was turned off for your Plinth account. If this was not you, reset your password and turn it back on.",
  };
}

export function accountDeletedMail(to: string, username: string): MailMessage {
  return {
    to,
    subject: "Your Plinth account was deleted",
    text: `Your Plinth account @${username}, its page and all its data have been deleted. Thank you for using Plinth.`,
  };
}
