/**
 * Stripe's Connect webhook (ADR 230): a second endpoint beside billing's, which Stripe signs with its
 * own secret (STRIPE_CONNECT_WEBHOOK_SECRET) and which receives the events of connected accounts,
 * each with the `account` it happened on. The signature is checked exactly as billing's (the SDK,
 * five minutes on the app's clock, no future timestamps), the event is mapped to the product's
 * Connect event and applied once.
 */
import type Stripe from "stripe";
import type { AppDeps } from "../../context.ts";
import { ApiError } from "../../errors.ts";
import { billingFor } from "../../services/billing.ts";
import { applyConnectEvent } from "../../services/connect.ts";
import { connectAccountObject, idOf } from "./map.ts";
import { receiveStripeEvent, type WebhookAnswer } from "./webhook.ts";

/** Where Stripe posts Connect events, under PUBLIC_ORIGIN (api/routes/connect.ts). */
export const STRIPE_CONNECT_WEBHOOK_PATH = "/api/connect/stripe/webhook";

/** The Connect events the adapter acts on; the README lists the same and npm run stripe:check checks them. */
export const STRIPE_CONNECT_WEBHOOK_EVENTS = ["account.updated", "checkout.session.completed", "charge.refunded"] as const;

/** A Stripe Connect event in the product's shape, or null when it changes nothing here. */
export function connectEvent(event: Stripe.Event): unknown {
  if (!event.account) return null;
  const base = { id: event.id, created: event.created * 1000 + 999, account: event.account };
  switch (event.type) {
    case "account.updated":
      return { ...base, type: event.type, data: { object: connectAccountObject(event.data.object) } };
    case "checkout.session.completed": {
      const s = event.data.object;
      // Only the one-off payments the product made (a subscription checkout is billing's).
      if (s.mode !== "payment") return null;
      return {
        ...base,
        type: event.type,
        data: {
          object: {
            object: "checkout.session",
            id: s.id,
            payment_status: s.payment_status,
            amount_total: s.amount_total ?? 0,
            currency: s.currency ?? "",
            customer_email: s.customer_details?.email ?? s.customer_email ?? null,
            payment_intent: idOf(s.payment_intent),
            metadata: { saleId: s.metadata?.saleId },
          },
        },
      };
    }
    case "charge.refunded": {
      const ch = event.data.object;
      return { ...base, type: event.type, data: { object: { object: "charge", id: ch.id, payment_intent: idOf(ch.payment_intent), refunded: ch.refunded, amount_refunded: ch.amount_refunded } } };
    }
    default:
      return null;
  }
}

export function receiveStripeConnectWebhook(deps: AppDeps, body: string, signature: string | undefined): Promise<WebhookAnswer> {
  const billing = billingFor(deps);
  const secret = deps.env.STRIPE_CONNECT_WEBHOOK_SECRET;
  // Only with Stripe and Connect switched on is there such an endpoint.
  if (billing.provider.name !== "stripe" || deps.env.STRIPE_CONNECT !== "1" || !secret) throw new ApiError("not_found", "Not found");
  return receiveStripeEvent(deps, { body, signature, secret }, "stripe connect webhook", connectEvent, applyConnectEvent);
}
