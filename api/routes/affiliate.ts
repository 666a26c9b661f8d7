/**
 * The affiliate programme (docs/product.md sections 2, 3 and 7; ADR 083), a Plus feature (the trial counts):
 *   GET  /api/affiliate/dashboard    get_affiliate_dashboard
 *   GET  /api/affiliate/earnings     get_monthly_earnings
 *   GET  /api/affiliate/eligibility  check_payout_eligibility
 *   GET  /api/affiliate/payouts      the owner's payout requests, newest first
 *   POST /api/affiliate/payouts      {amount, payoutEmail, requestKey}: request, deduct, e-mail
 *   POST /api/affiliate/renewals     {months, totalCost, requestKey}: process-balance-renewal
 */
import { Hono, type MiddlewareHandler } from "hono";
import { hasFeature } from "#core/plans.ts";
import { AFFILIATE_MESSAGES } from "#core/schemas/affiliate.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { plusRequired } from "../errors.ts";
import { affiliateDashboard, checkPayoutEligibility, listPayouts, monthlyEarnings, renewWithBalance, requestPayout } from "../services/affiliate.ts";
import { typedJson } from "../services/json-input.ts";
import { getProfile, planStateOf } from "../services/profile.ts";

/** What the dialogs send; amounts are in dollars as typed, checked on the server against the balance. */
export interface PayoutBody {
  amount: number;
  payoutEmail: string;
  requestKey: string;
}
export interface RenewalBody {
  months: number;
  totalCost?: number;
  requestKey: string;
}

export function affiliateRoutes(deps: AppDeps) {
  const affiliateProgram: MiddlewareHandler<AppEnv> = async (c, next) => {
    const p = getProfile(deps.db, currentUser(c).id);
    if (!hasFeature(planStateOf(p), "affiliate_program", deps.now())) {
      throw plusRequired("affiliate_program");
    }
    await next();
  };
  // The schemas depend on the owner's balance, so the services parse the body themselves.
  const raw = <T>() => typedJson<T, unknown>((value) => value);

  return (
    new Hono<AppEnv>()
      .use(requireUser)
      .use(affiliateProgram)
      // GET /api/affiliate/dashboard - balance, active referrals, referral link, this month's and total earnings
      .get("/dashboard", (c) => c.json(affiliateDashboard(deps, currentUser(c).id)))
      // GET /api/affiliate/earnings - one row per month
      .get("/earnings", (c) => c.json({ months: monthlyEarnings(deps, currentUser(c).id) }))
      // GET /api/affiliate/eligibility - each payout condition and the eligible amount
      .get("/eligibility", (c) => c.json(checkPayoutEligibility(deps, currentUser(c).id)))
      // GET /api/affiliate/payouts - payout history
      .get("/payouts", (c) => c.json({ payouts: listPayouts(deps, currentUser(c).id) }))
      // POST /api/affiliate/payouts - a cash payout request via PayPal
      .post("/payouts", raw<PayoutBody>(), async (c) => {
        const result = await requestPayout(deps, currentUser(c).id, c.req.valid("json"));
        return c.json({ ...result, message: AFFILIATE_MESSAGES.payoutRequested }, result.created ? 201 : 200);
      })
      // POST /api/affiliate/renewals - months of Plus paid from the rewards balance
      .post("/renewals", raw<RenewalBody>(), async (c) => {
        const result = await renewWithBalance(deps, currentUser(c).id, c.req.valid("json"));
        return c.json({ ...result, message: AFFILIATE_MESSAGES.renewed }, result.created ? 201 : 200);
      })
  );
}
