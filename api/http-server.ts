/** The Node HTTP server: every request is answered by the Hono app (the API, the site and the published pages). */
import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { AppDeps } from "./context.ts";
import { createServerApp } from "./site.ts";

/**
 * How long a client may take to send a request (issue 35): its headers within 10 s, the whole
 * request within 30 s, or it gets 408 and the connection closes (Node's defaults are 60 s and 300 s,
 * which let slow clients hold connections open). Open connections are checked every second.
 */
export const HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, checkEveryMs: 1_000 };

export function createHttpServer(deps: AppDeps, timeouts: typeof HTTP_TIMEOUTS = HTTP_TIMEOUTS): Server {
  const options = { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: timeouts.checkEveryMs };
  return createServer(options, getRequestListener(createServerApp(deps).fetch));
}
