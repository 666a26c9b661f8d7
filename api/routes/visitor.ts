/**
 * Visitor routes called by published pages (which may live on another static host):
 *   POST /api/visitor/track  {type:'page_view',username,referrer?,url?} | {type:'link_click',username,linkId,referrer?} -> 204
 *   POST /api/visitor/lead   {linkId,email} -> 200 {downloadUrl}
 *   POST /api/visitor/report {username,reason,details?} -> 204
 * Cookie-less and cross-origin by design, so api/app.ts mounts them before the same-origin check,
 * the session and the owners' limits, none of which applies here; they take the API's headers and its
 * body limit like every route. CORS for any origin, never with credentials, and answers readable
 * cross-origin (a page on a CDN); rate-limited per client, the two that send e-mail more tightly;
 * lead mail is also capped per page and per recipient each day (ADR 092). The rules live in
 * api/services/visitor.ts.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { VISITOR_MESSAGES } from "#core/visitor.ts";
import { bodyText } from "../body-limit.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { clientKey, requestHeader } from "../services/client-key.ts";
import { createRateLimiter, limitStoreFor, type RateLimiter } from "../services/rate-limit.ts";
import { visitorService } from "../services/visitor.ts";
import { beaconsRefused } from "../metrics.ts";

const TRACK = "/api/visitor/track";

export function visitorRoutes(deps: AppDeps) {
  const visitors = visitorService(deps);
  const clientOf = (c: Parameters<MiddlewareHandler>[0]) => clientKey(c, deps.env.TRUST_PROXY);
  const limit =
    (limiter: RateLimiter): MiddlewareHandler =>
    async (c, next) => {
      if (!(await limiter.takeSoon(clientOf(c)))) {
        if (c.req.path === TRACK) beaconsRefused.inc({ reason: "limited" });
        throw new ApiError("rate_limited", VISITOR_MESSAGES.rateLimited);
      }
      await next();
    };
  // The limits are shared by every server process on the data folder (ADR 180).
  const everyRequest = limit(createRateLimiter(30, 1, { now: deps.now, store: limitStoreFor(deps.db), name: "visitor" }));
  // Each lead or report sends an e-mail: a client gets 10 at once, then one every 6 seconds.
  const mailRequest = limit(createRateLimiter(10, 1 / 6, { now: deps.now, store: limitStoreFor(deps.db), name: "visitor-mail" }));

  return new Hono<AppEnv>()
    .use("*", async (c, next) => {
      // Set before the route, so errors carry them too; the API's default is same-origin.
      c.header("Access-Control-Allow-Origin", "*");
      c.header("Cross-Origin-Resource-Policy", "cross-origin");
      if (c.req.method !== "OPTIONS") return everyRequest(c, next);
      c.header("Access-Control-Allow-Methods", "POST");
      c.header("Access-Control-Allow-Headers", "content-type");
      c.header("Access-Control-Max-Age", "86400");
      return c.body(null, 204);
    })
    .use("/lead", mailRequest)
    .use("/report", mailRequest)
    .post("/track", async (c) => {
      try {
        visitors.track(await bodyText(c), { userAgent: requestHeader(c, "user-agent") ?? "", referer: requestHeader(c, "referer"), address: clientOf(c) });
      } catch (err) {
        // A full write queue (503) is counted by the writer (event-writer.ts); a refused beacon here.
        if (err instanceof ApiError && err.status !== 503) beaconsRefused.inc({ reason: "invalid" });
        throw err;
      }
      return c.body(null, 204);
    })
    .post("/lead", async (c) => c.json(await visitors.lead(await bodyText(c))))
    .post("/report", async (c) => {
      await visitors.report(await bodyText(c), clientOf(c));
      return c.body(null, 204);
    });
}
