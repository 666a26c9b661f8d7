/**
 * Stripe's webhook (ADR 104): the raw body is verified with the SDK (signature and a five-minute
 * tolerance measured on the app's clock; the SDK lets any future time through, so a timestamp more
 * than five minutes ahead is refused here), Stripe's event is mapped to the product's BillingEvent,
 * and it goes to the same handler as the test-mode provider's events. An event the product holds
 * no state for is acknowledged (so Stripe stops retrying it) and changes nothing.
 */
import type Stripe from "stripe";
import { BILLING_MESSAGES } from "#core/schemas/billing.ts";
import type { AppDeps } from "../../context.ts";
import { ApiError } from "../../errors.ts";
import { applyBillingEvent, billingFor } from "../../services/billing.ts";
import { runJobs } from "../../jobs/runner.ts";
import { SIGNATURE_TOLERANCE_MS } from "../signature.ts";
import { billingEvent } from "./map.ts";
import { stripeSdk } from "./provider.ts";
import { log } from "../../log.ts";

export const STRIPE_SIGNATURE_HEADER = "stripe-signature";

/** Where Stripe posts events, under PUBLIC_ORIGIN (api/routes/billing.ts). */
export const STRIPE_WEBHOOK_PATH = "/api/billing/stripe/webhook";

/**
 * The events the adapter acts on (map.ts): the endpoint must listen to every one. The README's
 * Stripe section lists the same, and npm run stripe:check checks the endpoint against them.
 */
export const STRIPE_WEBHOOK_EVENTS = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.voided",
  "invoice.marked_uncollectible",
] as const;

/** Whether a header's `t=` is more than the tolerance ahead of the app's clock (a header without one fails the SDK's check). */
function signedAhead(header: string, now: Date): boolean {
  for (const part of header.split(",")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === "t" && v && /^\d{1,12}$/.test(v) && Number(v) * 1000 - now.getTime() > SIGNATURE_TOLERANCE_MS) return true;
  }
  return false;
}

/** A Stripe event whose signature checked out with `secret` on the app's clock; a 400 otherwise. Billing's and Connect's endpoints share it. */
export function verifiedStripeEvent(deps: AppDeps, body: string, signature: string | undefined, secret: string): Stripe.Event {
  if (!signature || signature.length > 2000) throw new ApiError("bad_request", BILLING_MESSAGES.webhookSignature);
  if (signedAhead(signature, deps.now())) throw new ApiError("bad_request", BILLING_MESSAGES.webhookSignature);
  try {
    return stripeSdk().webhooks.constructEvent(body, signature, secret, SIGNATURE_TOLERANCE_MS / 1000, undefined, deps.now().getTime());
  } catch (err) {
    // A body that is not JSON fails after its signature checked out.
    if (err instanceof stripeSdk().errors.StripeSignatureVerificationError) throw new ApiError("bad_request", BILLING_MESSAGES.webhookSignature);
    throw new ApiError("bad_request", BILLING_MESSAGES.webhookPayload);
  }
}

export type WebhookAnswer = { duplicate: boolean; ignored: boolean };

/**
 * A verified event, mapped to the product's shape by `map` (null: it changes nothing here) and applied
 * once by `apply`; the jobs it queued run at once. Billing's and Connect's endpoints share it.
 */
export async function receiveStripeEvent(
  deps: AppDeps,
  request: { body: string; signature: string | undefined; secret: string },
  label: string,
  map: (event: Stripe.Event) => unknown,
  apply: (deps: AppDeps, mapped: unknown) => { duplicate: boolean },
): Promise<WebhookAnswer> {
  const event = verifiedStripeEvent(deps, request.body, request.signature, request.secret);
  let mapped;
  try {
    mapped = map(event);
  } catch {
    throw new ApiError("bad_request", BILLING_MESSAGES.webhookPayload);
  }
  if (!mapped) {
    log().info({ eventId: event.id, type: event.type, ignored: true }, label);
    return { duplicate: false, ignored: true };
  }
  const { duplicate } = apply(deps, mapped);
  log().info({ eventId: event.id, type: event.type, duplicate }, label);
  if (!duplicate) await runJobs(deps);
  return { duplicate, ignored: false };
}

export function receiveStripeWebhook(deps: AppDeps, body: string, signature: string | undefined): Promise<WebhookAnswer> {
  const billing = billingFor(deps);
  // Only the provider that is configured has a webhook.
  if (billing.provider.name !== "stripe") throw new ApiError("not_found", "Not found");
  return receiveStripeEvent(deps, { body, signature, secret: billing.webhookSecret }, "stripe webhook", billingEvent, applyBillingEvent);
}
