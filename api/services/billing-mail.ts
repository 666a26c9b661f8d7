/**
 * The billing and affiliate e-mails: receipts, a failed payment, cancelling, the end of a
 * subscription, commissions and payout requests. Plain text only, like every account e-mail.
 */
import { formatMoney, PLUS_PRICE_LABEL, SUBSCRIPTION_TAB_PATH } from "#core/schemas/billing.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { quoted } from "../mail/quote.ts";

const day = (d: Date) => d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
const subscriptionPage = (origin: string) => `${origin}${SUBSCRIPTION_TAB_PATH}`;

export function receiptMail(to: string, origin: string, inv: { number: string; amountCents: number; description: string; paymentMethod: string; periodEnd: Date | null; url: string }): MailMessage {
  return {
    to,
    subject: `Your Plinth receipt ${inv.number}`,
    text: [
      `Thank you! We received your payment of ${formatMoney(inv.amountCents)}.`,
      "",
      `Invoice: ${inv.number}`,
      `For: ${inv.description}`,
      `Paid with: ${inv.paymentMethod}`,
      ...(inv.periodEnd ? [`Plinth Plus is paid through ${day(inv.periodEnd)}.`] : []),
      "",
      `View or print your invoice: ${inv.url}`,
      `Manage your subscription: ${subscriptionPage(origin)}`,
    ].join("\n"),
  };
}

export function paymentFailedMail(to: string, origin: string, amountCents: number): MailMessage {
  return {
    to,
    subject: "Your Plinth Plus payment failed",
    text: [
      `We couldn't charge ${formatMoney(amountCents)} for your Plinth Plus subscription.`,
      "",
      "You keep Plinth Plus while we try again over the next few days. To make sure nothing is interrupted, update your payment method:",
      subscriptionPage(origin),
    ].join("\n"),
  };
}

export function cancelledMail(to: string, origin: string, accessUntil: Date): MailMessage {
  return {
    to,
    subject: "Your Plinth Plus subscription is cancelled",
    text: [
      "Your Plinth Plus subscription has been cancelled, and you won't be charged again.",
      "",
      `You keep every Plus feature until ${day(accessUntil)}. After that your page uses Plinth Lite.`,
      `Changed your mind? Resume your subscription any time before then: ${subscriptionPage(origin)}`,
    ].join("\n"),
  };
}

export function subscriptionEndedMail(to: string, origin: string, username: string, why: "cancelled" | "unpaid"): MailMessage {
  return {
    to,
    subject: "Your Plinth Plus subscription has ended",
    text: [
      why === "unpaid"
        ? "We couldn't collect the payment for your Plinth Plus subscription, so it has ended."
        : "Your Plinth Plus subscription has ended, as you asked.",
      "",
      `Your page ${origin}/${username} now shows Plinth Lite features. Your Plus content is kept: subscribe again (${PLUS_PRICE_LABEL}) to bring it back.`,
      subscriptionPage(origin),
    ].join("\n"),
  };
}

export function commissionMail(to: string, origin: string, commissionCents: number, balanceCents: number): MailMessage {
  return {
    to,
    subject: `You earned ${formatMoney(commissionCents)} with Promote & Earn`,
    text: [
      `Someone you referred to Plinth just paid for Plinth Plus, and ${formatMoney(commissionCents)} was added to your rewards balance.`,
      "",
      `Your balance is now ${formatMoney(balanceCents)}. Use it for your own subscription or request a cash payout:`,
      `${origin}/dashboard/affiliate`,
    ].join("\n"),
  };
}

export interface PayoutMailFacts {
  id: string;
  username: string;
  accountEmail: string;
  payoutEmail: string;
  requestedCents: number;
  feeCents: number;
  netCents: number;
  createdAt: Date;
}

/** To the people who send payouts (PAYOUT_REQUESTS_TO): everything needed to pay via PayPal. */
export function payoutRequestMail(to: string, p: PayoutMailFacts): MailMessage {
  return {
    to,
    subject: `Payout request ${p.id}: ${formatMoney(p.netCents)} via PayPal`,
    text: [
      "A cash payout was requested from the Plinth affiliate programme.",
      "",
      `Request: ${p.id}`,
      `Owner: @${p.username} (${p.accountEmail})`,
      `PayPal email: ${p.payoutEmail}`,
      `Requested: ${formatMoney(p.requestedCents)}`,
      `Processing fee (3%): ${formatMoney(p.feeCents)}`,
      `Send: ${formatMoney(p.netCents)}`,
      `Requested at: ${p.createdAt.toISOString()}`,
      "",
      "The amount has already been deducted from the owner's rewards balance. Pay within 3-5 business days.",
    ].join("\n"),
  };
}

export function payoutConfirmationMail(to: string, p: PayoutMailFacts): MailMessage {
  return {
    to,
    subject: "We received your payout request",
    text: [
      `You asked for a payout of ${formatMoney(p.requestedCents)} from your Plinth rewards balance.`,
      "",
      `Processing fee (3%): ${formatMoney(p.feeCents)}`,
      `You will receive: ${formatMoney(p.netCents)}`,
      `To PayPal account: ${p.payoutEmail}`,
      "",
      "Payouts are sent via PayPal within 3-5 business days.",
    ].join("\n"),
  };
}

/** To the owner once an admin has sent the money (ADR 106). */
export function payoutPaidMail(to: string, p: { requestedCents: number; netCents: number; payoutEmail: string; reference: string }): MailMessage {
  return {
    to,
    subject: "Your payout has been sent",
    text: [
      `Your payout of ${formatMoney(p.requestedCents)} from your Plinth rewards balance has been sent.`,
      "",
      `Amount sent: ${formatMoney(p.netCents)}`,
      `To PayPal account: ${p.payoutEmail}`,
      `Payment reference: ${p.reference}`,
    ].join("\n"),
  };
}

/** To the owner when an admin rejects a payout: the amount is back in their balance (ADR 106). */
export function payoutRejectedMail(to: string, p: { requestedCents: number; reason: string; balanceCents: number }): MailMessage {
  return {
    to,
    subject: "Your payout request was not approved",
    text: [
      `Your payout request of ${formatMoney(p.requestedCents)} was not approved, and the amount is back in your rewards balance.`,
      "",
      "The reason given:",
      quoted(p.reason),
      "",
      `Your rewards balance is now ${formatMoney(p.balanceCents)}.`,
    ].join("\n"),
  };
}

export function trialEndedMail(to: string, origin: string, username: string): MailMessage {
  return {
    to,
    subject: "Your Plinth Plus trial has ended",
    text: `Your trial has ended, so your page ${origin}/${username} now shows Plinth Lite features. Upgrade to Plinth Plus to bring the Plus features back.`,
  };
}
