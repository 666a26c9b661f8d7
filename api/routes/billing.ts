/**
 * Billing (spec sections 2, 4 and 7; ADR 080-082): the owner's subscription, checkout, cancelling,
 * the customer portal, invoices, and the provider's webhook. The test-mode provider's hosted pages
 * have their API under /api/billing/test.
 */
import { Hono } from "hono";
import { z } from "zod";
import { CancelSubscriptionSchema } from "#core/schemas/affiliate.ts";
import { BILLING_MESSAGES, BillingIntervalBodySchema, CheckoutBodySchema, SUBSCRIPTION_TAB_PATH } from "#core/schemas/billing.ts";
import { SIGNATURE_HEADER } from "../billing/provider.ts";
import { STRIPE_SIGNATURE_HEADER, receiveStripeWebhook } from "../billing/stripe/webhook.ts";
import { testModeRoutes } from "../billing/test-mode/routes.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { billingFor, cancelSubscription, getInvoice, listInvoices, portalUrl, receiveWebhook, resumeSubscription, startCheckout, subscriptionView, switchInterval } from "../services/billing.ts";
import { invoicePdf, invoicePdfFileName } from "../services/invoice-pdf.ts";
import { schemaJson } from "../services/json-input.ts";
import { jsonBody, params } from "../validate.ts";

const InvoiceParamSchema = z.object({ id: z.string().min(1).max(100) });

export function billingRoutes(deps: AppDeps) {
  return (
    new Hono<AppEnv>()
      // GET /api/billing/subscription - status badge, next billing date, card, price
      .get("/subscription", requireUser, (c) => c.json(subscriptionView(deps, currentUser(c).id)))
      // POST /api/billing/checkout - a hosted checkout for Plinth Plus, monthly or yearly; the answer's url is where to go
      .post("/checkout", requireUser, jsonBody(CheckoutBodySchema), async (c) => {
        const { returnPath, interval } = c.req.valid("json");
        const { url } = await startCheckout(
          deps,
          currentUser(c).id,
          { successPath: `${SUBSCRIPTION_TAB_PATH}&checkout=success`, cancelPath: returnPath ?? SUBSCRIPTION_TAB_PATH },
          interval,
        );
        return c.json({ url }, 201);
      })
      // POST /api/billing/cancel - cancel-subscription {reason}: at the period end (or now when past due)
      .post("/cancel", requireUser, schemaJson(CancelSubscriptionSchema), async (c) => {
        const { reason } = c.req.valid("json");
        return c.json({ subscription: await cancelSubscription(deps, currentUser(c).id, reason), message: BILLING_MESSAGES.cancelled });
      })
      // POST /api/billing/resume - take a cancellation back before the period ends
      .post("/resume", requireUser, async (c) => c.json({ subscription: await resumeSubscription(deps, currentUser(c).id), message: BILLING_MESSAGES.resumed }))
      // POST /api/billing/interval - {interval}: bill monthly or yearly from the next renewal
      .post("/interval", requireUser, jsonBody(BillingIntervalBodySchema), async (c) => {
        const { interval } = c.req.valid("json");
        return c.json({ subscription: await switchInterval(deps, currentUser(c).id, interval), message: BILLING_MESSAGES.intervalSwitched });
      })
      // POST /api/billing/portal - customer-portal: a url to open in a new tab
      .post("/portal", requireUser, async (c) => c.json({ url: await portalUrl(deps, currentUser(c).id) }, 201))
      // GET /api/billing/invoices - billing history (a Plus feature)
      .get("/invoices", requireUser, (c) => c.json({ invoices: listInvoices(deps, currentUser(c).id) }))
      // GET /api/billing/invoices/:id - one of the owner's invoices, for its printable page
      .get("/invoices/:id", requireUser, params(InvoiceParamSchema), (c) => c.json(getInvoice(deps, currentUser(c).id, c.req.valid("param").id)))
      // GET /api/billing/invoices/:id/pdf - one of the owner's invoices as a PDF download
      .get("/invoices/:id/pdf", requireUser, params(InvoiceParamSchema), async (c) => {
        const data = getInvoice(deps, currentUser(c).id, c.req.valid("param").id);
        const pdf = await invoicePdf(data);
        return c.body(new Uint8Array(pdf), 200, {
          "Content-Type": "application/pdf",
          "Content-Disposition": `attachment; filename="${invoicePdfFileName(data)}"`,
        });
      })
      // POST /api/billing/webhook - the test-mode provider's signed events (no session: the signature is the proof);
      // with another provider there is no such route (Stripe's is below), so it answers as an unknown path
      .post("/webhook", async (c) => {
        if (billingFor(deps).provider.name !== "test") throw new ApiError("not_found", "Not found");
        const signature = c.req.header(SIGNATURE_HEADER);
        if (!signature) throw new ApiError("bad_request", BILLING_MESSAGES.webhookSignature);
        const { duplicate } = await receiveWebhook(deps, await c.req.text(), signature);
        return c.json({ received: true, duplicate });
      })
      // POST /api/billing/stripe/webhook - Stripe's signed events (ADR 104)
      .post("/stripe/webhook", async (c) => c.json({ received: true, ...(await receiveStripeWebhook(deps, await c.req.text(), c.req.header(STRIPE_SIGNATURE_HEADER))) }))
      .route("/test", testModeRoutes(deps))
  );
}
