/**
 * The API of the test-mode provider's hosted pages (/billing/checkout and /billing/portal):
 *   GET  /api/billing/test/sessions/:id                 the session as its page shows it
 *   POST /api/billing/test/sessions/:id/pay             {number, expiry, cvc, name} -> {redirectUrl}
 *   POST /api/billing/test/sessions/:id/payment-method  {number, expiry, cvc, name} -> {card, settledCents}
 * A session is a capability of its owner: another owner's id is answered as unknown. Without the
 * test-mode provider these routes do not exist (404).
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { CARD_MESSAGES, cardFormSchema, type CardForm } from "#core/schemas/billing.ts";
import { currentUser, requireUser } from "../../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../../context.ts";
import { ApiError, validationError } from "../../errors.ts";
import { typedJson } from "../../services/json-input.ts";
import { billingFor } from "../../services/billing.ts";
import { params } from "../../validate.ts";
import type { TestModeProvider } from "./provider.ts";

const SessionParamSchema = z.object({ id: z.string().min(1).max(100) });

export function testModeRoutes(deps: AppDeps) {
  const provider = (): TestModeProvider => {
    const p = billingFor(deps).testMode;
    if (!p) throw new ApiError("not_found", CARD_MESSAGES.sessionNotFound);
    return p;
  };
  const onlyInTestMode: MiddlewareHandler<AppEnv> = async (_c, next) => {
    provider();
    await next();
  };
  // The card is checked with the time of the request (an expiry in the past is refused).
  const cardBody = typedJson<CardForm, { number: string; name: string }>((value) => {
    const parsed = cardFormSchema(deps.now()).safeParse(value);
    if (!parsed.success) throw validationError(parsed.error);
    return { number: parsed.data.number, name: parsed.data.name };
  });

  return (
    new Hono<AppEnv>()
      .use(onlyInTestMode)
      .use(requireUser)
      // GET /api/billing/test/sessions/:id - a checkout or portal session of the signed-in owner
      .get("/sessions/:id", params(SessionParamSchema), (c) => c.json(provider().session(c.req.valid("param").id, currentUser(c).id)))
      // POST /api/billing/test/sessions/:id/pay - the checkout page's Pay button
      .post("/sessions/:id/pay", params(SessionParamSchema), cardBody, async (c) => {
        const result = await provider().pay(c.req.valid("param").id, currentUser(c).id, c.req.valid("json"));
        return c.json(result);
      })
      // POST /api/billing/test/sessions/:id/payment-method - the portal's new card
      .post("/sessions/:id/payment-method", params(SessionParamSchema), cardBody, async (c) => {
        const result = await provider().updatePaymentMethod(c.req.valid("param").id, currentUser(c).id, c.req.valid("json"));
        return c.json({ ...result, message: CARD_MESSAGES.paymentMethodUpdated });
      })
  );
}
