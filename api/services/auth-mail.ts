/**
 * The account e-mails: plain text only, so nothing a user typed can ever become markup in a mail
 * client. Every one goes through the mailer (outbox by default, SMTP when configured).
 */
import type { MailMessage } from "../mail/mailer.ts";

const MINUTES = (ms: number) => Math.round(ms / 60_000);
/** "November 23, 2026 at 14:05 UTC": mail clients show it as written, so it names its time zone. */
const moment = (d: Date) =>
  `${d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" })} at ${d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" })} UTC`;
const SECURITY_TAB = "/dashboard/account-settings?tab=security";

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

export function backupCodesRenewedMail(to: string, origin: string): MailMessage {
  return {
    to,
    subject: "New two-factor backup codes were made",
    text: [
      "New backup codes were just made for your Plinth account. The old ones no longer work.",
      "",
      `If this was not you, reset your password now (${origin}/auth/forgot-password) and sign out every other session: ${origin}${SECURITY_TAB}`,
    ].join("\n"),
  };
}

/** The OpenID Connect provider an account was linked to: its name and its button's text (ADR 150, 202). */
export interface LinkedProvider {
  name: string;
  label: string;
}

/**
 * ADR 048, 202: an OpenID Connect provider was linked to an account that had only a password until
 * now, named as configured ("Google" and "Continue with Google" by default, docs/product.md's text).
 */
export function providerLinkedMail(to: string, origin: string, at: Date, supportEmail: string, provider: LinkedProvider): MailMessage {
  const { name, label } = provider;
  return {
    to,
    subject: `${name} sign-in was added to your Plinth account`,
    text: [
      `On ${moment(at)} someone signed in to your Plinth account with "${label}", using the ${name} account for ${to}.`,
      `From now on that ${name} account signs in to Plinth too. Your password still works as before.`,
      "",
      "If this was you, there is nothing to do.",
      "",
      `If it was not you, someone has access to a ${name} account with your email address. Then:`,
      `1. Reset your Plinth password, which signs out every session: ${origin}/auth/forgot-password`,
      `2. Sign in and turn on two-factor authentication, so ${name} alone no longer lets anyone in: ${origin}${SECURITY_TAB}`,
      `3. Secure your ${name} account, and write to ${supportEmail} if you want ${name} sign-in removed from your Plinth account.`,
    ].join("\n"),
  };
}

export function accountDeletedMail(to: string, username: string, opts: { subscriptionEnded: boolean }): MailMessage {
  return {
    to,
    subject: "Your Plinth account was deleted",
    text: [
      `Your Plinth account @${username}, its page and all its data have been deleted.`,
      ...(opts.subscriptionEnded ? ["Your Plinth Plus subscription has ended and will not be charged again. We keep its invoices, as the law asks of receipts."] : []),
      "Thank you for using Plinth.",
    ].join("\n"),
  };
}
