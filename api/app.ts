/**
 * The Hono app: one route module per resource, composed with app.route() so that `typeof` the chain
 * gives the dashboard its client types (hc<AppType>).
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import { sessionMiddleware } from "./auth/middleware.ts";
import { sameOriginOnly } from "./auth/origin-check.ts";
import { SESSION_COOKIE } from "./auth/session.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import { ApiError, errorResponse } from "./errors.ts";
import { healthRoutes } from "./routes/health.ts";
import { linkRoutes } from "./routes/links.ts";
import { publishRoutes } from "./routes/publish.ts";

/** JSON bodies are small; uploads have their own, larger limit on their routes. */
export const JSON_BODY_LIMIT = 64 * 1024;

export function createApi(deps: AppDeps) {
  const api = new Hono<AppEnv>();

  api.use("*", secureHeaders({ crossOriginResourcePolicy: "same-origin" }));
  api.use("*", async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
  });
  api.use("*", sameOriginOnly(deps.env.PUBLIC_ORIGIN, SESSION_COOKIE));
  api.use(
    "*",
    bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: () => {
        throw new ApiError("payload_too_large", "Request body is too large");
      },
    }),
  );

  api.use("*", sessionMiddleware(deps));

  // One line per resource; each module documents its routes.
  const routes = api
    .route("/health", healthRoutes(deps))
    .route("/links", linkRoutes(deps))
    .route("/publish", publishRoutes(deps));

  api.notFound((c) => errorResponse(c, new ApiError("not_found", "Not found")));
  api.onError((err, c) => {
    if (err instanceof ApiError) return errorResponse(c, err);
    if (err instanceof HTTPException && err.status < 500) {
      const code = err.status === 413 ? "payload_too_large" : err.status === 401 ? "unauthorized" : "bad_request";
      return errorResponse(c, new ApiError(code, err.message || "Bad request"));
    }
    console.error("Unhandled error", c.req.method, c.req.path, err);
    return errorResponse(c, new ApiError("internal", "Something went wrong. Please try again later."));
  });

  return routes;
}

export type AppType = ReturnType<typeof createApi>;
