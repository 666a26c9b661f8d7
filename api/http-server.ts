/** The Node HTTP server: every request is answered by the Hono app (the API, the site and the published pages). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { getRequestListener } from "@hono/node-server";
import type { AppDeps } from "./context.ts";
import { log, logAddress, requestIdOf, runWithContext, type LogContext } from "./log.ts";
import { httpDuration, httpRequests } from "./metrics.ts";
import { clientAddress, incomingHeader } from "./services/client-key.ts";
import { createServerApp } from "./site.ts";

/** The header that carries a request's id back to the client, and from a trusted proxy to us. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * How long a client may take to send a request (issue 35): its headers within 10 s, the whole
 * request within 30 s, or it gets 408 and the connection closes (Node's defaults are 60 s and 300 s,
 * which let slow clients hold connections open). Open connections are checked every second.
 */
export const HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, checkEveryMs: 1_000 };

/** Servers told to stop: what they still answer closes its connection behind it. */
const draining = new WeakSet<Server>();

export function createHttpServer(deps: AppDeps, timeouts: typeof HTTP_TIMEOUTS = HTTP_TIMEOUTS): Server {
  const handle = getRequestListener(createServerApp(deps).fetch);
  const options = { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: timeouts.checkEveryMs };
  const accessLog = deps.env.LOG_REQUESTS;
  const server = createServer(options, (req, res) => {
    const started = performance.now();
    const reqId = requestIdOf(req.headers["x-request-id"], deps.env.TRUST_PROXY);
    res.setHeader(REQUEST_ID_HEADER, reqId);
    if (draining.has(server)) res.setHeader("Connection", "close");
    const ctx: LogContext = { bindings: { reqId } };
    res.once("close", () => finished(req, res, ctx, started));
    runWithContext(ctx, () => void handle(req, res));
  });
  return server;

  /**
   * One access line and the request metrics, once the answer is sent or the client went away (499).
   * The route is the pattern that answered (/api/links/:id), never the path, which may hold a
   * username or a token; the address is cut to its network (log.ts).
   */
  function finished(req: IncomingMessage, res: ServerResponse, ctx: LogContext, started: number) {
    const seconds = (performance.now() - started) / 1000;
    const status = res.writableFinished ? res.statusCode : 499;
    const route = ctx.route ?? "unmatched";
    const labels = { method: req.method ?? "", route, status: String(status) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, seconds);
    if (!accessLog) return;
    const address = clientAddress(incomingHeader(req, "x-forwarded-for"), req.socket.remoteAddress, deps.env.TRUST_PROXY);
    const line = { method: req.method, route, status, durationMs: Math.round(seconds * 100_000) / 100, userId: ctx.userId, client: logAddress(address) };
    runWithContext(ctx, () => (status >= 500 ? log().error(line, "request") : log().info(line, "request")));
  }
}

/**
 * The first step of a graceful stop (a rolling restart, ADR 180): no new connections; idle kept-alive
 * ones close now (a proxy that was about to reuse one retries on the other server), and each request
 * under way is answered, then its connection closes. `done` runs once the last connection is gone.
 */
export function stopAccepting(server: Server, done: () => void): void {
  draining.add(server);
  server.close(() => done());
  server.closeIdleConnections();
}
