/**
 * Getting paid through Stripe Connect (ADR 230): the owner's Connect account, its onboarding and the
 * Express dashboard, and Stripe's Connect webhook. The test-mode provider's onboarding page has its
 * API under /api/connect/test.
 */
import { Hono } from "hono";
import { z } from "zod";
import { CONNECT_MESSAGES } from "#core/connect.ts";
import { STRIPE_SIGNATURE_HEADER } from "../billing/stripe/webhook.ts";
import { receiveStripeConnectWebhook } from "../billing/stripe/connect-webhook.ts";
import type { TestModeProvider } from "../billing/test-mode/provider.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { billingFor } from "../services/billing.ts";
import { connectView, earningsReturnPath, expressDashboardUrl, returnFromOnboarding, startOnboarding } from "../services/connect.ts";
import { jsonBody, params } from "../validate.ts";

const LinkParamSchema = z.object({ id: z.string().min(1).max(100) });
const OnboardingOutcomeSchema = z.object({ outcome: z.enum(["complete", "later"], "Choose complete or later") });

export function connectRoutes(deps: AppDeps) {
  const testMode = (): TestModeProvider => {
    const p = billingFor(deps).testMode;
    if (!p) throw new ApiError("not_found", CONNECT_MESSAGES.linkNotFound);
    return p;
  };
  return (
    new Hono<AppEnv>()
      // GET /api/connect/account - the owner's Connect account state and the operator's fee
      .get("/account", requireUser, (c) => c.json(connectView(deps, currentUser(c).id)))
      // POST /api/connect/onboarding - "Get paid": the url of the provider's onboarding page
      .post("/onboarding", requireUser, async (c) => c.json(await startOnboarding(deps, currentUser(c).id), 201))
      // GET /api/connect/onboarding/refresh - the provider's link expired or was used: a fresh one
      .get("/onboarding/refresh", requireUser, async (c) => c.redirect((await startOnboarding(deps, currentUser(c).id)).url, 303))
      // GET /api/connect/onboarding/return - back from the provider: its state now, then the Earnings screen
      .get("/onboarding/return", requireUser, async (c) => {
        await returnFromOnboarding(deps, currentUser(c).id);
        return c.redirect(earningsReturnPath("return"), 303);
      })
      // POST /api/connect/dashboard - a one-use sign-in to the Express dashboard (payouts, tax forms)
      .post("/dashboard", requireUser, async (c) => c.json(await expressDashboardUrl(deps, currentUser(c).id), 201))
      // POST /api/connect/stripe/webhook - Stripe's signed Connect events (no session: the signature is the proof)
      .post("/stripe/webhook", async (c) => c.json({ received: true, ...(await receiveStripeConnectWebhook(deps, await c.req.text(), c.req.header(STRIPE_SIGNATURE_HEADER))) }))
      // GET /api/connect/test/links/:id - the test provider's onboarding page: its link, to the account's own owner
      .get("/test/links/:id", requireUser, params(LinkParamSchema), (c) => c.json(testMode().accountLink(c.req.valid("param").id, currentUser(c).id)))
      // GET /api/connect/test/accounts/:id - the Express dashboard stand-in: the account and its payments, to its owner
      .get("/test/accounts/:id", requireUser, params(LinkParamSchema), (c) => c.json(testMode().expressDashboard(c.req.valid("param").id, currentUser(c).id)))
      // POST /api/connect/test/sessions/:id/refund - the Express dashboard stand-in's Refund button, for the account's owner
      .post("/test/sessions/:id/refund", requireUser, params(LinkParamSchema), async (c) => {
        await testMode().refundConnectSession(c.req.valid("param").id, currentUser(c).id);
        return c.json({ refunded: true });
      })
      // POST /api/connect/test/links/:id - {outcome}: the onboarding page's buttons; the answer's redirectUrl is where to go
      .post("/test/links/:id", requireUser, params(LinkParamSchema), jsonBody(OnboardingOutcomeSchema), async (c) =>
        c.json(await testMode().completeOnboarding(c.req.valid("param").id, currentUser(c).id, c.req.valid("json").outcome)),
      )
  );
}
