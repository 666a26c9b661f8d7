/**
 * The Hono app: one route module per resource, composed with app.route() so that `typeof` the chain
 * gives the dashboard its client types (hc<AppType>).
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { DASH } from "#core/dashboard-texts.ts";
import { LINK_FILE_MESSAGES } from "#core/link-files.ts";
import { PICTURE_MESSAGES } from "#core/profile.ts";
import { TargetWriteError } from "#renderer/publish-target.ts";
import { sessionMiddleware } from "./auth/middleware.ts";
import { ownerWriteLimit } from "./auth/owner-write-limit.ts";
import { sameOriginOnly } from "./auth/origin-check.ts";
import { cookieName, isSecureOrigin } from "./auth/cookies.ts";
import { SESSION_COOKIE } from "./auth/session.ts";
import { jsonBodyLimit } from "./body-limit.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import { ApiError, errorResponse, unexpectedError } from "./errors.ts";
import { analyticsRoutes } from "./routes/analytics.ts";
import { authRoutes } from "./routes/auth.ts";
import { healthRoutes } from "./routes/health.ts";
import { readyRoutes } from "./routes/ready.ts";
import { statusRoutes } from "./routes/status.ts";
import { contactRoutes } from "./routes/contact.ts";
import { isLinkFileUpload, linkRoutes } from "./routes/links.ts";
import { linkListRoutes } from "./routes/link-lists.ts";
import { socialLinkRoutes } from "./routes/social-links.ts";
import { meRoutes } from "./routes/me.ts";
import { upgradeRoutes } from "./routes/upgrade.ts";
import { eventRoutes } from "./routes/events.ts";
import { publishRoutes } from "./routes/publish.ts";
import { isPictureUpload, profileRoutes } from "./routes/profile.ts";
import { billingRoutes } from "./routes/billing.ts";
import { connectRoutes } from "./routes/connect.ts";
import { isDownloadUpload, paymentRoutes } from "./routes/payments.ts";
import { payRoutes } from "./routes/pay.ts";
import { adminRoutes } from "./routes/admin.ts";
import { affiliateRoutes } from "./routes/affiliate.ts";
import { visitorRoutes } from "./routes/visitor.ts";
import { domainRoutes } from "./routes/domains.ts";
import { log } from "./log.ts";

/**
 * Every API answer's headers: the defaults of Hono's secureHeaders with resources same-origin, and no
 * caching. Hono's middleware sets them after the route, on the finished answer, which makes the Node
 * adapter turn its light answer into a full fetch Response each time: setting them first let one core
 * answer about twice the requests.
 */
export const API_HEADERS: [string, string][] = [
  ["Cache-Control", "no-store"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Download-Options", "noopen"],
  ["X-Frame-Options", "SAMEORIGIN"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["X-XSS-Protection", "0"],
];

export function createApi(deps: AppDeps) {
  const api = new Hono<AppEnv>();

  // Set before the route runs, so a route may widen one by setting it again (the visitor routes are
  // read cross-origin) and every answer, errors included, is built once with them.
  api.use("*", async (c, next) => {
    for (const [name, value] of API_HEADERS) c.header(name, value);
    await next();
  });
  // Published pages call the visitor routes from any host, without cookies: mounted here, before the
  // same-origin check, the session and the owners' limits below, none of which runs for them.
  api.route("/visitor", visitorRoutes(deps));
  // Their payment forms and buyers' download links too (ADR 232): no cookie is read there.
  api.route("/pay", payRoutes(deps));

  api.use("*", sameOriginOnly(deps.env.PUBLIC_ORIGIN, cookieName(SESSION_COOKIE, isSecureOrigin(deps.env.PUBLIC_ORIGIN))));
  // Uploads carry their own, larger limits and messages.
  const isUpload = (method: string, path: string) => isPictureUpload(method, path) || isLinkFileUpload(method, path) || isDownloadUpload(method, path);
  // GET and HEAD carry no body; asking for one would build a whole fetch Request for every read.
  const bodiless = (method: string) => method === "GET" || method === "HEAD";
  api.use("*", (c, next) => (bodiless(c.req.method) || isUpload(c.req.method, c.req.path) ? next() : jsonBodyLimit(c, next)));

  api.use("*", sessionMiddleware(deps));
  api.use("*", ownerWriteLimit(deps));

  // One line per resource; each module documents its routes.
  const routes = api
    .route("/health", healthRoutes(deps))
    .route("/ready", readyRoutes(deps))
    .route("/auth", authRoutes(deps))
    .route("/status", statusRoutes(deps))
    .route("/contact", contactRoutes(deps))
    .route("/links", linkRoutes(deps))
    .route("/link-lists", linkListRoutes(deps))
    .route("/social-links", socialLinkRoutes(deps))
    .route("/me", meRoutes(deps))
    .route("/upgrade-requests", upgradeRoutes(deps))
    .route("/events", eventRoutes(deps))
    .route("/analytics", analyticsRoutes(deps))
    .route("/publish", publishRoutes(deps))
    .route("/profile", profileRoutes(deps))
    .route("/billing", billingRoutes(deps))
    .route("/connect", connectRoutes(deps))
    .route("/payments", paymentRoutes(deps))
    .route("/affiliate", affiliateRoutes(deps))
    .route("/domains", domainRoutes(deps))
    .route("/admin", adminRoutes(deps));

  // A sub-app's notFound is not consulted once it is mounted with app.route(), so unknown API paths
  // get an explicit catch-all, registered last, instead of falling through to the site's 404 page.
  // Bare /api is not an API path: it falls through to the site's 404 page.
  api.all("*", (c, next) => (c.req.path === "/api" ? next() : errorResponse(c, new ApiError("not_found", "Not found"))));
  api.notFound((c) => errorResponse(c, new ApiError("not_found", "Not found")));
  api.onError((err, c) => {
    if (err instanceof ApiError) return errorResponse(c, err);
    // The database has recorded the change; the bucket lags until the next publish (ADR 129). An
    // upload the bucket refused was stored nowhere, and says so in its screen's words.
    if (err instanceof TargetWriteError) {
      log().error({ method: c.req.method, reason: err.message }, "Publish target refused the writes");
      const upload = isPictureUpload(c.req.method, c.req.path) ? PICTURE_MESSAGES.uploadFailed : isLinkFileUpload(c.req.method, c.req.path) ? LINK_FILE_MESSAGES.uploadFailed : null;
      const refused = upload ? new ApiError("unavailable", upload) : new ApiError("unavailable", DASH.publishFailed, { details: { description: DASH.publishFailedText } });
      return errorResponse(c, refused);
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code = err.status === 413 ? "payload_too_large" : err.status === 401 ? "unauthorized" : "bad_request";
      return errorResponse(c, new ApiError(code, err.message || "Bad request"));
    }
    log().error({ err, method: c.req.method }, "Unhandled error");
    return errorResponse(c, unexpectedError());
  });

  return routes;
}

export type AppType = ReturnType<typeof createApi>;
